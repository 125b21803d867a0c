#pragma once
// A search space: typed parameters over dotted keys, some active only when others take given
// values. Every sampler, pruner and analysis in core/search works on this one representation.
//
//   space:
//     train.lr: {type: float, low: 1.0e-4, high: 0.3, log: true}
//     train.optimizer: {type: categorical, choices: [sgd, adam]}
//     train.momentum: {type: float, low: 0.0, high: 0.95, when: {train.optimizer: sgd}}
//     data.batch_size: {type: int, low: 16, high: 256, log: true}
//     model.h1.width: {type: int, low: 32, high: 512, step: 32}
//
// A value is a double: the number itself for float and int, the index into `choices` for a
// categorical. Params hold only the active parameters of a trial.

#include <map>
#include <string>
#include <vector>

namespace tw::search {

enum class ParamType { Float, Int, Categorical };
std::string paramTypeName(ParamType type);  // "float", "int", "categorical"

// Active when the parameter `key` is active and its value, as text (valueText), is one of `values`.
struct Condition {
  std::string key;
  std::vector<std::string> values;
};

struct ParamSpec {
  std::string key;  // dotted run-file key or model.<node>.<field>
  ParamType type = ParamType::Float;
  double low = 0.0, high = 0.0;      // inclusive; float and int
  bool log = false;                  // sampled uniformly in log space (low > 0)
  double step = 0.0;                 // float: 0 = continuous; int: 0 means 1
  std::vector<std::string> choices;  // categorical, as written
  std::vector<Condition> when;       // every one must hold
  int line = 0;                      // where the sweep file declares it (0 = unknown)
};

using Params = std::map<std::string, double>;

struct SearchSpace {
  // Declared order, with every parameter after those its conditions name (checkSpace ensures it),
  // so samplers can walk it front to back.
  std::vector<ParamSpec> params;

  const ParamSpec *find(const std::string &key) const;
  bool empty() const { return params.empty(); }
};

// Problems with the space itself (not with run-file keys): an empty range, log with low <= 0, a
// step that does not divide the range, no choices, a condition on an unknown or later key or
// on a value that key cannot take. One message per problem, naming the key; empty when fine.
std::vector<std::string> checkSpace(const SearchSpace &space);

// Whether `spec` is active given the values chosen so far.
bool isActive(const ParamSpec &spec, const SearchSpace &space, const Params &params);

// The value as a person reads it and as a run file takes it: "0.0031", "64", "adam".
std::string valueText(const ParamSpec &spec, double value);
// A value's text cut to `significant` digits for tables and progress lines ("0.003519" for
// "0.0035197742858638"); integers and choices come back unchanged. Never for storage: only
// valueText reads back to the same value.
std::string displayText(const std::string &valueText, int significant = 4);
// The inverse of valueText for a value from the database or the CLI; false when it is not one
// the parameter can take (outside the range, off the step, not a choice).
bool parseValue(const ParamSpec &spec, const std::string &text, double *value);

// Snaps a number into the parameter's domain: clamps to [low, high], rounds int and stepped
// values to the grid, and rounds a categorical index to a valid one.
double snap(const ParamSpec &spec, double value);

// The parameter's domain mapped to [0, 1] (log-scaled when `log`), and back (snapped); samplers
// that work in the unit cube use these. A categorical maps index i to (i + 0.5) / n.
double toUnit(const ParamSpec &spec, double value);
double fromUnit(const ParamSpec &spec, double unit);

// Number of distinct values (ints and stepped floats); 0 for a continuous float.
long long cardinality(const ParamSpec &spec);

}  // namespace tw::search
