#include "ui/compare/curves_view.h"

#include "ui/charts/band_chart.h"
#include "ui/charts/metric_chart.h"
#include "ui/common/number_format.h"
#include "ui/compare/comparison.h"
#include "ui/compare/empty_state.h"
#include "ui/compare/group_bands.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace tw::ui {

CurvesView::CurvesView(QWidget *parent)
    : QWidget(parent), m_groupBy(new QComboBox(this)), m_xAxis(new QComboBox(this)), m_stack(new QStackedWidget(this)),
      m_bands(new BandChart(QString(), this)), m_empty(new EmptyState(m_stack)) {
  m_empty->showMessage(EmptyState::selectRunsMessage());
  m_groupBy->setObjectName(QStringLiteral("compareGroupBy"));
  m_groupBy->setToolTip(tr("Runs with the same value of this parameter are drawn as one mean curve with a band "
                           "from the lowest to the highest of them"));
  m_groupBy->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  m_bands->setObjectName(QStringLiteral("compareBands"));
  m_xAxis->setObjectName(QStringLiteral("compareXAxis"));
  m_xAxis->addItem(tr("Step"), static_cast<int>(XAxisKind::Step));
  m_xAxis->addItem(tr("Epoch"), static_cast<int>(XAxisKind::Epoch));
  m_xAxis->addItem(tr("Wall time"), static_cast<int>(XAxisKind::WallTime));
  m_xAxis->setToolTip(tr("What the runs' curves are drawn against: the optimiser step, the epoch (runs with "
                         "different batch sizes line up), or the time since each run started. Group bands stay "
                         "on steps."));
  auto *controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("Group by"), this));
  controls->addWidget(m_groupBy);
  controls->addSpacing(16);
  controls->addWidget(new QLabel(tr("X axis"), this));
  controls->addWidget(m_xAxis);
  controls->addStretch(1);
  m_stack->addWidget(new QWidget(this));  // the runs' chart takes this place once loaded
  m_stack->addWidget(m_bands);
  auto *layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addWidget(m_stack, 1);
  connect(m_groupBy, &QComboBox::currentIndexChanged, this, [this] { grouped() ? showGroups() : showRuns(); });
  connect(m_xAxis, &QComboBox::currentIndexChanged, this, [this] {
    if (m_chart) m_chart->setXAxis(xAxisKind());
  });
}

XAxisKind CurvesView::xAxisKind() const { return static_cast<XAxisKind>(m_xAxis->currentData().toInt()); }

bool CurvesView::grouped() const { return !m_groupBy->currentData().toString().isEmpty(); }

void CurvesView::setComparison(const Comparison *comparison) {
  m_comparison = comparison;
  // A fresh chart per comparison: the set of series changes with the selection.
  QWidget *old = m_stack->widget(0);
  m_chart = new MetricChart(QString::fromStdString(comparison->data.metric), this);
  m_chart->setObjectName(QStringLiteral("compareChart"));
  for (const auto &compared : comparison->data.runs) {
    const int64_t id = compared.run.id;
    m_chart->addSeries(compared.run.uuid, QString::fromStdString(compared.run.name), id);
    m_chart->setRunStart(id, compared.run.startMs);
    m_chart->appendEpochs(id, compared.epochs);
    m_chart->appendPoints(compared.run.uuid, compared.points);
  }
  m_chart->setXAxis(xAxisKind());
  m_stack->insertWidget(0, m_chart);
  m_stack->removeWidget(old);
  old->deleteLater();
  const bool anyPoints = std::any_of(comparison->data.runs.begin(), comparison->data.runs.end(),
                                     [](const ComparedRun &run) { return !run.points.empty(); });
  if (anyPoints)
    m_empty->clear();
  else
    m_empty->showMessage(tr("None of these runs recorded %1 yet. Choose another metric above, or wait until "
                            "the runs log it.")
                             .arg(QString::fromStdString(comparison->data.metric)));

  // Only parameters that differ (grouping by one all runs share would make one group) and that
  // apply to the runs' data source (a CSV column name does not group Fashion-MNIST runs).
  const QString kept = m_groupBy->currentData().toString();
  QSignalBlocker block(m_groupBy);
  m_groupBy->clear();
  m_groupBy->addItem(tr("None"), QString());
  for (const ParamColumn *column : comparison->plottableColumns(/*withShared=*/false)) {
    const QString key = QString::fromStdString(column->key);
    m_groupBy->addItem(key, key);
  }
  m_groupBy->setCurrentIndex(std::max(0, m_groupBy->findData(kept)));
  grouped() ? showGroups() : showRuns();
}

void CurvesView::showRuns() {
  m_stack->setCurrentIndex(0);
  m_empty->raise();  // a message, when one shows, stays above whichever chart is current
}

void CurvesView::showGroups() {
  if (!m_comparison) return;
  const std::string key = m_groupBy->currentData().toString().toStdString();
  const ParamColumn *column = m_comparison->column(key);
  if (!column) return;
  const auto &runs = m_comparison->data.runs;
  std::vector<BandChart::Band> bands;
  for (const RunGroup &group : groupRuns(*column)) {
    std::vector<const std::vector<StepValue> *> series;
    for (size_t run : group.runs) series.push_back(&runs[run].binned);
    BandChart::Band band;
    // Two strings rather than %n: without an English translation %n reads "3 run(s)".
    const QString name = QString::fromStdString(key), value = formatValueText(QString::fromStdString(group.value));
    band.label = group.runs.size() == 1 ? tr("%1 = %2 (1 run)").arg(name, value)
                                        : tr("%1 = %2 (%3 runs)").arg(name, value).arg(group.runs.size());
    for (const BandPoint &point : bandOf(series)) {
      band.mean.append(QPointF(point.step, point.mean));
      band.lower.append(QPointF(point.step, point.min));
      band.upper.append(QPointF(point.step, point.max));
      band.counts.append(point.runs);
    }
    bands.push_back(std::move(band));
  }
  const StepGrid &grid = m_comparison->data.grid;
  const QString metric = QString::fromStdString(m_comparison->data.metric);
  m_bands->setTitle(grid.width > 1 ? tr("%1: mean and min–max per group, in bins of %2 steps").arg(metric).arg(grid.width)
                                   : tr("%1: mean and min–max per group").arg(metric));
  m_bands->setBands(std::move(bands));
  m_stack->setCurrentIndex(1);
  m_empty->raise();
}

}  // namespace tw::ui
