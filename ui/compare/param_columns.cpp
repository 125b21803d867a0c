#include "ui/compare/param_columns.h"

#include "core/config/config_fields.h"

#include <QString>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace tw::ui {

const char *const kMissingParam = "—";

namespace {

// Qt's parser is locale-independent; strtod would read "0.5" as 0 under a German locale.
bool parseNumber(const std::string &text, double *value) {
  bool ok = false;
  *value = QString::fromStdString(text).trimmed().toDouble(&ok);
  return ok && std::isfinite(*value);
}

}  // namespace

std::vector<ParamColumn> paramColumns(const std::vector<const std::map<std::string, std::string> *> &runs) {
  std::set<std::string> keys;
  for (const auto *params : runs)
    for (const auto &[key, value] : *params) keys.insert(key);

  std::set<std::string> datasets;  // "" for a run that did not record its source
  for (const auto *params : runs) {
    auto found = params->find("data.dataset");
    datasets.insert(found == params->end() ? std::string() : found->second);
  }

  std::vector<ParamColumn> columns;
  columns.reserve(keys.size());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const std::string &key : keys) {
    ParamColumn column;
    column.key = key;
    column.numeric = true;
    column.applies = std::any_of(datasets.begin(), datasets.end(),
                                 [&](const std::string &dataset) { return config::appliesToSource(key, dataset); });
    bool anyMissing = false;
    for (const auto *params : runs) {
      auto found = params->find(key);
      if (found == params->end()) {
        column.values.push_back(kMissingParam);
        column.numbers.push_back(nan);
        anyMissing = true;
        continue;
      }
      double number = nan;
      if (!parseNumber(found->second, &number)) column.numeric = false;
      column.values.push_back(found->second);
      column.numbers.push_back(number);
    }
    if (!column.numeric) std::fill(column.numbers.begin(), column.numbers.end(), nan);

    std::vector<std::pair<double, std::string>> distinct;  // (sort key, value) of the runs that have it
    for (size_t run = 0; run < runs.size(); ++run)
      if (runs[run]->count(key)) distinct.emplace_back(column.numeric ? column.numbers[run] : 0.0, column.values[run]);
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    std::map<std::string, int> index;
    for (const auto &[number, value] : distinct) {
      index.emplace(value, static_cast<int>(column.categories.size()));
      column.categories.push_back(value);
    }
    if (anyMissing) column.categories.push_back(kMissingParam);
    column.differs = column.categories.size() > 1 && !config::isIdentityKey(key);
    for (size_t run = 0; run < runs.size(); ++run)
      column.categoryOf.push_back(runs[run]->count(key) ? index.at(column.values[run])
                                                        : static_cast<int>(column.categories.size()) - 1);
    columns.push_back(std::move(column));
  }
  return columns;
}

}  // namespace tw::ui
