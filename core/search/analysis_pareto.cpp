#include "core/search/analysis_pareto.h"

#include "core/search/pareto.h"

#include <algorithm>
#include <set>

namespace tw::search {

ParetoPlot paretoPlot(const std::vector<Trial> &trials, const std::vector<Direction> &directions,
                      const std::vector<std::string> &labels) {
  ParetoPlot plot;
  if (directions.size() < 2) return plot;
  std::set<int> front;
  for (const Trial *t : paretoFront(trials, directions)) front.insert(t->number);
  double low[2] = {0, 0}, high[2] = {0, 0};
  bool first = true;
  for (const Trial *t : completeTrials(trials)) {
    if (t->values.size() < 2) continue;
    for (int k = 0; k < 2; ++k) {
      low[k] = first ? t->values[k] : std::min(low[k], t->values[k]);
      high[k] = first ? t->values[k] : std::max(high[k], t->values[k]);
    }
    first = false;
    ParetoPoint p;
    p.number = t->number;
    p.values = t->values;
    p.onFront = front.count(t->number) > 0;
    plot.points.push_back(std::move(p));
  }
  auto label = [&](size_t k) { return k < labels.size() ? labels[k] : "objective " + std::to_string(k); };
  plot.xAxis = valueAxis(label(0), low[0], high[0]);
  plot.yAxis = valueAxis(label(1), low[1], high[1]);
  for (auto &p : plot.points) {
    p.x = valueAxisUnit(p.values[0], low[0], high[0]);
    p.y = valueAxisUnit(p.values[1], low[1], high[1]);
  }
  return plot;
}

}  // namespace tw::search
