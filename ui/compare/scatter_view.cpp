#include "ui/compare/scatter_view.h"

#include "ui/charts/scatter_chart.h"
#include "ui/common/number_format.h"
#include "ui/compare/comparison.h"
#include "ui/compare/empty_state.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <cmath>

namespace tw::ui {

ScatterView::ScatterView(QWidget *parent)
    : QWidget(parent), m_x(new QComboBox(this)), m_y(new QComboBox(this)), m_statistic(new QComboBox(this)),
      m_status(new QLabel(this)), m_chart(new ScatterChart(this)), m_empty(new EmptyState(m_chart)) {
  m_empty->showMessage(EmptyState::selectRunsMessage());
  addStatistics(m_statistic);
  m_chart->setObjectName(QStringLiteral("compareScatter"));
  for (QComboBox *combo : {m_x, m_y}) combo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  auto *controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("Parameter"), this));
  controls->addWidget(m_x);
  controls->addWidget(new QLabel(tr("Metric"), this));
  controls->addWidget(m_y);
  controls->addWidget(m_statistic);
  controls->addWidget(m_status, 1);
  auto *layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addWidget(m_chart, 1);
  for (QComboBox *combo : {m_x, m_y, m_statistic})
    connect(combo, &QComboBox::currentIndexChanged, this, &ScatterView::refresh);
}

void ScatterView::setComparison(const Comparison *comparison) {
  m_comparison = comparison;
  const QString keptX = m_x->currentText();
  QSignalBlocker blockX(m_x);
  QSignalBlocker blockY(m_y);
  // Differing parameters first: they are the ones a scatter can tell anything about. Only those of
  // the runs' data source: a CSV column name is no axis for Fashion-MNIST runs.
  m_x->clear();
  for (const ParamColumn *column : comparison->plottableColumns(/*withShared=*/true))
    m_x->addItem(QString::fromStdString(column->key));
  if (m_x->findText(keptX) >= 0) m_x->setCurrentText(keptX);
  m_y->clear();
  for (const std::string &key : comparison->data.metricKeys) m_y->addItem(QString::fromStdString(key));
  const QString metric = QString::fromStdString(comparison->data.metric);
  if (m_y->findText(metric) < 0) m_y->addItem(metric);
  m_y->setCurrentText(metric);  // the page's metric, as on the other tabs
  refresh();
}

void ScatterView::refresh() {
  if (!m_comparison) return;
  const ParamColumn *column = m_comparison->column(m_x->currentText().toStdString());
  const std::string metric = m_y->currentText().toStdString();
  const Statistic statistic = statisticOf(m_statistic);
  const auto values = m_comparison->metricValues(metric, statistic);
  if (!values) {
    m_status->setText(tr("Reading every point of %1…").arg(m_y->currentText()));
    Q_EMIT summariesWanted(m_y->currentText());
    return;
  }
  if (!column) {
    m_status->clear();
    m_empty->showMessage(tr("These runs recorded no parameters of their data source to place them along. "
                            "Compare runs recorded by torchwright train or a sweep."));
    m_chart->setPoints({}, {}, {});
    return;
  }
  m_empty->clear();
  ScatterChart::Axis x;
  x.title = QString::fromStdString(column->key);
  if (column->numeric) x.log = m_comparison->logAxis(*column);
  else
    for (const std::string &category : column->categories) x.categories << formatValueText(QString::fromStdString(category));
  ScatterChart::Axis y;
  y.title = metricTitle(metric, statistic);
  std::vector<ScatterChart::Point> points;
  int missing = 0;
  for (size_t run = 0; run < m_comparison->data.runs.size(); ++run) {
    ScatterChart::Point point;
    point.x = column->numeric ? column->numbers[run] : column->categoryOf[run];
    point.y = (*values)[run];
    // The tooltip names the run and both of its values, as every number in Studio reads.
    const QString xText = column->numeric ? formatNumber(point.x) : x.categories.value(static_cast<int>(point.x));
    point.label = QString::fromStdString(m_comparison->data.runs[run].run.name);
    point.detail = tr("%1 = %2, %3 = %4").arg(x.title, xText, y.title, formatNumber(point.y));
    if (!std::isfinite(point.x) || !std::isfinite(point.y)) ++missing;
    points.push_back(std::move(point));
  }
  m_status->setText(missing ? tr("Left out for want of a value: %1 runs").arg(missing) : QString());
  m_chart->setPoints(x, y, std::move(points));
}

}  // namespace tw::ui
