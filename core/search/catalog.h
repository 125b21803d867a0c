#pragma once
// The one table of samplers and pruners: each with its name, its typed options (defaults as
// Optuna has them), whether it handles several objectives, and how to make one. Sweep files,
// `torchwright sweep`, Studio's Sweeps form and the benchmarks all read this table.
//
//   sampler: {type: tpe, multivariate: true, n_startup_trials: 10, seed: 1}
//   pruner:  {type: asha, reduction_factor: 3, min_resource: 1}

#include "core/search/pruner.h"
#include "core/search/sampler.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tw::search {

enum class OptionKind { Int, Float, Bool, Choice };

struct OptionSpec {
  std::string key;                   // as written in the sweep file: "n_startup_trials"
  OptionKind kind = OptionKind::Int;
  std::string defaultText;           // "10", "true", "sobol"
  std::optional<double> min, max;    // inclusive, numbers only
  std::vector<std::string> choices;  // Choice only
  std::string doc;
};

// Option key -> value as written. Missing keys take their defaults.
using OptionValues = std::map<std::string, std::string>;

// Reads typed options with their defaults; the values must have passed checkOptions.
class OptionReader {
 public:
  OptionReader(const std::vector<OptionSpec> &specs, const OptionValues &values) : m_specs(specs), m_values(values) {}
  // It keeps references: a temporary would be gone before the first read.
  OptionReader(std::vector<OptionSpec> &&, const OptionValues &) = delete;
  OptionReader(const std::vector<OptionSpec> &, OptionValues &&) = delete;
  OptionReader(std::vector<OptionSpec> &&, OptionValues &&) = delete;
  int64_t integer(const std::string &key) const;
  double number(const std::string &key) const;
  bool flag(const std::string &key) const;
  std::string choice(const std::string &key) const;

 private:
  const std::string &text(const std::string &key) const;
  const std::vector<OptionSpec> &m_specs;
  const OptionValues &m_values;
};

// One message per problem ("unknown option 'n_startup' (known: ...)", "'gamma' must be in
// [0, 1]"), each naming the option; empty when fine.
std::vector<std::string> checkOptions(const std::vector<OptionSpec> &specs, const OptionValues &values);

struct SamplerEntry {
  std::string name;  // "tpe"
  std::string doc;
  std::vector<OptionSpec> options;
  bool multiObjective = false;  // handles more than one objective
  bool categorical = true;      // handles categorical parameters (CMA-ES does not)
  // Options that contradict each other, as written (`given` holds only what the file sets);
  // empty when none. Null: any combination goes.
  std::function<std::vector<std::string>(const OptionValues &given)> conflicts;
  std::function<std::unique_ptr<Sampler>(const OptionValues &)> make;
};

struct PrunerEntry {
  std::string name;  // "median"
  std::string doc;
  std::vector<OptionSpec> options;
  std::function<std::vector<std::string>(const OptionValues &given)> conflicts;  // as SamplerEntry's
  std::function<std::unique_ptr<Pruner>(const OptionValues &)> make;
};

const std::vector<SamplerEntry> &samplerCatalog();
// The sampler a sweep file without a `sampler` key gets, with its entry's default options; the
// sweep file, Studio's form and `torchwright sweep --help` read it from here.
const std::string &defaultSamplerName();
// "tpe {multivariate: true, group: true}": the default sampler with the defaults of the flags
// that decide its model, as --help says it.
std::string defaultSamplerText();
const std::vector<PrunerEntry> &prunerCatalog();
const SamplerEntry *findSampler(const std::string &name);
const PrunerEntry *findPruner(const std::string &name);

// Each sampler's and pruner's file defines its entry; catalog.cpp lists them.
SamplerEntry randomSamplerEntry();
SamplerEntry gridSamplerEntry();
SamplerEntry quasiRandomSamplerEntry();
SamplerEntry tpeSamplerEntry();
SamplerEntry cmaesSamplerEntry();
SamplerEntry gpSamplerEntry();
SamplerEntry nsga2SamplerEntry();
PrunerEntry nopPrunerEntry();
PrunerEntry medianPrunerEntry();
PrunerEntry percentilePrunerEntry();
PrunerEntry ashaPrunerEntry();
PrunerEntry hyperbandPrunerEntry();

}  // namespace tw::search
