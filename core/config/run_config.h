#pragma once
// A run file: model, data, train, tracking. Typed options with their defaults in one place.
//
//   model: fashion_mlp.model.yaml     # a path (relative to this file) or an inline model map
//   data:  {dataset: fashion-mnist, train_limit: 2000, val_fraction: 0.1, batch_size: 128}
//   train: {optimizer: adam, lr: 1e-3, epochs: 5, seed: 42, threads: auto}
//   tracking: {experiment: fashion, run_name: mlp-baseline}
//
// Dotted overrides (`train.lr=3e-4`) are applied on top; unknown keys are errors.

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace tw::config {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;  // message already names file, line and key
};

struct DataOptions {
  std::string dataset = "fashion-mnist";  // "fashion-mnist" or "mnist" (IDX files)
  std::string path;          // folder with the IDX files; empty = the Debian package's folder
  int64_t trainLimit = 0;    // use only the first N training images (0 = all)
  int64_t testLimit = 0;     // use only the first N test images (0 = all)
  double valFraction = 0.1;  // share of the training images held out for validation
  int64_t batchSize = 128;
  bool shuffle = true;
  bool normalize = true;     // scale to [0,1] then standardise with the training-set mean/std
};

struct TrainOptions {
  std::string optimizer = "adam";  // sgd | adam | adamw
  double lr = 1e-3;
  double momentum = 0.9;           // sgd
  double weightDecay = 0.0;
  double beta1 = 0.9;              // adam, adamw
  double beta2 = 0.999;
  int64_t epochs = 5;
  int64_t seed = 42;
  int64_t threads = 0;             // 0 = automatic (see engine/threads.h)
  std::string loss = "cross_entropy";
  int64_t logEvery = 1;            // log train/loss every N steps
};

struct TrackingOptions {
  std::string experiment = "default";
  std::string runName;
};

struct RunConfig {
  std::string sourceFile;   // the run file, empty when built in memory
  std::string modelFile;    // resolved absolute path of the model file, empty when inline
  std::string modelYaml;    // the model specification text (always filled after loading)
  DataOptions data;
  TrainOptions train;
  TrackingOptions tracking;
};

// Loads a run file, applies `key=value` overrides, validates types and ranges.
RunConfig loadRunConfig(const std::string &path, const std::vector<std::string> &overrides = {});
RunConfig parseRunConfig(const std::string &yamlText, const std::string &fileName,
                         const std::vector<std::string> &overrides = {});

// The fully resolved configuration (model inlined) as YAML; loading it gives the same RunConfig.
std::string toYaml(const RunConfig &config);
// SHA-256 of the resolved configuration without the tracking section (what was trained), hex.
std::string configHash(const RunConfig &config);
// Every option as "section.key" -> value text, for the run's params table.
std::map<std::string, std::string> flattenConfig(const RunConfig &config);

}  // namespace tw::config
