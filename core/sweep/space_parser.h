#pragma once
// Internal to core/sweep: the `space:` map of a sweep file read into a search::SearchSpace, with
// every parameter's own rules (search::checkSpace) reported at its line.
//
//   space:
//     train.lr: {type: float, low: 1.0e-4, high: 0.3, log: true}
//     train.optimizer: [sgd, adam]          # a list alone is a categorical
//     train.momentum: {type: float, low: 0.0, high: 0.95, when: {train.optimizer: sgd}}

#include "core/search/space.h"
#include "core/sweep/sweep_problems.h"

#include <map>
#include <string>

namespace tw::sweep::detail {

// Where each parameter's key is written.
using KeyMarks = std::map<std::string, YAML::Mark>;

search::SearchSpace parseSpace(const YAML::Node &space, KeyMarks &marks, Problems &problems);

}  // namespace tw::sweep::detail
