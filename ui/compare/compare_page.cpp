#include "ui/compare/compare_page.h"

#include "core/config/metric_keys.h"
#include "ui/compare/compare_loader.h"
#include "ui/compare/comparison.h"
#include "ui/compare/config_diff_view.h"
#include "ui/compare/curves_view.h"
#include "ui/compare/parallel_view.h"
#include "ui/compare/scatter_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QTabWidget>
#include <QVBoxLayout>

namespace tw::ui {

ComparePage::ComparePage(QWidget *parent)
    : QWidget(parent), m_loader(new CompareLoader(this)), m_metric(new QComboBox(this)), m_summary(new QLabel(this)),
      m_tabs(new QTabWidget(this)), m_curves(new CurvesView(this)), m_parallel(new ParallelView(this)),
      m_scatter(new ScatterView(this)), m_config(new ConfigDiffView(this)) {
  m_metric->setEditable(true);  // any recorded metric, not only the usual ones
  m_metric->addItems({config::metrics::kTrainLoss, config::metrics::kValLoss, config::metrics::kValAccuracy,
                      config::metrics::kTrainLr, config::metrics::kTrainGradNorm});
  m_metric->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  // Empty until the runs are read: then the runs' own monitor (default_metric.h) stands here.
  m_metric->setCurrentIndex(-1);
  m_metric->lineEdit()->setPlaceholderText(tr("the runs' monitored metric"));
  m_metric->setToolTip(tr("The metric every tab shows. Until you choose one, the metric the runs monitored "
                          "(train.monitor), else val/loss"));
  m_tabs->setObjectName(QStringLiteral("compareTabs"));
  m_tabs->setDocumentMode(true);
  m_tabs->addTab(m_curves, tr("Curves"));
  m_tabs->addTab(m_parallel, tr("Parallel coordinates"));
  m_tabs->addTab(m_scatter, tr("Scatter"));
  m_tabs->addTab(m_config, tr("Config"));

  auto *controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("Metric"), this));
  controls->addWidget(m_metric);
  controls->addWidget(m_summary, 1);
  auto *layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addWidget(m_tabs, 1);
  // Until the first comparison every tab says what to do (EmptyState); the line stays empty
  // rather than saying it a second time.

  // Only the user's edits arrive here (the page sets the text under a signal blocker): the
  // choice is kept for every later load, of these runs or others.
  connect(m_metric, &QComboBox::currentTextChanged, this, [this](const QString &text) {
    m_chosenMetric = text.trimmed();
    reload();
  });
  connect(m_loader, &CompareLoader::loaded, this, &ComparePage::showData);
  connect(m_loader, &CompareLoader::summariesLoaded, this, &ComparePage::showSummaries);
  connect(m_scatter, &ScatterView::summariesWanted, this, &ComparePage::readSummaries);
}

ComparePage::~ComparePage() = default;

void ComparePage::compareRuns(const QString &databasePath, const std::vector<int64_t> &runIds) {
  m_databasePath = databasePath;
  m_runIds = runIds;
  reload();
}

void ComparePage::reload() {
  if (m_runIds.empty() || m_databasePath.isEmpty()) return;
  m_summary->setText(tr("Loading %1 runs…").arg(m_runIds.size()));
  m_summariesPending.clear();  // answers to those are void once the new comparison is asked for
  m_loader->load(m_databasePath, m_runIds, m_chosenMetric);  // empty: the runs' default
}

void ComparePage::showData(const CompareData &data) {
  if (!data.error.isEmpty()) {
    m_summary->setText(tr("Cannot read the runs: %1. Check that the workspace's tracking.db is readable.").arg(data.error));
    return;
  }
  {
    // Offer every metric the runs recorded beside the usual names; adding items keeps the text.
    QSignalBlocker block(m_metric);
    for (const std::string &key : data.metricKeys)
      if (m_metric->findText(QString::fromStdString(key)) < 0) m_metric->addItem(QString::fromStdString(key));
    m_metric->setCurrentText(QString::fromStdString(data.metric));  // the default when none was chosen
  }
  // The views point into the comparison: hand them the new one before the old one goes.
  auto comparison = std::make_unique<Comparison>(data);
  m_curves->setComparison(comparison.get());
  m_parallel->setComparison(comparison.get());
  m_config->setComparison(comparison.get());
  std::swap(m_comparison, comparison);
  m_scatter->setComparison(m_comparison.get());  // last: it may ask for summaries of this one
  m_summary->setText(tr("%1 runs, %2 of %3 parameters differ")
                         .arg(m_comparison->data.runs.size())
                         .arg(m_comparison->differingColumns().size())
                         .arg(m_comparison->columns.size()));
  Q_EMIT loaded();
}

void ComparePage::readSummaries(const QString &metric) {
  if (!m_comparison || !m_summariesPending.insert(metric.toStdString()).second) return;
  std::vector<int64_t> ids;
  for (const auto &run : m_comparison->data.runs) ids.push_back(run.run.id);
  m_loader->loadSummaries(m_databasePath, ids, metric);
}

void ComparePage::showSummaries(const MetricSummaries &summaries) {
  m_summariesPending.erase(summaries.key);
  if (!m_comparison) return;
  if (!summaries.error.isEmpty()) {
    m_summary->setText(tr("Cannot read %1: %2").arg(QString::fromStdString(summaries.key), summaries.error));
    return;
  }
  m_comparison->summaries[summaries.key] = summaries;
  m_scatter->refresh();
  Q_EMIT summariesShown(QString::fromStdString(summaries.key));
}

MetricChart *ComparePage::chart() const { return m_curves->chart(); }
QTableWidget *ComparePage::configTable() const { return m_config->table(); }
QCheckBox *ComparePage::onlyDifferences() const { return m_config->onlyDifferences(); }
QStringList ComparePage::differingKeys() const { return m_config->differingKeys(); }

}  // namespace tw::ui
