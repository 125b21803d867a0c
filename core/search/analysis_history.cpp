#include "core/search/analysis_history.h"

#include <algorithm>

namespace tw::search {

std::vector<HistoryPoint> optimizationHistory(const std::vector<Trial> &trials, Direction direction,
                                              size_t objective) {
  std::vector<const Trial *> complete = completeTrials(trials);
  std::stable_sort(complete.begin(), complete.end(), [](const Trial *a, const Trial *b) { return a->number < b->number; });
  std::vector<HistoryPoint> out;
  for (const Trial *t : complete) {
    if (objective >= t->values.size()) continue;
    HistoryPoint p;
    p.number = t->number;
    p.value = t->values[objective];
    p.improved = out.empty() || better(direction, p.value, out.back().best);
    p.best = p.improved ? p.value : out.back().best;
    out.push_back(p);
  }
  return out;
}

}  // namespace tw::search
