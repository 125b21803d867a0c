#include "core/search/analysis_contour.h"

#include "core/search/analysis_table.h"

#include <algorithm>
#include <stdexcept>

namespace tw::search {

ContourData contourData(const SearchSpace &space, const std::vector<Trial> &trials, const std::string &xKey,
                        const std::string &yKey, const ContourOptions &options) {
  const ParamSpec *xSpec = space.find(xKey);
  const ParamSpec *ySpec = space.find(yKey);
  if (!xSpec || !ySpec) throw std::invalid_argument("contour: no parameter '" + (xSpec ? yKey : xKey) + "'");
  if (xKey == yKey) throw std::invalid_argument("contour: '" + xKey + "' against itself");

  ContourData out;
  out.xAxis = paramAxis(*xSpec);
  out.yAxis = paramAxis(*ySpec);
  for (const Trial *t : completeTrials(trials)) {
    auto x = t->params.find(xKey), y = t->params.find(yKey);
    if (x == t->params.end() || y == t->params.end() || options.objective >= t->values.size()) continue;
    out.points.push_back({t->number, x->second, y->second, toUnit(*xSpec, x->second), toUnit(*ySpec, y->second),
                          t->values[options.objective]});
  }

  const AnalysisTable table = analysisTable(space, trials, options.objective);
  const int xColumn = table.column(xKey), yColumn = table.column(yKey);
  if (table.rows.size() < 2 || xColumn < 0 || yColumn < 0 || options.gridSize < 1) return out;

  RandomForest forest(options.forest);
  forest.fit(table.rows, table.targets, table.domain);
  const int n = options.gridSize;
  out.gridSize = n;
  for (int i = 0; i < n; ++i) out.gridUnits.push_back((i + 0.5) / n);
  // The grid spans the active range [0, 1] of each parameter; a conditional one's inactive band
  // below 0 is not part of the picture.
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      out.z.push_back(forest.marginal({xColumn, yColumn}, {out.gridUnits[static_cast<size_t>(i)],
                                                           out.gridUnits[static_cast<size_t>(j)]}));
  const auto [lo, hi] = std::minmax_element(out.z.begin(), out.z.end());
  out.zMin = *lo;
  out.zMax = *hi;
  return out;
}

}  // namespace tw::search
