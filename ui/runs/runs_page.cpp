#include "ui/runs/runs_page.h"

#include "ui/runs/report_writer.h"

#include "ui/common/studio_icons.h"
#include "ui/common/visible_rows.h"
#include "ui/launch/run_control.h"
#include "ui/runs/run_status.h"
#include "ui/runs/runs_filter.h"
#include "ui/runs/system_panel.h"

#include "ui/runs/run_detail_view.h"
#include "ui/runs/runs_table_model.h"
#include "ui/workspace/workspace_session.h"

#include "tracking/run_labels.h"

#include <QAction>
#include <QCheckBox>
#include <QDataStream>
#include <QInputDialog>
#include <QHeaderView>
#include <QIODevice>
#include <QItemSelectionModel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

namespace tw::ui {

namespace {
constexpr quint32 kStateMagic = 0x54575250;  // "TWRP": refuse state saved by something else
constexpr quint32 kStateVersion = 2;  // 2: extra columns and "show archived"

QStringList encodeColumns(const std::vector<ExtraColumn> &columns) {
  QStringList encoded;
  for (const auto &column : columns)
    encoded << (column.kind == ExtraColumn::Kind::Metric ? QStringLiteral("metric:") : QStringLiteral("param:")) +
                   QString::fromStdString(column.key);
  return encoded;
}

std::vector<ExtraColumn> decodeColumns(const QStringList &encoded) {
  std::vector<ExtraColumn> columns;
  for (const QString &entry : encoded) {
    if (entry.startsWith(QLatin1String("metric:")))
      columns.push_back({ExtraColumn::Kind::Metric, entry.mid(7).toStdString()});
    else if (entry.startsWith(QLatin1String("param:")))
      columns.push_back({ExtraColumn::Kind::Param, entry.mid(6).toStdString()});
  }
  return columns;
}
}  // namespace

RunsPage::RunsPage(WorkspaceSession *session, QWidget *parent) : QWidget(parent), m_session(session) {
  m_model = new RunsTableModel(this);
  m_report = new ReportWriter(this);
  connect(m_report, &ReportWriter::finished, this, &RunsPage::reportFinished);
  m_proxy = new RunsFilter(this);
  m_proxy->setSourceModel(m_model);
  m_proxy->setSortRole(RunsTableModel::SortRole);
  m_proxy->setDynamicSortFilter(true);

  m_table = new QTableView(this);
  m_table->setObjectName(QStringLiteral("runsTable"));
  m_table->setModel(m_proxy);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);  // several to compare
  m_table->setAlternatingRowColors(true);
  m_table->setSortingEnabled(true);
  m_table->setShowGrid(false);
  m_table->setWordWrap(false);
  m_table->setCornerButtonEnabled(false);
  m_table->verticalHeader()->hide();
  m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
  QHeaderView *header = m_table->horizontalHeader();
  header->setHighlightSections(false);
  header->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
  header->setSectionResizeMode(QHeaderView::Interactive);
  // The name takes the spare width; numbers stay next to their neighbours.
  header->setSectionResizeMode(RunsTableModel::Name, QHeaderView::Stretch);
  header->setStretchLastSection(false);
  header->setMinimumSectionSize(60);
  header->resizeSection(RunsTableModel::Experiment, 140);
  header->resizeSection(RunsTableModel::Status, 140);
  header->resizeSection(RunsTableModel::Started, 140);
  header->resizeSection(RunsTableModel::Duration, 100);
  header->resizeSection(RunsTableModel::ValAccuracy, 110);
  header->resizeSection(RunsTableModel::ValLoss, 100);
  header->resizeSection(RunsTableModel::TestAccuracy, 110);
  header->resizeSection(RunsTableModel::Labels, 140);
  header->resizeSection(RunsTableModel::Note, 180);
  header->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(header, &QHeaderView::customContextMenuRequested, this, &RunsPage::showHeaderMenu);
  m_table->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(m_table, &QTableView::customContextMenuRequested, this, &RunsPage::showRunMenu);
  m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
  m_table->sortByColumn(RunsTableModel::Started, Qt::DescendingOrder);
  keepRowsVisible(m_table);

  m_detail = new RunDetailView(this);

  m_splitter = new QSplitter(Qt::Vertical, this);
  m_splitter->setObjectName(QStringLiteral("runsSplitter"));
  m_splitter->setChildrenCollapsible(false);
  m_splitter->addWidget(m_table);
  m_splitter->addWidget(m_detail);
  m_splitter->setStretchFactor(0, 2);
  m_splitter->setStretchFactor(1, 3);

  m_control = new RunControl(this);
  m_stop = new QPushButton(tr("Stop Run"), this);
  m_stop->setIcon(studioIcon("process-stop"));
  m_stop->setObjectName(QStringLiteral("stopRunButton"));
  m_stop->setToolTip(tr("Ask the selected run to stop after its next step; it keeps a checkpoint and can be "
                        "resumed (Ctrl+.)"));
  m_stop->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));
  m_stop->setEnabled(false);
  m_checkpoint = new QPushButton(tr("Checkpoint Now"), this);
  m_checkpoint->setIcon(studioIcon("tw-checkpoint"));
  m_checkpoint->setObjectName(QStringLiteral("checkpointButton"));
  m_checkpoint->setToolTip(tr("Ask the selected run to write a checkpoint after its next step and train on"));
  m_checkpoint->setEnabled(false);
  m_delete = new QPushButton(tr("Delete"), this);
  m_delete->setIcon(studioIcon("edit-delete"));
  m_delete->setObjectName(QStringLiteral("deleteRunsButton"));
  m_delete->setToolTip(tr("Delete the selected runs with their checkpoints and artifacts (not running ones)"));
  m_delete->setEnabled(false);
  m_compare = new QPushButton(tr("Compare"), this);
  m_compare->setIcon(studioIcon("tw-compare"));
  m_compare->setObjectName(QStringLiteral("compareButton"));
  m_compare->setToolTip(tr("Overlay the curves and configurations of the selected runs (Ctrl+Shift+C)"));
  m_compare->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
  m_compare->setEnabled(false);
  m_filterText = new QLineEdit(this);
  m_filterText->setObjectName(QStringLiteral("runsFilterText"));
  m_filterText->setPlaceholderText(tr("Filter: words, #tag, val/accuracy>0.9, lr<=0.01"));
  m_filterText->setToolTip(tr("Words match the name, experiment, tags and note; #tag (or tag:name) requires a tag; "
                              "key<value, key>=value, key=value and key!=value compare a metric's latest value or a "
                              "parameter (by full key, or its last part when unique). All terms must hold."));
  m_filterText->setClearButtonEnabled(true);
  m_filterStatus = new QComboBox(this);
  m_filterStatus->setObjectName(QStringLiteral("runsFilterStatus"));
  m_filterStatus->addItem(tr("All statuses"));
  for (auto status : {tracking::RunStatus::Running, tracking::RunStatus::Finished, tracking::RunStatus::Failed,
                      tracking::RunStatus::Killed, tracking::RunStatus::Created})
    m_filterStatus->addItem(runStatusText(status), static_cast<int>(status));
  m_filterAccuracy = new QDoubleSpinBox(this);
  m_filterAccuracy->setObjectName(QStringLiteral("runsFilterAccuracy"));
  m_filterAccuracy->setRange(0.0, 100.0);
  m_filterAccuracy->setDecimals(1);
  m_filterAccuracy->setSuffix(QStringLiteral(" %"));
  m_filterAccuracy->setPrefix(tr("val. accuracy ≥ "));
  m_filterAccuracy->setSpecialValueText(tr("any val. accuracy"));
  m_filterLabel = new QComboBox(this);
  m_filterLabel->setObjectName(QStringLiteral("runsFilterLabel"));
  m_filterLabel->addItem(tr("All tags"));
  m_showArchived = new QCheckBox(tr("Show archived"), this);
  m_showArchived->setObjectName(QStringLiteral("runsShowArchived"));
  auto *actions = new QHBoxLayout;
  actions->setContentsMargins(4, 4, 4, 0);
  actions->addWidget(m_stop);
  actions->addWidget(m_checkpoint);
  actions->addWidget(m_compare);
  actions->addWidget(m_delete);
  actions->addSpacing(16);
  actions->addWidget(m_filterText, 1);
  actions->addWidget(m_filterStatus);
  actions->addWidget(m_filterLabel);
  actions->addWidget(m_filterAccuracy);
  actions->addWidget(m_showArchived);
  actions->addStretch(1);

  // Keyboard first: the actions of the context menu also work on the table's selection.
  auto *addLabel = new QAction(tr("Add Tag..."), m_table);
  addLabel->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
  addLabel->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  connect(addLabel, &QAction::triggered, this, &RunsPage::askLabelForSelection);
  m_table->addAction(addLabel);
  auto *deleteRuns = new QAction(tr("Delete"), m_table);
  deleteRuns->setShortcut(QKeySequence::Delete);
  deleteRuns->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  connect(deleteRuns, &QAction::triggered, this, [this] { deleteSelectedRuns(true); });
  m_table->addAction(deleteRuns);

  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(actions);
  layout->addWidget(m_splitter);

  connect(m_stop, &QPushButton::clicked, this, [this] {
    const int64_t runId = selectedRunId();
    if (runId == 0) return;
    m_stop->setEnabled(false);
    m_control->requestStop(m_session->databasePath(), runId);
  });
  connect(m_filterText, &QLineEdit::textChanged, m_proxy, &RunsFilter::setText);
  connect(m_filterLabel, &QComboBox::currentIndexChanged, this, [this](int index) {
    m_proxy->setLabel(index <= 0 ? QString() : m_filterLabel->itemText(index));
  });
  connect(m_showArchived, &QCheckBox::toggled, m_proxy, &RunsFilter::setShowArchived);
  connect(m_model, &RunsTableModel::knownKeysChanged, this, &RunsPage::refreshLabelFilter);
  connect(m_model, &RunsTableModel::noteEdited, this, &RunsPage::setNote);
  connect(m_filterStatus, &QComboBox::currentIndexChanged, this, [this](int index) {
    const QVariant status = m_filterStatus->itemData(index);
    m_proxy->setStatus(status.isValid() ? std::optional(static_cast<tracking::RunStatus>(status.toInt())) : std::nullopt);
  });
  connect(m_filterAccuracy, &QDoubleSpinBox::valueChanged, this,
          [this](double percent) { m_proxy->setMinValAccuracy(percent / 100.0); });
  connect(m_checkpoint, &QPushButton::clicked, this, [this] {
    if (const int64_t runId = selectedRunId()) m_control->requestCheckpoint(m_session->databasePath(), runId);
  });
  connect(m_delete, &QPushButton::clicked, this, [this] { deleteSelectedRuns(true); });
  connect(m_control, &RunControl::runDeleted, this, [this](qint64 runId) {
    if (runId == m_detail->runId()) m_detail->clearRun();
    m_model->removeRun(runId);
    Q_EMIT runCountChanged(m_model->rowCount());
    updateActions();
  });
  connect(m_compare, &QPushButton::clicked, this, [this] { Q_EMIT compareRequested(selectedRunIds()); });
  connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
    updateActions();
    // Ctrl- and shift-clicks change the selection and then the current row: one update after both.
    if (m_selectionQueued) return;
    m_selectionQueued = true;
    QTimer::singleShot(0, this, &RunsPage::showSelection);
  });
  connect(m_control, &RunControl::failed, this, [this](const QString &message) {
    m_stop->setToolTip(tr("Could not ask the run to stop: %1").arg(message));
    updateActions();
  });

  connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          &RunsPage::onCurrentRowChanged);
  connect(m_session, &WorkspaceSession::opened, this, &RunsPage::onWorkspaceOpened);
  connect(m_session, &WorkspaceSession::runsUpdated, this, &RunsPage::onRunsUpdated);
  connect(m_session, &WorkspaceSession::metricsAppended, m_detail, &RunDetailView::appendMetrics);
}

void RunsPage::onWorkspaceOpened() {
  m_detail->clearRun();
  m_detail->setDatabasePath(m_session->databasePath());
  m_model->clear();
  refreshLabelFilter();
  m_followLive = true;
  Q_EMIT runCountChanged(0);
}

void RunsPage::onRunsUpdated(const RunsUpdate &update) {
  merge(update);
  if (!update.more) Q_EMIT runsListed();
}

void RunsPage::merge(const RunsUpdate &update) {
  const int before = m_model->rowCount();
  m_model->mergeRuns(update);
  for (const auto &snapshot : update.runs) {
    m_detail->updateRun(snapshot);  // ignores runs it does not show
    if (!m_pendingUuid.isEmpty() && QString::fromStdString(snapshot.run.uuid) == m_pendingUuid) {
      m_pendingUuid.clear();
      selectRun(snapshot.run.id);
    }
  }
  if (m_followLive && m_pendingUuid.isEmpty() && !m_table->selectionModel()->currentIndex().isValid()) {
    int64_t newest = 0;
    for (const auto &snapshot : update.runs)
      if (snapshot.run.status == tracking::RunStatus::Running) newest = std::max(newest, snapshot.run.id);
    if (newest) selectRun(newest);
  }
  updateActions();
  if (m_model->rowCount() != before) Q_EMIT runCountChanged(m_model->rowCount());
}

std::vector<int64_t> RunsPage::selectedRunIds() const {
  std::vector<int64_t> ids;
  for (const QModelIndex &row : m_table->selectionModel()->selectedRows())
    ids.push_back(row.data(RunsTableModel::RunIdRole).toLongLong());
  return ids;
}

void RunsPage::deleteSelectedRuns(bool confirm) {
  QList<QPair<qint64, QString>> doomed;
  for (int64_t id : selectedRunIds()) {
    auto snapshot = m_model->snapshot(id);
    if (snapshot && snapshot->run.status != tracking::RunStatus::Running)
      doomed.append({id, QString::fromStdString(snapshot->run.runDir)});
  }
  if (doomed.isEmpty()) return;
  if (confirm && QMessageBox::question(this, tr("Delete Runs"),
                                       tr("Delete %1 run(s) with their checkpoints and artifacts? This cannot be undone.")
                                           .arg(doomed.size())) != QMessageBox::Yes)
    return;
  m_delete->setEnabled(false);
  m_control->deleteRuns(m_session->databasePath(), doomed);
}

void RunsPage::updateActions() {
  bool deletable = !selectedRunIds().empty();
  for (int64_t id : selectedRunIds()) {
    auto snapshot = m_model->snapshot(id);
    deletable = deletable && snapshot && snapshot->run.status != tracking::RunStatus::Running;
  }
  m_delete->setEnabled(deletable);
  m_compare->setEnabled(m_table->selectionModel()->selectedRows().size() >= 2);
  auto snapshot = m_model->snapshot(selectedRunId());
  const bool live = snapshot && (snapshot->run.status == tracking::RunStatus::Running ||
                                 snapshot->run.status == tracking::RunStatus::Created);
  m_stop->setEnabled(live);
  m_checkpoint->setEnabled(live);
}

void RunsPage::onCurrentRowChanged() {
  if (m_table->selectionModel()->currentIndex().isValid()) m_followLive = false;
  updateActions();
  showSelection();
}

void RunsPage::showSelection() {
  m_selectionQueued = false;
  const int64_t runId = selectedRunId();
  auto snapshot = m_model->snapshot(runId);
  if (!snapshot) {
    if (m_detail->runId() == 0) return;
    m_session->watchRun(0, {});
    m_detail->clearRun();
    return;
  }
  std::vector<int64_t> ids = {runId};
  std::vector<RunSnapshot> others;
  const std::vector<int64_t> selected = selectedRunIds();
  for (int64_t id : selected) {
    if (id == runId) continue;
    auto other = m_model->snapshot(id);
    if (!other) continue;
    // Past the overlay's limit only the count matters (the detail says how many are left out).
    if (ids.size() < static_cast<size_t>(RunDetailView::kMaxOverlaidRuns)) ids.push_back(id);
    others.push_back(std::move(*other));
  }
  const int selectedCount = static_cast<int>(1 + others.size());
  if (ids == m_detail->chartedRunIds() && selectedCount == m_shownSelection) return;
  m_shownSelection = selectedCount;
  const quint64 token = m_session->watchRuns(ids, RunDetailView::chartedKeys());
  m_detail->showRuns(*snapshot, others, token);
}

int64_t RunsPage::selectedRunId() const {
  const QModelIndex current = m_table->selectionModel()->currentIndex();
  if (!current.isValid()) return 0;
  return current.data(RunsTableModel::RunIdRole).toLongLong();
}

void RunsPage::selectRunWhenListed(const QString &uuid) {
  for (int row = 0; row < m_model->rowCount(); ++row) {
    const int64_t id = m_model->index(row, 0).data(RunsTableModel::RunIdRole).toLongLong();
    if (auto snapshot = m_model->snapshot(id); snapshot && QString::fromStdString(snapshot->run.uuid) == uuid) {
      selectRun(id);
      return;
    }
  }
  m_pendingUuid = uuid;
}

void RunsPage::selectRun(int64_t runId) {
  const int row = m_model->rowOfRun(runId);
  if (row < 0) return;
  const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
  m_table->selectionModel()->setCurrentIndex(
      index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  m_table->scrollTo(index);
}

QByteArray RunsPage::saveState() const {
  QByteArray state;
  QDataStream out(&state, QIODevice::WriteOnly);
  out << kStateMagic << kStateVersion << m_splitter->saveState() << encodeColumns(m_model->extraColumns())
      << m_showArchived->isChecked() << m_table->horizontalHeader()->saveState();
  return state;
}

bool RunsPage::restoreState(const QByteArray &state) {
  QDataStream in(state);
  quint32 magic = 0, version = 0;
  QByteArray splitter, header;
  QStringList columns;
  bool showArchived = false;
  in >> magic >> version >> splitter;
  if (version >= 2) in >> columns >> showArchived;
  in >> header;
  if (in.status() != QDataStream::Ok || magic != kStateMagic || version < 1 || version > kStateVersion) return false;
  m_splitter->restoreState(splitter);
  // The columns first: the header's saved sections only fit a model with as many.
  m_model->setExtraColumns(decodeColumns(columns));
  m_showArchived->setChecked(showArchived);
  m_table->horizontalHeader()->restoreState(header);
  return true;
}

}  // namespace tw::ui
