#include "ui/compare/comparison.h"

#include <QComboBox>
#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>

namespace tw::ui {

Comparison::Comparison(CompareData loaded) : data(std::move(loaded)) {
  std::vector<const std::map<std::string, std::string> *> params;
  params.reserve(data.runs.size());
  for (const auto &run : data.runs) params.push_back(&run.params);
  columns = paramColumns(params);
}

const ParamColumn *Comparison::column(const std::string &key) const {
  auto found = std::find_if(columns.begin(), columns.end(), [&](const ParamColumn &c) { return c.key == key; });
  return found == columns.end() ? nullptr : &*found;
}

std::vector<const ParamColumn *> Comparison::differingColumns() const {
  std::vector<const ParamColumn *> differing;
  for (const ParamColumn &c : columns)
    if (c.differs) differing.push_back(&c);
  return differing;
}

std::vector<const ParamColumn *> Comparison::plottableColumns(bool withShared) const {
  std::vector<const ParamColumn *> plottable;
  for (const ParamColumn &c : columns)
    if (c.applies && c.differs) plottable.push_back(&c);
  if (!withShared) return plottable;
  for (const ParamColumn &c : columns)
    if (c.applies && !c.differs) plottable.push_back(&c);
  return plottable;
}

bool Comparison::logAxis(const ParamColumn &column) const {
  if (!column.numeric) return false;
  if (!data.logParams.count(column.key)) return prefersLogScale(column.numbers);
  // A log axis cannot place zero or less; a sweep's log range never holds one, a hand-made run can.
  return std::none_of(column.numbers.begin(), column.numbers.end(), [](double v) { return v <= 0.0; });
}

QStringList Comparison::runNames() const {
  QStringList names;
  for (const auto &run : data.runs) names << QString::fromStdString(run.run.name);
  return names;
}

std::optional<std::vector<double>> Comparison::metricValues(const std::string &key, Statistic wanted) const {
  const Statistic statistic = concreteStatistic(wanted, key);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> values;
  values.reserve(data.runs.size());
  if (key == data.metric) {
    for (const auto &run : data.runs) values.push_back(summaryValue(run.summary, statistic));
    return values;
  }
  if (statistic == Statistic::Final) {  // latest_metrics has it for every metric
    for (const auto &run : data.runs) {
      auto found = run.finals.find(key);
      values.push_back(found == run.finals.end() ? nan : found->second);
    }
    return values;
  }
  auto read = summaries.find(key);
  if (read == summaries.end()) return std::nullopt;
  for (const auto &run : data.runs) {
    auto found = read->second.byRun.find(run.run.id);
    values.push_back(found == read->second.byRun.end() ? nan : summaryValue(found->second, statistic));
  }
  return values;
}

bool prefersLogScale(const std::vector<double> &values) {
  double low = std::numeric_limits<double>::infinity(), high = 0.0;
  for (double v : values) {
    if (std::isnan(v)) continue;
    if (v <= 0.0 || !std::isfinite(v)) return false;
    low = std::min(low, v);
    high = std::max(high, v);
  }
  return high > 0.0 && high / low >= 100.0;
}

void addStatistics(QComboBox *combo) {
  combo->addItem(QCoreApplication::translate("tw::ui::Comparison", "Final value"), static_cast<int>(Statistic::Final));
  combo->addItem(QCoreApplication::translate("tw::ui::Comparison", "Minimum"), static_cast<int>(Statistic::Min));
  combo->addItem(QCoreApplication::translate("tw::ui::Comparison", "Maximum"), static_cast<int>(Statistic::Max));
  combo->addItem(QCoreApplication::translate("tw::ui::Comparison", "Best"), static_cast<int>(Statistic::Best));
  combo->setToolTip(QCoreApplication::translate(
      "tw::ui::Comparison", "Which value of each run's metric to place it at: its last, lowest or highest, or its "
                            "best (lowest for losses and errors, highest otherwise)"));
}

Statistic statisticOf(const QComboBox *combo) { return static_cast<Statistic>(combo->currentData().toInt()); }

QString metricTitle(const std::string &key, Statistic statistic) {
  const QString name = QString::fromStdString(key);
  switch (statistic) {
    case Statistic::Final: return QCoreApplication::translate("tw::ui::Comparison", "%1 (final)").arg(name);
    case Statistic::Min: return QCoreApplication::translate("tw::ui::Comparison", "%1 (min)").arg(name);
    case Statistic::Max: return QCoreApplication::translate("tw::ui::Comparison", "%1 (max)").arg(name);
    case Statistic::Best: return QCoreApplication::translate("tw::ui::Comparison", "%1 (best)").arg(name);
  }
  return name;
}

}  // namespace tw::ui
