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
  // fashion-mnist | mnist (IDX files) | csv | image-folder | spirals | blobs | tokens
  std::string dataset = "fashion-mnist";
  std::string path;          // IDX folder, CSV file or image folder; empty = the IDX dataset's Debian folder
  int64_t trainLimit = 0;    // use only the first N training examples (0 = all)
  int64_t testLimit = 0;     // use only the first N test examples (0 = all)
  // Keep only these classes (indices or names), relabelled 0.. in this order; the limits then
  // count the kept examples (data/class_filter.h). Empty = every class.
  std::vector<std::string> keepClasses;
  double valFraction = 0.1;  // share of the training examples held out for validation
  double testFraction = 0.2; // sources without their own test set (csv, image-folder, synthetic)
  bool stratify = true;      // classification: every split keeps the class proportions
  int64_t batchSize = 128;
  bool shuffle = true;
  bool normalize = true;     // standardise with statistics of the training split only
  // csv
  std::string task = "classification";   // classification | regression
  std::string target;                    // the target column
  std::vector<std::string> features;     // feature columns; empty = all but the target
  std::vector<std::string> categorical;  // columns one-hot encoded even when numeric
  std::string missing = "error";         // error | drop | mean | zero
  // image-folder: every image resized to this (0 = the first image's size); channels 0 = auto
  int64_t imageSize = 0;
  int64_t channels = 0;
  // spirals, blobs, tokens
  int64_t samples = 3000;
  int64_t classes = 3;
  double noise = 0.2;        // spirals, blobs
  // tokens: sequences of seq_len token ids below vocab_size (see data/token_sequences.h)
  int64_t seqLen = 32;
  int64_t vocabSize = 64;
  std::string tokenDtype = "uint16";  // token-file: the width of each token id
  int64_t windowsPerEpoch = 0;        // token-file: random windows per epoch (0 = every window once)
  // Augmentation of training batches (never of validation or test): random crop after
  // zero padding of `crop_padding` pixels, horizontal flip with probability `flip`, random erasing
  // with probability `erase`. Drawn from (seed, epoch, batch), so a resumed run sees the same ones.
  int64_t cropPadding = 0;
  double flip = 0.0;
  double erase = 0.0;
  int64_t workers = 0;       // image decoding / streamed table parsing threads (0 = one per core)
  int64_t prefetch = 4;      // batches prepared ahead on a background thread (0 = none)
  // Streamed sources (image folders): decoded examples kept in memory (uint8) after their first
  // read, within memory_mb (0 = a quarter of the machine's memory); what a bad image does. A CSV
  // table larger than memory_mb as floats is parsed per batch instead of read whole.
  std::string cache = "memory";  // none | memory | disk
  int64_t memoryMb = 0;
  std::string cacheDir;          // data.cache: disk: the folder of its nameless file ("" = the temp folder)
  std::string onBad = "error";   // error | skip
  // Packed shard sets: global (every example in a fresh random order each epoch, through the
  // index) or shards (the shards in a random order, each read front to back through a shuffle
  // buffer of shuffle_buffer examples: sequential reads, a less mixed order).
  std::string shuffleMode = "global";
  int64_t shuffleBuffer = 10000;
};

struct TrainOptions {
  std::string optimizer = "adam";  // sgd | adam | adamw | rmsprop
  double lr = 1e-3;
  double momentum = 0.9;           // sgd, rmsprop
  bool nesterov = false;           // sgd
  double weightDecay = 0.0;
  double beta1 = 0.9;              // adam, adamw
  double beta2 = 0.999;
  double alpha = 0.99;             // rmsprop smoothing
  double eps = 1e-8;               // adam, adamw, rmsprop
  // none | step | multistep | exponential | cosine | onecycle | plateau
  std::string schedule = "none";
  int64_t warmupSteps = 0;         // linear warm-up over the first N optimiser steps
  int64_t stepSize = 10;           // step: epochs between decays
  std::vector<int64_t> milestones; // multistep: epochs at which lr *= gamma
  double gamma = 0.1;              // step, multistep, exponential (per epoch), plateau factor
  double minLr = 0.0;              // cosine floor, plateau floor
  double pctStart = 0.3;           // onecycle: share of the steps spent rising to lr
  int64_t plateauPatience = 5;     // plateau: epochs without improvement before lr *= gamma
  double clipNorm = 0.0;           // clip the global gradient norm (0 = off)
  double clipValue = 0.0;          // clip every gradient element to [-v, v] (0 = off)
  int64_t accumulate = 1;          // batches per optimiser step
  double labelSmoothing = 0.0;     // cross_entropy
  // cross_entropy | bce_with_logits | mse | l1 | huber
  std::string loss = "cross_entropy";
  double huberDelta = 1.0;
  std::string precision = "fp32";  // fp32 | bf16 (autocast) | fp16 (CUDA only, dynamic loss scaling)
  std::string device = "cpu";      // cpu | cuda | cuda:N
  // auto | channels_last | contiguous: the layout of activations and convolution weights
  // (auto: channels-last for 2-D convolutions on the CPU; see engine/memory_format.h)
  std::string memoryFormat = "auto";
  int64_t epochs = 5;
  // Where the weights start (init_from.h): "run:<run>[@best|@last]" or a file, a Torchwright
  // checkpoint or a PyTorch state_dict; empty = initialised from the seed.
  std::string initFrom;
  std::vector<std::string> unfreeze;  // gradual unfreezing, "EPOCH:NODE+NODE" steps (unfreeze.h)
  int64_t unfreezeWarmupSteps = 0;    // steps over which an unfrozen group's rate rises (0: an epoch's)
  int64_t seed = 42;
  int64_t threads = 0;             // 0 = automatic (see engine/threads.h)
  int64_t logEvery = 1;            // log train/loss every N steps
  // Early stopping and the best checkpoint watch `monitor` (val/loss: lower is better; val/accuracy
  // and others: higher); patience 0 = never stop early.
  std::string monitor = "val/loss";
  int64_t patience = 0;
  double minDelta = 0.0;
  int64_t checkpointEvery = 0;     // also checkpoint every N optimiser steps (0 = per epoch only)
  int64_t keepEpochs = 0;          // keep the end of the newest N epochs as checkpoints/epoch-N.pt
  int64_t topK = 5;                // top-k accuracy
};

// How many processes train the run and how they talk (c10d). The same file trains on one process
// or many: data.batch_size is the global batch, split evenly across the ranks.
struct DistributedOptions {
  int64_t nprocPerNode = 1;        // ranks on this machine (torchwright launch --nproc-per-node)
  std::string backend = "auto";    // auto (NCCL on CUDA, Gloo on CPU) | gloo | nccl
  int64_t maxRestarts = 3;         // restarts from the last checkpoint after a rank dies
  double bucketMb = 25.0;          // gradient all-reduce bucket size (the first bucket is 1 MB)
  bool broadcastBuffers = true;    // rank 0's buffers (batch-norm statistics) before every step
  int64_t timeoutS = 300;          // a collective that waits longer fails the rank (a hung peer)
  // none | optimizer (each rank keeps the optimiser state of its share of every bucket, ZeRO-1) |
  // gradients (its share of the summed gradients too, ZeRO-2)
  std::string shard = "none";
};

struct TrackingOptions {
  std::string experiment = "default";
  std::string runName;
  std::string tensorboard;  // a folder: the run's metrics also as TensorBoard events, live; empty: none
};

struct RunConfig {
  std::string sourceFile;   // the run file, empty when built in memory
  std::string modelFile;    // resolved absolute path of the model file, empty when inline
  std::string modelYaml;    // the model specification text (always filled after loading)
  DataOptions data;
  TrainOptions train;
  DistributedOptions distributed;
  TrackingOptions tracking;
};

// Loads a run file, applies `key=value` overrides, validates types and ranges. `requireModel`
// false: a file read only for its data section (predict) may leave the model out.
RunConfig loadRunConfig(const std::string &path, const std::vector<std::string> &overrides = {},
                        bool requireModel = true);
RunConfig parseRunConfig(const std::string &yamlText, const std::string &fileName,
                         const std::vector<std::string> &overrides = {}, bool requireModel = true);

// The fully resolved configuration (model inlined) as YAML; loading it gives the same RunConfig.
std::string toYaml(const RunConfig &config);
// SHA-256 of the resolved configuration without the tracking section (what was trained), hex.
std::string configHash(const RunConfig &config);
// Every option as "section.key" -> value text, for the run's params table.
std::map<std::string, std::string> flattenConfig(const RunConfig &config);

}  // namespace tw::config
