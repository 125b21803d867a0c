#include "core/search/analysis_table.h"

namespace tw::search {

int AnalysisTable::column(const std::string &key) const {
  for (size_t i = 0; i < keys.size(); ++i)
    if (keys[i] == key) return static_cast<int>(i);
  return -1;
}

AnalysisTable analysisTable(const SearchSpace &space, const std::vector<Trial> &trials, size_t objective) {
  AnalysisTable table;
  std::vector<const Trial *> rows;
  for (const Trial *t : completeTrials(trials))
    if (objective < t->values.size()) rows.push_back(t);

  std::vector<const ParamSpec *> specs;
  for (const auto &spec : space.params) {
    size_t active = 0;
    for (const Trial *t : rows) active += t->params.count(spec.key);
    if (active == 0) continue;
    const double w = static_cast<double>(rows.size() - active) / static_cast<double>(active);
    specs.push_back(&spec);
    table.keys.push_back(spec.key);
    table.domain.push_back({-w, 1.0});
  }
  for (const Trial *t : rows) {
    std::vector<double> row;
    for (size_t c = 0; c < specs.size(); ++c) {
      auto found = t->params.find(specs[c]->key);
      // Just below 0: the split between inactive and active rows lands at about 0.
      row.push_back(found != t->params.end() ? toUnit(*specs[c], found->second) : table.domain[c].low * 1e-3);
    }
    table.rows.push_back(std::move(row));
    table.targets.push_back(t->values[objective]);
    table.numbers.push_back(t->number);
  }
  return table;
}

}  // namespace tw::search
