#pragma once
// What the Compare page's views read: the loaded runs, their parameters as columns, and the
// metric summaries read so far. Owned by the page; the views are handed it after every load
// and hold no copy.
//
//   auto values = comparison.metricValues("val/loss", Statistic::Min);
//   if (!values) loader->loadSummaries(..., "val/loss");   // read first, then ask again

#include "ui/compare/compare_loader.h"
#include "ui/compare/metric_summary.h"
#include "ui/compare/param_columns.h"

#include <QStringList>

#include <map>
#include <optional>
#include <string>
#include <vector>

class QComboBox;

namespace tw::ui {

struct Comparison {
  CompareData data;
  std::vector<ParamColumn> columns;                  // every parameter, sorted by key
  std::map<std::string, MetricSummaries> summaries;  // other metrics than data.metric, read on demand

  explicit Comparison(CompareData loaded);
  const ParamColumn *column(const std::string &key) const;
  std::vector<const ParamColumn *> differingColumns() const;
  // What Scatter and Parallel coordinates may place runs along: parameters that apply to the
  // runs' data source, those that differ first, then (withShared) those all runs share.
  std::vector<const ParamColumn *> plottableColumns(bool withShared) const;
  // A numeric parameter reads better on a log axis: a sweep behind the runs sampled it on a log
  // scale, or its values span two orders of magnitude or more (all positive either way).
  bool logAxis(const ParamColumn &column) const;
  QStringList runNames() const;
  // One value per run, NaN where the run has none. nullopt: the minimum or maximum of a metric
  // other than the compared one, not read yet.
  std::optional<std::vector<double>> metricValues(const std::string &key, Statistic statistic) const;
};

// Values spanning two orders of magnitude or more, all positive (learning rates, weight
// decays), read better on a logarithmic axis.
bool prefersLogScale(const std::vector<double> &values);

// Fills a combo with Final, Minimum, Maximum (Statistic in the item data).
void addStatistics(QComboBox *combo);
Statistic statisticOf(const QComboBox *combo);
// "val/loss (final)" and the like, for axis titles.
QString metricTitle(const std::string &key, Statistic statistic);

}  // namespace tw::ui
