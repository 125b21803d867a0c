#include "ui/runs/run_detail_view.h"

#include "ui/charts/metric_chart.h"
#include "ui/runs/run_info_panel.h"
#include "ui/runs/system_panel.h"

#include <QCheckBox>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSlider>
#include <QStackedWidget>
#include <QTabWidget>
#include <QVBoxLayout>

namespace tw::ui {

namespace {

constexpr const char *kTrainLoss = "train/loss";
constexpr const char *kValLoss = "val/loss";
constexpr const char *kValAccuracy = "val/accuracy";

}  // namespace

RunDetailView::RunDetailView(QWidget *parent) : QWidget(parent) {
  m_stack = new QStackedWidget(this);

  auto *emptyHint = new QLabel(tr("Select a run to see its curves."), m_stack);
  emptyHint->setAlignment(Qt::AlignCenter);
  emptyHint->setEnabled(false);  // the disabled palette greys it like a hint
  m_stack->addWidget(emptyHint);

  auto *detail = new QWidget(m_stack);
  auto *column = new QVBoxLayout(detail);
  column->setContentsMargins(0, 0, 0, 0);
  auto *controls = new QHBoxLayout;
  controls->setContentsMargins(8, 4, 8, 0);
  m_smoothing = new QSlider(Qt::Horizontal, detail);
  m_smoothing->setObjectName(QStringLiteral("smoothingSlider"));
  m_smoothing->setRange(0, 99);
  m_smoothing->setMaximumWidth(220);
  m_smoothing->setToolTip(tr("Smoothing: a debiased exponential moving average over every recorded point"));
  auto *smoothingValue = new QLabel(QStringLiteral("0.00"), detail);
  m_logScale = new QCheckBox(tr("Log scale"), detail);
  m_logScale->setObjectName(QStringLiteral("logScaleBox"));
  controls->addWidget(new QLabel(tr("Smoothing"), detail));
  controls->addWidget(m_smoothing);
  controls->addWidget(smoothingValue);
  controls->addSpacing(16);
  controls->addWidget(m_logScale);
  controls->addStretch(1);
  column->addLayout(controls);
  auto *row = new QHBoxLayout;
  row->setContentsMargins(0, 0, 0, 0);
  row->setSpacing(0);
  column->addLayout(row, 1);

  m_info = new RunInfoPanel();
  auto *infoScroll = new QScrollArea(detail);
  infoScroll->setWidget(m_info);
  infoScroll->setWidgetResizable(true);
  infoScroll->setFrameShape(QFrame::NoFrame);
  infoScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  infoScroll->setMinimumWidth(300);
  infoScroll->setMaximumWidth(400);
  row->addWidget(infoScroll);

  auto *separator = new QFrame(detail);
  separator->setFrameShape(QFrame::VLine);
  separator->setFrameShadow(QFrame::Sunken);
  row->addWidget(separator);

  m_lossChart = new MetricChart(tr("Loss"), detail);
  m_lossChart->setObjectName(QStringLiteral("lossChart"));
  m_lossChart->addSeries(kTrainLoss, tr("Training"));
  m_lossChart->addSeries(kValLoss, tr("Validation"));
  row->addWidget(m_lossChart, 1);

  m_accuracyChart = new MetricChart(tr("Accuracy"), detail);
  m_accuracyChart->setObjectName(QStringLiteral("accuracyChart"));
  m_accuracyChart->addSeries(kValAccuracy, tr("Validation"));
  row->addWidget(m_accuracyChart, 1);
  // Curves and the machine side share the space under the table.
  auto *tabs = new QTabWidget(m_stack);
  tabs->setDocumentMode(true);
  tabs->addTab(detail, tr("Curves"));
  m_system = new SystemPanel(tabs);
  m_system->setObjectName(QStringLiteral("systemPanel"));
  tabs->addTab(m_system, tr("System"));
  m_stack->addWidget(tabs);
  connect(m_smoothing, &QSlider::valueChanged, this, [this, smoothingValue](int value) {
    const double weight = value / 100.0;
    smoothingValue->setText(QString::number(weight, 'f', 2));
    m_lossChart->setSmoothing(weight);
    m_accuracyChart->setSmoothing(weight);
  });
  connect(m_logScale, &QCheckBox::toggled, this, [this](bool on) { m_lossChart->setLogScale(on); });

  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_stack);
}

QStringList RunDetailView::chartedKeys() {
  return {QLatin1String(kTrainLoss), QLatin1String(kValLoss), QLatin1String(kValAccuracy)};
}

void RunDetailView::showRun(const RunSnapshot &snapshot, quint64 watchToken) {
  m_runId = snapshot.run.id;
  m_watchToken = watchToken;
  m_lossChart->clear();
  m_accuracyChart->clear();
  m_info->showRun(snapshot);
  m_system->showRun(snapshot);
  m_stack->setCurrentIndex(1);
}

void RunDetailView::clearRun() {
  m_runId = 0;
  m_watchToken = 0;
  m_lossChart->clear();
  m_accuracyChart->clear();
  m_info->clear();
  m_system->clearRun();
  m_stack->setCurrentIndex(0);
}

void RunDetailView::updateRun(const RunSnapshot &snapshot) {
  if (snapshot.run.id != m_runId) return;
  m_info->showRun(snapshot);
  m_system->showRun(snapshot);
}

void RunDetailView::appendMetrics(const MetricsUpdate &update) {
  if (update.watchToken != m_watchToken || update.runId != m_runId) return;
  for (const auto &chunk : update.series) {
    for (MetricChart *chart : {m_lossChart, m_accuracyChart})
      if (chart->hasSeries(chunk.key)) chart->appendPoints(chunk.key, chunk.points);
  }
}

}  // namespace tw::ui
