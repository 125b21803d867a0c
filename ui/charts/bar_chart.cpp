#include "ui/charts/bar_chart.h"

#include "ui/charts/chart_export.h"
#include "ui/charts/chart_theme.h"
#include "ui/charts/nice_axis.h"
#include "ui/charts/series_palette.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHorizontalBarSeries>
#include <QLegend>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>

namespace tw::ui {

BarChart::BarChart(QWidget *parent) : QWidget(parent) {
  m_chart = new QChart();
  m_chart->setBackgroundVisible(false);
  m_chart->setMargins(QMargins(2, 2, 2, 2));
  m_chart->legend()->hide();
  m_chart->setAnimationOptions(QChart::NoAnimation);
  m_chart->setLocalizeNumbers(true);  // axis labels in the locale, as every number in Studio
  m_view = new QChartView(m_chart, this);
  followPaletteTheme(m_view);
  m_view->setRenderHint(QPainter::Antialiasing);
  m_view->setFrameShape(QFrame::NoFrame);
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_view);
  ChartExport::install(this, [this] {
    return [bars = m_bars, valueTitle = m_valueTitle] {
      CsvTable table{{QStringLiteral("name"), valueTitle.isEmpty() ? QStringLiteral("value") : valueTitle}, {}};
      for (const auto &[name, value] : bars) table.rows.append({name, csvNumber(value)});
      return table;
    };
  });
}

BarChart::~BarChart() = default;

void BarChart::setBars(std::vector<std::pair<QString, double>> bars, const QString &valueTitle) {
  m_chart->removeAllSeries();
  for (QAbstractAxis *axis : m_chart->axes()) {
    m_chart->removeAxis(axis);
    delete axis;
  }
  std::stable_sort(bars.begin(), bars.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
  m_bars = std::move(bars);
  m_valueTitle = valueTitle;
  if (m_bars.empty()) return;
  auto *set = new QBarSet(valueTitle);
  set->setColor(seriesColor(0));
  QStringList labels;
  double highest = 0.0;
  // A horizontal bar series draws its first category at the bottom: add the smallest first.
  for (auto it = m_bars.rbegin(); it != m_bars.rend(); ++it) {
    *set << it->second;
    labels << it->first;
    highest = std::max(highest, it->second);
  }
  auto *series = new QHorizontalBarSeries();
  series->append(set);
  series->setLabelsVisible(true);
  series->setLabelsFormat(QStringLiteral("@value"));
  series->setLabelsPrecision(3);
  m_chart->addSeries(series);
  auto *categories = new QBarCategoryAxis();
  categories->append(labels);
  categories->setLabelsFont(font());
  auto *values = new QValueAxis();
  values->setTickType(QValueAxis::TicksDynamic);
  values->setLabelFormat(QStringLiteral("%.2g"));
  setNiceRange(values, 0.0, highest > 0.0 ? highest * 1.1 : 1.0, 5);
  values->setTitleText(valueTitle);
  m_chart->addAxis(categories, Qt::AlignLeft);
  m_chart->addAxis(values, Qt::AlignBottom);
  series->attachAxis(categories);
  series->attachAxis(values);
}

QStringList BarChart::drawnLabels() const {
  QStringList labels;
  for (const auto &bar : m_bars) labels << bar.first;
  return labels;
}

std::vector<double> BarChart::drawnValues() const {
  std::vector<double> values;
  for (const auto &bar : m_bars) values.push_back(bar.second);
  return values;
}

}  // namespace tw::ui
