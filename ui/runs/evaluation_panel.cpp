#include "ui/runs/evaluation_panel.h"

#include "ui/common/number_format.h"

#include "ui/charts/confusion_heatmap.h"
#include "ui/workspace/poll_results.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace tw::ui {

namespace {

// Polls come twice a second; the matrices change once an epoch. Reading at most once a second
// keeps a fast run from queueing a read per poll.
constexpr int kRefreshCooldownMs = 1000;

QTableWidgetItem *textItem(const QString &text) {
  auto *item = new QTableWidgetItem(text);
  item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
  return item;
}

// The exact value rides along in UserRole: the text is rounded for reading.
QTableWidgetItem *scoreItem(double value) {
  auto *item = textItem(formatNumber(value));
  item->setData(Qt::UserRole, value);
  item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

QTableWidgetItem *countItem(int64_t value) {
  auto *item = textItem(QLocale().toString(static_cast<qlonglong>(value)));
  item->setData(Qt::UserRole, static_cast<qlonglong>(value));
  item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

}  // namespace

EvaluationPanel::EvaluationPanel(QWidget *parent)
    : QWidget(parent), m_loader(new EvaluationLoader(this)), m_cooldown(new QTimer(this)),
      m_stack(new QStackedWidget(this)), m_hint(new QLabel(m_stack)), m_evaluations(new QComboBox(this)),
      m_rowShares(new QCheckBox(tr("Row shares"), this)), m_summary(new QLabel(this)),
      m_heatmap(new ConfusionHeatmap(this)), m_table(new QTableWidget(this)) {
  m_hint->setAlignment(Qt::AlignCenter);
  m_hint->setWordWrap(true);
  m_hint->setEnabled(false);  // the disabled palette greys it like a hint
  m_stack->addWidget(m_hint);

  m_evaluations->setObjectName(QStringLiteral("evaluationCombo"));
  m_evaluations->setMinimumContentsLength(22);
  m_evaluations->setToolTip(tr("Which evaluation to show: each validation epoch, and the test set at the end"));
  m_rowShares->setObjectName(QStringLiteral("rowSharesBox"));
  m_rowShares->setToolTip(tr("Show each row as shares of its true class, so the diagonal reads as recall"));
  m_heatmap->setObjectName(QStringLiteral("confusionHeatmap"));
  m_table->setObjectName(QStringLiteral("classTable"));
  m_table->setColumnCount(Columns);
  m_table->setHorizontalHeaderLabels({tr("Class"), tr("Precision"), tr("Recall"), tr("F1"), tr("Support")});
  m_table->verticalHeader()->hide();
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  m_table->horizontalHeader()->setSectionResizeMode(ClassColumn, QHeaderView::Stretch);
  m_table->setMinimumWidth(360);

  auto *content = new QWidget(m_stack);
  auto *column = new QVBoxLayout(content);
  column->setContentsMargins(8, 4, 8, 4);
  auto *controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("Evaluation"), content));
  controls->addWidget(m_evaluations);
  controls->addSpacing(16);
  controls->addWidget(m_rowShares);
  controls->addSpacing(16);
  controls->addWidget(m_summary, 1);
  column->addLayout(controls);
  auto *body = new QHBoxLayout;
  body->addWidget(m_heatmap, 3);
  body->addWidget(m_table, 2);
  column->addLayout(body, 1);
  m_stack->addWidget(content);

  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_stack);

  m_cooldown->setSingleShot(true);
  m_cooldown->setInterval(kRefreshCooldownMs);
  connect(m_cooldown, &QTimer::timeout, this, [this] {
    if (!m_pending || !isVisible()) return;
    m_pending = false;
    refresh();
    m_cooldown->start();
  });
  connect(m_loader, &EvaluationLoader::loaded, this, &EvaluationPanel::onLoaded);
  connect(m_evaluations, &QComboBox::currentIndexChanged, this, &EvaluationPanel::onEvaluationPicked);
  connect(m_rowShares, &QCheckBox::toggled, m_heatmap, &ConfusionHeatmap::setRowNormalised);
  clearRun();
}

bool EvaluationPanel::showsEvaluation() const { return m_stack->currentIndex() == 1; }

void EvaluationPanel::showRun(const RunSnapshot &snapshot) {
  clearRun();
  m_runId = snapshot.run.id;
  m_runDir = QString::fromStdString(snapshot.run.runDir);
  showHint(tr("Reading the run's evaluations…"));
  refresh();
  m_cooldown->start();
}

void EvaluationPanel::updateRun(const RunSnapshot &snapshot) {
  if (snapshot.run.id != m_runId) return;
  m_runDir = QString::fromStdString(snapshot.run.runDir);
  requestRefresh();
}

void EvaluationPanel::clearRun() {
  m_loader->cancel();
  m_cooldown->stop();
  m_pending = false;
  m_runId = 0;
  m_runDir.clear();
  m_follow = true;
  m_wanted.clear();
  showEntries({});
  showMatrix({}, {});
  showHint(tr("Select a run to see its evaluations."));
}

void EvaluationPanel::requestRefresh() {
  // Behind another tab nobody sees it: read when the tab is shown again.
  if (!isVisible() || m_cooldown->isActive()) {
    m_pending = true;  // read once when the cooldown ends, however many polls came meanwhile
    return;
  }
  refresh();
  m_cooldown->start();
}

void EvaluationPanel::showEvent(QShowEvent *event) {
  QWidget::showEvent(event);
  if (m_pending && !m_cooldown->isActive()) {
    m_pending = false;
    refresh();
    m_cooldown->start();
  }
}

void EvaluationPanel::refresh() {
  if (m_runId == 0 || m_dbPath.isEmpty()) return;
  m_loader->load(m_dbPath, m_runId, m_runDir, m_follow ? QString() : m_wanted);
}

void EvaluationPanel::onLoaded(const EvaluationData &data) {
  if (data.runId != m_runId) return;
  if (data.entries.empty()) {
    showEntries({});
    showMatrix({}, {});
    showHint(data.error.isEmpty() ? tr("No confusion matrix recorded yet. A classification run records one at "
                                       "each validation epoch and one for the test set at the end; regression "
                                       "runs have none.")
                                  : data.error);
    Q_EMIT refreshed();
    return;
  }
  showEntries(data.entries);
  {
    const QSignalBlocker quiet(m_evaluations);
    m_evaluations->setCurrentIndex(m_evaluations->findData(data.path));
  }
  m_stack->setCurrentIndex(1);
  if (!data.error.isEmpty()) {
    showMatrix({}, data.path);
    m_summary->setText(data.error);
  } else {
    showMatrix(data.matrix, data.path);
  }
  Q_EMIT refreshed();
}

void EvaluationPanel::onEvaluationPicked(int index) {
  if (index < 0) return;
  m_follow = index == m_evaluations->count() - 1;
  m_wanted = m_evaluations->itemData(index).toString();
  refresh();  // the person asked: no cooldown
}

void EvaluationPanel::showEntries(const std::vector<EvaluationEntry> &entries) {
  if (entries == m_entries && m_evaluations->count() == static_cast<int>(entries.size())) return;
  m_entries = entries;
  const QSignalBlocker quiet(m_evaluations);
  m_evaluations->clear();
  for (const EvaluationEntry &entry : entries) m_evaluations->addItem(label(entry), entry.path);
}

void EvaluationPanel::showMatrix(const ConfusionMatrix &given, const QString &path) {
  // parseConfusionCsv gives square matrices only; a hand-made one of the wrong size shows as none.
  const auto n = static_cast<size_t>(given.size());
  const bool square = given.counts.size() == n * n;
  if (!square) qWarning("EvaluationPanel: a confusion matrix of %zu counts for %zu classes", given.counts.size(), n);
  const ConfusionMatrix &matrix = square ? given : ConfusionMatrix{};
  const bool changed = matrix != m_matrix || path != m_shownPath || matrix.isEmpty();
  m_shownPath = path;
  if (!changed) return;  // a poll with nothing new: no flicker
  m_matrix = matrix;
  m_scores = metrics::classScores(matrix.counts, matrix.size());
  m_heatmap->setMatrix(matrix);
  fillTable();
  const int index = m_evaluations->findData(path);
  m_summary->setText(matrix.isEmpty() || index < 0
                         ? QString()
                         : tr("%1 · examples: %2 · accuracy %3")
                               .arg(m_evaluations->itemText(index), formatNumber(double(m_scores.examples)),
                                    formatPercent(m_scores.accuracy)));
}

void EvaluationPanel::fillTable() {
  m_table->clearSpans();
  m_table->setRowCount(0);
  const int n = m_matrix.size();
  if (n == 0) return;
  m_table->setRowCount(n + SummaryRows);
  for (int c = 0; c < n; ++c) {
    const metrics::ClassScore &score = m_scores.perClass[static_cast<size_t>(c)];
    m_table->setItem(c, ClassColumn, textItem(m_matrix.classes[c]));
    m_table->setItem(c, PrecisionColumn, scoreItem(score.precision));
    m_table->setItem(c, RecallColumn, scoreItem(score.recall));
    m_table->setItem(c, F1Column, scoreItem(score.f1));
    m_table->setItem(c, SupportColumn, countItem(score.support));
  }
  QFont bold = m_table->font();
  bold.setBold(true);
  auto summaryRow = [&](SummaryRow row, const QString &name, const std::vector<double> &scores) {
    const int r = n + row;
    m_table->setItem(r, ClassColumn, textItem(name));
    for (size_t i = 0; i < scores.size(); ++i)
      m_table->setItem(r, PrecisionColumn + static_cast<int>(i), scoreItem(scores[i]));
    m_table->setItem(r, SupportColumn, countItem(m_scores.examples));
    for (int col = 0; col < Columns; ++col)
      if (QTableWidgetItem *item = m_table->item(r, col)) item->setFont(bold);
  };
  // Accuracy is one number for all classes: one cell across the three score columns.
  summaryRow(AccuracyRow, tr("Accuracy"), {m_scores.accuracy});
  m_table->setSpan(n + AccuracyRow, PrecisionColumn, 1, 3);
  m_table->item(n + AccuracyRow, PrecisionColumn)->setTextAlignment(Qt::AlignCenter);
  summaryRow(MacroRow, tr("Macro average"), {m_scores.macroPrecision, m_scores.macroRecall, m_scores.macroF1});
  summaryRow(WeightedRow, tr("Weighted average"),
             {m_scores.weightedPrecision, m_scores.weightedRecall, m_scores.weightedF1});
}

void EvaluationPanel::showHint(const QString &text) {
  m_hint->setText(text);
  m_stack->setCurrentIndex(0);
}

QString EvaluationPanel::label(const EvaluationEntry &entry) const {
  return entry.isTest() ? tr("Test set (end of run)") : tr("Epoch %1 (validation)").arg(entry.epoch);
}

}  // namespace tw::ui
