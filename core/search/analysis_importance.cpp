#include "core/search/analysis_importance.h"

#include "core/search/analysis_table.h"

#include <algorithm>
#include <cmath>

namespace tw::search {

std::vector<ParamImportance> paramImportances(const SearchSpace &space, const std::vector<Trial> &trials,
                                              const ImportanceOptions &options) {
  const AnalysisTable table = analysisTable(space, trials, options.objective);
  if (table.rows.size() < 2 || table.keys.empty()) return {};

  RandomForest forest(options.forest);
  forest.fit(table.rows, table.targets, table.domain);

  // Per tree with any variance, each parameter's fraction of it (Optuna's get_importance).
  const size_t nParams = table.keys.size();
  std::vector<std::vector<double>> fractions(nParams);
  for (const auto &tree : forest.trees()) {
    const double total = tree.variance();
    if (!(total > 0)) continue;
    for (size_t p = 0; p < nParams; ++p)
      fractions[p].push_back(std::max(0.0, tree.marginalVariance(static_cast<int>(p))) / total);
  }

  std::vector<ParamImportance> out(nParams);
  double sum = 0;
  for (size_t p = 0; p < nParams; ++p) {
    out[p].key = table.keys[p];
    const auto &f = fractions[p];
    if (f.empty()) continue;
    double mean = 0, squares = 0;
    for (double v : f) mean += v;
    mean /= static_cast<double>(f.size());
    for (double v : f) squares += (v - mean) * (v - mean);
    out[p].importance = mean;
    out[p].spread = std::sqrt(squares / static_cast<double>(f.size()));
    sum += mean;
  }
  if (sum > 0)
    for (auto &p : out) {
      p.importance /= sum;
      p.spread /= sum;
    }
  std::stable_sort(out.begin(), out.end(),
                   [](const ParamImportance &a, const ParamImportance &b) { return a.importance > b.importance; });
  return out;
}

}  // namespace tw::search
