#include "ui/runs/layer_norms_panel.h"

#include "core/config/metric_keys.h"
#include "tracking/store.h"
#include "ui/charts/grid_heatmap.h"
#include "ui/common/store_call.h"
#include "ui/workspace/poll_results.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace tw::ui {

LayerNormsPanel::LayerNormsPanel(QWidget *parent)
    : QWidget(parent),
      m_reader(new StoreCall(this)),
      m_kind(new QComboBox(this)),
      m_heatmap(new GridHeatmap(this)),
      m_status(new QLabel(this)) {
  m_kind->setObjectName(QStringLiteral("layerNormKind"));
  m_kind->addItem(tr("Weight norms"));
  m_kind->addItem(tr("Gradient norms"));
  m_kind->setToolTip(tr("The L2 norm of each parameter tensor (or of its gradient) at the end of each epoch"));
  m_heatmap->setObjectName(QStringLiteral("layerNormHeatmap"));
  m_heatmap->setRowTitle(tr("Layer"));
  m_heatmap->setColumnTitle(tr("Epoch"));
  m_status->setWordWrap(true);

  auto *top = new QHBoxLayout;
  top->addWidget(m_kind);
  top->addWidget(m_status, 1);
  auto *layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(m_heatmap, 1);
  connect(m_kind, &QComboBox::currentIndexChanged, this, &LayerNormsPanel::showGrid);
  connect(m_reader, &StoreCall::busyChanged, this, [this](bool busy) {
    if (busy && m_heatmap->rowCount() == 0) m_status->setText(tr("Loading the layer norms…"));
  });
}

void LayerNormsPanel::setKind(Kind kind) { m_kind->setCurrentIndex(kind == Kind::Weights ? 0 : 1); }

LayerNormsPanel::Kind LayerNormsPanel::kind() const {
  return m_kind->currentIndex() == 1 ? Kind::Gradients : Kind::Weights;
}

void LayerNormsPanel::clear() {
  m_runId = 0;
  m_epochsRead = -1;
  m_reader->cancel();  // an answer on its way is for a run no longer shown
  m_reading = {};
  m_heatmap->clear();
  m_status->clear();
}

void LayerNormsPanel::showRun(const RunSnapshot &snapshot) {
  // Norms are written once per epoch, with the "epoch" metric: nothing new to read until it moves.
  const tracking::LatestMetric *epoch = snapshot.latestMetric(config::metrics::kEpoch);
  const double epochs = epoch ? epoch->value : 0.0;
  if (snapshot.run.id == m_runId && epochs == m_epochsRead) return;
  if (snapshot.run.id != m_runId) {
    m_reading = {};
    m_heatmap->clear();
  }
  m_runId = snapshot.run.id;
  m_epochsRead = epochs;
  read();
}

void LayerNormsPanel::read() {
  if (m_runId == 0 || m_dbPath.isEmpty()) return;
  const auto readNorms = [runId = m_runId](tracking::Store &store) {
    std::map<std::string, std::vector<tracking::MetricPoint>> series;
    for (const auto &key : store.metricKeys(runId))
      if (key.rfind(config::metrics::kWeightNormPrefix, 0) == 0 || key.rfind(config::metrics::kGradNormPrefix, 0) == 0)
        series[key] = store.metricPoints(runId, key);
    const auto epochs = store.metricPoints(runId, config::metrics::kEpoch);
    Reading reading;
    reading.weights = layerNormGrid(config::metrics::kWeightNormPrefix, series, epochs);
    reading.gradients = layerNormGrid(config::metrics::kGradNormPrefix, series, epochs);
    return reading;
  };
  const auto show = [this](Reading reading) {
    m_reading = std::move(reading);
    showGrid();
    Q_EMIT loaded();
  };
  const auto showError = [this](const QString &error) {
    m_reading = {};
    m_reading.error = tr("Could not read the run's layer norms: %1").arg(error);
    showGrid();
    Q_EMIT loaded();
  };
  m_reader->run<Reading>(m_dbPath, readNorms, show, showError);
}

void LayerNormsPanel::showGrid() {
  const LayerNormGrid &grid = kind() == Kind::Weights ? m_reading.weights : m_reading.gradients;
  m_heatmap->setGrid(grid.layers, grid.epochs, grid.values);
  if (!m_reading.error.isEmpty())
    m_status->setText(m_reading.error);
  else if (grid.layers.isEmpty())
    m_status->setText(tr("No per-layer norms recorded yet: they are written at the end of each epoch."));
  else
    m_status->setText(m_heatmap->logScale() ? tr("Colour on a logarithmic scale; hover a cell for its value.")
                                            : tr("Hover a cell for its value."));
}

}  // namespace tw::ui
