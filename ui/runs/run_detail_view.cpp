#include "ui/runs/run_detail_view.h"
#include "ui/runs/data_bound_hint.h"

#include "core/config/metric_keys.h"
#include "ui/charts/metric_chart.h"
#include "ui/charts/series_palette.h"
#include "ui/runs/artifacts_panel.h"
#include "ui/runs/evaluation_panel.h"
#include "ui/runs/layer_norms_panel.h"
#include "ui/runs/params_panel.h"
#include "ui/runs/run_info_panel.h"
#include "ui/runs/system_panel.h"

#include <QCheckBox>
#include <QComboBox>

#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QSlider>
#include <QStackedWidget>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <string>

namespace tw::ui {

namespace {

constexpr const char *kTrainLoss = config::metrics::kTrainLoss;
constexpr const char *kValLoss = config::metrics::kValLoss;
constexpr const char *kValAccuracy = config::metrics::kValAccuracy;
// What the engine logs about the optimisation itself: per logged step (rate, gradient norm)
// and per epoch (throughput, the share of training time spent waiting for data).
constexpr const char *kLearningRate = config::metrics::kTrainLr;
constexpr const char *kThroughput = config::metrics::kTrainSamplesPerSec;
constexpr const char *kDataWait = config::metrics::kTrainDataWait;
constexpr const char *kGradNorm = config::metrics::kTrainGradNorm;

bool startsWith(const std::string &text, const char *prefix) { return text.rfind(prefix, 0) == 0; }

}  // namespace

RunDetailView::RunDetailView(QWidget *parent) : QWidget(parent) {
  m_stack = new QStackedWidget(this);

  auto *emptyHint = new QLabel(tr("Select a run to see its curves."), m_stack);
  emptyHint->setAlignment(Qt::AlignCenter);
  emptyHint->setEnabled(false);  // the disabled palette greys it like a hint
  m_stack->addWidget(emptyHint);

  m_tabs = new QTabWidget(m_stack);
  m_tabs->setObjectName(QStringLiteral("runDetailTabs"));
  m_tabs->setDocumentMode(true);
  m_tabs->addTab(createCurvesTab(), tr("Curves"));
  m_tabs->addTab(createTrainingTab(), tr("Training"));
  m_norms = new LayerNormsPanel(m_tabs);
  m_norms->setObjectName(QStringLiteral("layerNormsPanel"));
  m_tabs->addTab(m_norms, tr("Layer Norms"));
  m_evaluation = new EvaluationPanel(m_tabs);
  m_evaluation->setObjectName(QStringLiteral("evaluationPanel"));
  m_tabs->addTab(m_evaluation, tr("Evaluation"));
  m_system = new SystemPanel(m_tabs);
  m_system->setObjectName(QStringLiteral("systemPanel"));
  m_tabs->addTab(m_system, tr("System"));
  m_params = new ParamsPanel(m_tabs);
  m_params->setObjectName(QStringLiteral("paramsPanel"));
  m_tabs->addTab(m_params, tr("Parameters"));
  m_artifacts = new ArtifactsPanel(m_tabs);
  m_artifacts->setObjectName(QStringLiteral("artifactsPanel"));
  m_tabs->addTab(m_artifacts, tr("Artifacts"));
  // Files appear after a run ends too (an export): the tab reads them again whenever it is opened.
  connect(m_tabs, &QTabWidget::currentChanged, this, [this](int index) {
    if (m_tabs->widget(index) == m_artifacts && m_runId != 0) m_artifacts->showRun(m_runId, m_artifacts->runDir());
  });
  m_stack->addWidget(m_tabs);

  // Smoothing and the log scale serve both pages of curves, so they sit in the tab bar's corner
  // and show only while one of those pages is open.
  auto *controls = new QWidget(m_tabs);
  auto *row = new QHBoxLayout(controls);
  row->setContentsMargins(8, 0, 8, 0);
  m_overlayNote = new QLabel(controls);
  m_overlayNote->setObjectName(QStringLiteral("overlayNote"));
  m_overlayNote->hide();
  row->addWidget(m_overlayNote);
  m_smoothing = new QSlider(Qt::Horizontal, controls);
  m_smoothing->setObjectName(QStringLiteral("smoothingSlider"));
  m_smoothing->setRange(0, 99);
  m_smoothing->setMaximumWidth(220);
  m_smoothing->setToolTip(tr("Smoothing: a debiased exponential moving average over every recorded point"));
  auto *smoothingValue = new QLabel(QLocale().toString(0.0, 'f', 2), controls);
  m_logScale = new QCheckBox(tr("Log scale"), controls);
  m_logScale->setObjectName(QStringLiteral("logScaleBox"));
  m_logScale->setToolTip(tr("A logarithmic value axis for the loss and the gradient norm"));
  row->addWidget(new QLabel(tr("Smoothing"), controls));
  row->addWidget(m_smoothing);
  row->addWidget(smoothingValue);
  row->addSpacing(16);
  row->addWidget(m_logScale);
  row->addSpacing(16);
  m_xAxis = new QComboBox(controls);
  m_xAxis->setObjectName(QStringLiteral("xAxisBox"));
  m_xAxis->addItem(tr("Step"), static_cast<int>(XAxisKind::Step));
  m_xAxis->addItem(tr("Epoch"), static_cast<int>(XAxisKind::Epoch));
  m_xAxis->addItem(tr("Wall time"), static_cast<int>(XAxisKind::WallTime));
  m_xAxis->setToolTip(tr("What the curves are drawn against: the optimiser step, the epoch (runs with different "
                         "batch sizes line up), or the time since each run started"));
  row->addWidget(new QLabel(tr("X axis"), controls));
  row->addWidget(m_xAxis);
  m_tabs->setCornerWidget(controls, Qt::TopRightCorner);
  connect(m_tabs, &QTabWidget::currentChanged, controls, [controls](int index) { controls->setVisible(index <= 1); });

  connect(m_smoothing, &QSlider::valueChanged, this, [this, smoothingValue](int value) {
    const double weight = value / 100.0;
    smoothingValue->setText(QLocale().toString(weight, 'f', 2));
    for (MetricChart *chart : m_charts) chart->setSmoothing(weight);
  });
  connect(m_xAxis, &QComboBox::currentIndexChanged, this, [this] {
    const auto kind = static_cast<XAxisKind>(m_xAxis->currentData().toInt());
    for (MetricChart *chart : m_charts) chart->setXAxis(kind);
  });
  connect(m_logScale, &QCheckBox::toggled, this, [this](bool on) {
    // Both span orders of magnitude; rates, throughput and shares read better linear.
    m_lossChart->setLogScale(on);
    m_gradNormChart->setLogScale(on);
  });

  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_stack);
}

QWidget *RunDetailView::createCurvesTab() {
  auto *page = new QWidget(m_tabs);
  auto *row = new QHBoxLayout(page);
  row->setContentsMargins(0, 0, 0, 0);
  row->setSpacing(0);

  m_info = new RunInfoPanel();
  auto *infoScroll = new QScrollArea(page);
  infoScroll->setWidget(m_info);
  infoScroll->setWidgetResizable(true);
  infoScroll->setFrameShape(QFrame::NoFrame);
  infoScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  infoScroll->setMinimumWidth(300);
  infoScroll->setMaximumWidth(400);
  row->addWidget(infoScroll);

  auto *separator = new QFrame(page);
  separator->setFrameShape(QFrame::VLine);
  separator->setFrameShadow(QFrame::Sunken);
  row->addWidget(separator);

  m_lossChart = new MetricChart(tr("Loss"), page);
  m_lossChart->setObjectName(QStringLiteral("lossChart"));
  row->addWidget(m_lossChart, 1);

  m_accuracyChart = new MetricChart(tr("Accuracy"), page);
  m_accuracyChart->setObjectName(QStringLiteral("accuracyChart"));
  row->addWidget(m_accuracyChart, 1);
  m_chartSeries.push_back({m_lossChart, kTrainLoss, tr("Training")});
  m_chartSeries.push_back({m_lossChart, kValLoss, tr("Validation")});
  m_chartSeries.push_back({m_accuracyChart, kValAccuracy, tr("Validation")});
  for (const ChartSeries &series : m_chartSeries) series.chart->addSeries(series.key, series.label);
  m_charts.insert(m_charts.end(), {m_lossChart, m_accuracyChart});
  return page;
}

QWidget *RunDetailView::createTrainingTab() {
  auto *page = new QWidget(m_tabs);
  auto *grid = new QGridLayout(page);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->setSpacing(0);
  auto chart = [&](const char *objectName, const QString &title, const char *key, const QString &label, int row,
                   int column, MetricChartOptions options = {}) {
    auto *c = new MetricChart(title, page, std::move(options));
    c->setObjectName(QLatin1String(objectName));
    c->addSeries(key, label);
    grid->addWidget(c, row, column);
    m_charts.push_back(c);
    m_chartSeries.push_back({c, key, label});
    return c;
  };
  // Above the charts, only while the run waits for its data: what would help (data_bound_hint.h).
  m_dataBoundHint = new QLabel(page);
  m_dataBoundHint->setObjectName(QStringLiteral("dataBoundHint"));
  m_dataBoundHint->setWordWrap(true);
  m_dataBoundHint->setContentsMargins(8, 4, 8, 4);
  m_dataBoundHint->hide();
  grid->addWidget(m_dataBoundHint, 0, 0, 1, 2);
  m_lrChart = chart("lrChart", tr("Learning rate"), kLearningRate, tr("Learning rate"), 1, 0);
  m_throughputChart = chart("throughputChart", tr("Throughput (samples/s, per epoch)"), kThroughput,
                            tr("Training samples per second"), 1, 1, {4000, QStringLiteral("%.0f")});
  // Shares are often a few thousandths: the default significant-digit labels keep them apart.
  m_dataWaitChart = chart("dataWaitChart", tr("Data wait (share of training time, 0 to 1, per epoch)"), kDataWait,
                          tr("Waiting for batches"), 2, 0);
  m_gradNormChart = chart("gradNormChart", tr("Gradient norm (before clipping)"), kGradNorm,
                          tr("Global L2 norm"), 2, 1);
  return page;
}

QStringList RunDetailView::chartedKeys() {
  QStringList keys;
  // The epoch rows place every curve on the epoch axis.
  for (const char *key : {kTrainLoss, kValLoss, kValAccuracy, kLearningRate, kThroughput, kDataWait, kGradNorm,
                          config::metrics::kEpoch})
    keys << QLatin1String(key);
  return keys;
}

void RunDetailView::setDatabasePath(const QString &path) {
  m_system->setDatabasePath(path);
  m_evaluation->setDatabasePath(path);
  m_artifacts->setDatabasePath(path);
  m_norms->setDatabasePath(path);
}

std::string RunDetailView::seriesKey(int64_t runId, const std::string &metricKey) const {
  return runId == m_runId ? metricKey : metricKey + "@" + std::to_string(runId);
}

void RunDetailView::showRuns(const RunSnapshot &snapshot, const std::vector<RunSnapshot> &others,
                             quint64 watchToken) {
  const bool newRun = snapshot.run.id != m_runId || m_stack->currentIndex() != 1;
  m_runId = snapshot.run.id;
  m_watchToken = watchToken;

  std::vector<const RunSnapshot *> charted = {&snapshot};
  for (const RunSnapshot &other : others)
    if (other.run.id != snapshot.run.id && charted.size() < static_cast<size_t>(kMaxOverlaidRuns))
      charted.push_back(&other);
  m_charted.clear();
  for (MetricChart *chart : m_charts) chart->removeAllSeries();
  for (const RunSnapshot *run : charted) m_charted.push_back(run->run.id);
  for (size_t i = 0; i < charted.size(); ++i) addRunSeries(i, *charted[i]);
  const int selected = static_cast<int>(1 + others.size());
  m_overlayNote->setVisible(selected > kMaxOverlaidRuns);
  m_overlayNote->setText(tr("Curves of the first %1 of %2 selected runs").arg(kMaxOverlaidRuns).arg(selected));

  // The other tabs are about the run in detail alone: adding a run to the overlay leaves them be.
  if (!newRun) return;
  showDataBoundHint(snapshot);
  m_info->showRun(snapshot);
  m_system->showRun(snapshot);
  m_evaluation->showRun(snapshot);
  m_artifacts->showRun(snapshot.run.id, QString::fromStdString(snapshot.run.runDir));
  m_params->setParams(snapshot.params);
  m_norms->showRun(snapshot);
  m_shownStatus = static_cast<int>(snapshot.run.status);
  m_stack->setCurrentIndex(1);
}

void RunDetailView::addRunSeries(size_t index, const RunSnapshot &snapshot) {
  const int64_t id = snapshot.run.id;
  const bool overlay = m_charted.size() > 1;
  for (MetricChart *chart : m_charts) chart->setRunStart(id, snapshot.run.startMs);
  for (const ChartSeries &series : m_chartSeries) {
    if (!overlay) {
      // One run: its training and validation curves in the palette's first colours, as before.
      series.chart->addSeries(series.key, series.label, id);
      continue;
    }
    const bool alone = std::count_if(m_chartSeries.begin(), m_chartSeries.end(),
                                     [&](const ChartSeries &s) { return s.chart == series.chart; }) == 1;
    const QString name = QString::fromStdString(snapshot.run.name);
    series.chart->addSeries(seriesKey(id, series.key), alone ? name : tr("%1 · %2").arg(name, series.label), id);
    // The run is the colour; validation is the dashed line of the same colour.
    series.chart->setSeriesPen(seriesKey(id, series.key), seriesColor(index), 1.6,
                               startsWith(series.key, config::metrics::kValPrefix) ? Qt::DashLine : Qt::SolidLine);
  }
  updateMarkers(index, snapshot);
}

void RunDetailView::updateMarkers(size_t index, const RunSnapshot &snapshot) {
  const int64_t id = snapshot.run.id;
  const bool overlay = m_charted.size() > 1;
  // A chart with a validation curve gets the test set's figure of the same name: test/loss on
  // the loss chart, test/accuracy on the accuracy chart.
  for (const ChartSeries &series : m_chartSeries) {
    if (!startsWith(series.key, config::metrics::kValPrefix)) continue;
    const std::string testKey =
        config::metrics::kTestPrefix + series.key.substr(std::char_traits<char>::length(config::metrics::kValPrefix));
    const tracking::LatestMetric *figure = snapshot.latestMetric(testKey);
    if (!figure) continue;
    const QColor color = overlay ? seriesColor(index) : series.chart->seriesPenColor(series.key);
    const QString label = overlay ? tr("%1 · Test").arg(QString::fromStdString(snapshot.run.name)) : tr("Test");
    series.chart->setMarker(seriesKey(id, testKey), label, static_cast<double>(figure->step), figure->value, color, id);
  }
}

void RunDetailView::clearRun() {
  m_runId = 0;
  m_watchToken = 0;
  m_charted.clear();
  for (MetricChart *chart : m_charts) chart->clear();
  m_overlayNote->hide();
  m_dataBoundHint->hide();
  m_info->clear();
  m_system->clearRun();
  m_evaluation->clearRun();
  m_artifacts->clear();
  m_params->clear();
  m_norms->clear();
  m_stack->setCurrentIndex(0);
}

void RunDetailView::showDataBoundHint(const RunSnapshot &snapshot) {
  const QString hint = dataBoundHint(snapshot);
  m_dataBoundHint->setText(hint);
  m_dataBoundHint->setVisible(!hint.isEmpty());
}

void RunDetailView::updateRun(const RunSnapshot &snapshot) {
  for (size_t i = 0; i < m_charted.size(); ++i) {
    if (m_charted[i] != snapshot.run.id) continue;
    for (MetricChart *chart : m_charts) chart->setRunStart(snapshot.run.id, snapshot.run.startMs);  // once RUNNING
    updateMarkers(i, snapshot);
  }
  if (snapshot.run.id != m_runId) return;
  showDataBoundHint(snapshot);
  m_info->showRun(snapshot);
  m_system->showRun(snapshot);
  m_evaluation->updateRun(snapshot);
  m_params->setParams(snapshot.params);
  m_norms->showRun(snapshot);
  // A live run's snapshot changes with every poll; its files change when it ends.
  if (static_cast<int>(snapshot.run.status) != m_shownStatus) {
    m_shownStatus = static_cast<int>(snapshot.run.status);
    m_artifacts->showRun(snapshot.run.id, QString::fromStdString(snapshot.run.runDir));
  }
}

void RunDetailView::appendMetrics(const MetricsUpdate &update) {
  if (update.watchToken != m_watchToken) return;
  if (std::find(m_charted.begin(), m_charted.end(), update.runId) == m_charted.end()) return;
  // Epochs first: the other chunks' points are placed by them on the epoch axis.
  for (const auto &chunk : update.series)
    if (chunk.key == config::metrics::kEpoch)
      for (MetricChart *chart : m_charts) chart->appendEpochs(update.runId, chunk.points);
  for (const auto &chunk : update.series)
    for (const ChartSeries &series : m_chartSeries)
      if (series.key == chunk.key) series.chart->appendPoints(seriesKey(update.runId, chunk.key), chunk.points);
}

}  // namespace tw::ui
