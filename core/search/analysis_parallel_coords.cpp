#include "core/search/analysis_parallel_coords.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tw::search {

ParallelCoordinates parallelCoordinates(const SearchSpace &space, const std::vector<Trial> &trials,
                                        const std::string &objectiveLabel, size_t objective) {
  ParallelCoordinates out;
  std::vector<const Trial *> complete;
  double low = std::numeric_limits<double>::infinity(), high = -low;
  for (const Trial *t : completeTrials(trials)) {
    if (objective >= t->values.size()) continue;
    complete.push_back(t);
    low = std::min(low, t->values[objective]);
    high = std::max(high, t->values[objective]);
  }
  for (const auto &spec : space.params) out.axes.push_back(paramAxis(spec));
  out.axes.push_back(valueAxis(objectiveLabel, complete.empty() ? 0.0 : low, complete.empty() ? 0.0 : high));

  for (const Trial *t : complete) {
    ParallelLine line;
    line.number = t->number;
    line.objective = t->values[objective];
    for (const auto &spec : space.params) {
      auto found = t->params.find(spec.key);
      line.units.push_back(found == t->params.end() ? std::numeric_limits<double>::quiet_NaN()
                                                    : toUnit(spec, found->second));
    }
    line.units.push_back(valueAxisUnit(line.objective, low, high));
    out.lines.push_back(std::move(line));
  }
  return out;
}

}  // namespace tw::search
