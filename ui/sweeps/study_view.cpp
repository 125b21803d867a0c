#include "ui/sweeps/study_view.h"

#include "ui/common/number_item.h"
#include "ui/common/state_labels.h"
#include "ui/common/status_colors.h"
#include "ui/common/studio_icons.h"
#include "ui/common/visible_rows.h"
#include "ui/runs/run_status.h"
#include "ui/sweeps/study_phase.h"
#include "ui/sweeps/study_plots.h"

#include <QCoreApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QThread>
#include <QVBoxLayout>

#include <cmath>
#include <set>

namespace tw::ui {

namespace {

enum StudyColumn { NameColumn, StatusColumn, TrialsColumn, BestColumn, BestTrialColumn, StudyColumnCount };

// Trial numbers and run ids are names more than quantities: no thousands separator.
QTableWidgetItem *idItem(qint64 id) {
  auto *item = new NumberItem;
  item->setText(QString::number(id));
  item->setData(NumberItem::SortRole, static_cast<double>(id));
  return item;
}


}  // namespace

StudyView::StudyView(QWidget *parent)
    : QWidget(parent), m_studies(new QTableWidget(0, StudyColumnCount, this)), m_trials(new QTableWidget(this)),
      m_plots(new StudyPlots(this)), m_title(new QLabel(this)), m_phase(new QLabel(this)), m_stop(new QPushButton(tr("Stop"), this)),
      m_resume(new QPushButton(tr("Resume"), this)), m_openRun(new QPushButton(tr("Open in Runs"), this)),
      m_launchTrial(new QPushButton(tr("Launch This Configuration"), this)),
      m_exportBest(new QPushButton(tr("Export Best Trial..."), this)) {
  registerStudyMetaTypes();
  m_studies->setHorizontalHeaderLabels({tr("Study"), tr("Status"), tr("Trials"), tr("Best"), tr("Best Trial")});
  m_studies->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_studies->setSelectionMode(QAbstractItemView::SingleSelection);
  m_studies->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_studies->verticalHeader()->setVisible(false);
  // The name takes what is left after the figures, which are never cut (the list pane is narrow).
  for (int column = StatusColumn; column < StudyColumnCount; ++column)
    m_studies->horizontalHeader()->setSectionResizeMode(column, QHeaderView::ResizeToContents);
  m_studies->horizontalHeader()->setSectionResizeMode(NameColumn, QHeaderView::Stretch);
  m_trials->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_trials->setSelectionMode(QAbstractItemView::SingleSelection);
  m_trials->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_trials->verticalHeader()->setVisible(false);
  keepRowsVisible(m_studies);
  keepRowsVisible(m_trials);

  m_phase->setObjectName(QStringLiteral("studyPhase"));
  m_phase->setWordWrap(true);
  m_stop->setToolTip(tr("Ask the sweep to start no new trial and stop the running ones"));
  m_stop->setIcon(studioIcon("process-stop"));
  m_resume->setIcon(studioIcon("media-playback-start"));
  m_resume->setToolTip(tr("Continue the study in the background until its budget is spent"));
  m_openRun->setToolTip(tr("Show the selected trial's run on the Runs page"));
  m_launchTrial->setToolTip(tr("Put the selected trial's parameters on the Launch page"));
  m_exportBest->setToolTip(tr("Export the model of the study's best trial to TorchScript or ONNX"));
  connect(m_exportBest, &QPushButton::clicked, this, [this] {
    if (const int64_t run = bestTrialRunId()) Q_EMIT exportRunRequested(run);
  });
  connect(m_stop, &QPushButton::clicked, this, [this] {
    if (m_studyId != 0) Q_EMIT stopRequested(m_studyId);
  });
  connect(m_resume, &QPushButton::clicked, this, [this] {
    if (m_studyId != 0) Q_EMIT resumeRequested(selectedStudyName());
  });
  connect(m_openRun, &QPushButton::clicked, this, [this] {
    if (const tracking::TrialRecord *trial = selectedTrial(); trial && trial->runId != 0)
      Q_EMIT openRunRequested(trial->runId);
  });
  connect(m_launchTrial, &QPushButton::clicked, this, [this] {
    if (const tracking::TrialRecord *trial = selectedTrial()) Q_EMIT launchConfigurationRequested(trial->params);
  });
  connect(m_studies, &QTableWidget::itemSelectionChanged, this, [this] {
    const auto rows = m_studies->selectionModel()->selectedRows();
    if (rows.isEmpty()) return;
    const int64_t id = m_studies->item(rows.front().row(), NameColumn)->data(Qt::UserRole).toLongLong();
    if (id != m_studyId) selectStudy(id);
  });
  connect(m_trials, &QTableWidget::itemSelectionChanged, this, &StudyView::updateButtons);
  connect(m_plots, &StudyPlots::contourPairChosen, this, [this](const QString &x, const QString &y) {
    m_request.contourX = x.toStdString();
    m_request.contourY = y.toStdString();
    watch();
  });

  auto *studyButtons = new QHBoxLayout;
  studyButtons->addWidget(m_stop);
  studyButtons->addWidget(m_resume);
  studyButtons->addStretch(1);
  studyButtons->addWidget(m_exportBest);
  auto *left = new QWidget(this);
  auto *leftLayout = new QVBoxLayout(left);
  leftLayout->setContentsMargins(0, 0, 0, 0);
  leftLayout->addWidget(m_studies, 1);
  leftLayout->addWidget(m_phase);
  leftLayout->addLayout(studyButtons);

  auto *trialButtons = new QHBoxLayout;
  trialButtons->addWidget(m_title, 1);
  trialButtons->addWidget(m_openRun);
  trialButtons->addWidget(m_launchTrial);
  auto *trialsPane = new QWidget(this);
  auto *trialsLayout = new QVBoxLayout(trialsPane);
  trialsLayout->setContentsMargins(0, 0, 0, 0);
  trialsLayout->addLayout(trialButtons);
  trialsLayout->addWidget(m_trials, 1);

  auto *right = new QSplitter(Qt::Vertical, this);
  right->addWidget(trialsPane);
  right->addWidget(m_plots);
  right->setStretchFactor(1, 2);
  // The charts draw in what the trials' 8 rows leave on a small screen; their axes and labels
  // ask for more than they need.
  m_plots->setMinimumHeight(160);
  auto *split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(left);
  split->addWidget(right);
  split->setStretchFactor(1, 3);
  split->setSizes({360, 1040});
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(split);
  updateButtons();
}

StudyView::~StudyView() { stopPolling(); }

void StudyView::stopPolling() {
  if (!m_thread) return;
  ++m_generation;
  m_thread->quit();
  m_thread->wait();  // bounded by one poll
  delete m_thread;
  m_thread = nullptr;
  m_poller = nullptr;  // deleted on its thread when it finished
}

void StudyView::setDatabase(const QString &dbPath) {
  stopPolling();
  m_summaries.clear();
  m_records.clear();
  m_studyId = 0;
  m_studies->setRowCount(0);
  m_trials->setRowCount(0);
  m_plots->clear();
  if (dbPath.isEmpty()) return;
  const quint64 generation = ++m_generation;
  m_thread = new QThread(this);
  m_thread->setObjectName(QStringLiteral("tw-study-poller"));
  m_poller = new StudyPoller(dbPath.toStdString());
  m_poller->moveToThread(m_thread);
  connect(m_thread, &QThread::started, m_poller, &StudyPoller::start);
  connect(m_thread, &QThread::finished, m_poller, &QObject::deleteLater);
  // Queued into this thread; the generation drops what a replaced poller left behind.
  connect(m_poller, &StudyPoller::studiesUpdated, this, [this, generation](const StudiesUpdate &update) {
    if (generation == m_generation) onStudies(update);
  });
  connect(m_poller, &StudyPoller::trialsUpdated, this, [this, generation](const StudyTrialsUpdate &update) {
    if (generation == m_generation) onTrials(update);
  });
  connect(m_poller, &StudyPoller::polled, this, [this, generation] {
    if (generation != m_generation) return;
    showPhases();  // a driver that died writes nothing: its silence shows only on the clock
    Q_EMIT polled();
  });
  m_thread->start();
}

void StudyView::selectStudy(int64_t studyId) {
  if (studyId == m_studyId) return;
  m_studyId = studyId;
  m_request = {};
  m_records.clear();
  m_paramKeys.clear();
  m_trials->setRowCount(0);
  m_plots->clear();
  for (int row = 0; row < m_studies->rowCount(); ++row)
    if (m_studies->item(row, NameColumn)->data(Qt::UserRole).toLongLong() == studyId) {
      const QSignalBlocker block(m_studies);
      m_studies->selectRow(row);
    }
  watch();
  updateButtons();
}

void StudyView::watch() {
  if (!m_poller) return;
  const quint64 token = ++m_token;
  StudyPoller *poller = m_poller;
  QMetaObject::invokeMethod(
      poller, [poller, token, id = m_studyId, request = m_request] { poller->watchStudy(token, id, request); },
      Qt::QueuedConnection);
}

void StudyView::selectStudyUuid(const QString &uuid) {
  m_pendingUuid = uuid;
  for (const auto &summary : m_summaries)
    if (QString::fromStdString(summary.study.uuid) == uuid) {
      m_pendingUuid.clear();
      selectStudy(summary.study.id);
    }
}

QString StudyView::selectedStudyName() const {
  for (const auto &summary : m_summaries)
    if (summary.study.id == m_studyId) return QString::fromStdString(summary.study.name);
  return {};
}

void StudyView::onStudies(const StudiesUpdate &update) {
  m_summaries = update.studies;
  const QSignalBlocker block(m_studies);
  m_studies->setSortingEnabled(false);
  m_studies->setRowCount(static_cast<int>(m_summaries.size()));
  for (int row = 0; row < static_cast<int>(m_summaries.size()); ++row) {
    const StudySummary &s = m_summaries[static_cast<size_t>(row)];
    auto *name = new QTableWidgetItem(QString::fromStdString(s.study.name));
    name->setData(Qt::UserRole, static_cast<qlonglong>(s.study.id));
    name->setToolTip(QString::fromStdString(s.study.sweepFile));
    m_studies->setItem(row, NameColumn, name);
    m_studies->setItem(row, StatusColumn, new QTableWidgetItem);
    auto *trials = new NumberItem(s.trials);
    trials->setToolTip(tr("%1 complete, %2 pruned, %3 failed, %4 running")
                           .arg(s.complete)
                           .arg(s.pruned)
                           .arg(s.failed)
                           .arg(s.running));
    m_studies->setItem(row, TrialsColumn, trials);
    m_studies->setItem(row, BestColumn, s.bestNumber >= 0 ? new NumberItem(s.best) : new NumberItem);
    m_studies->setItem(row, BestTrialColumn, s.bestNumber >= 0 ? idItem(s.bestNumber) : new NumberItem);
    if (s.study.id == m_studyId) m_studies->selectRow(row);
  }
  m_studies->setSortingEnabled(true);
  keepRowsVisible(m_studies);  // measured again on real rows
  m_shownPhases.clear();
  showPhases();
  if (!m_pendingUuid.isEmpty()) selectStudyUuid(m_pendingUuid);
  updateButtons();
  Q_EMIT studiesChanged();
}

StudyClock StudyView::clock() const { return StudyClock{tracking::nowMs(), m_driverSilenceMs}; }

void StudyView::showPhases() {
  const StudyClock now = clock();
  bool changed = m_shownPhases.size() != m_summaries.size();
  m_shownPhases.resize(m_summaries.size(), StudyPhase::Idle);
  for (size_t i = 0; i < m_summaries.size(); ++i) {
    const StudySummary &s = m_summaries[i];
    const StudyPhase phase = studyPhase(s, now);
    changed = changed || phase != m_shownPhases[i];
    m_shownPhases[i] = phase;
    for (int row = 0; row < m_studies->rowCount(); ++row) {
      if (m_studies->item(row, NameColumn)->data(Qt::UserRole).toLongLong() != s.study.id) continue;
      QTableWidgetItem *item = m_studies->item(row, StatusColumn);
      item->setText(studyPhaseText(phase));
      item->setIcon(statusIcon(phase == StudyPhase::Finished      ? QStringLiteral("COMPLETE")
                               : phase == StudyPhase::Interrupted ? QStringLiteral("IDLE")
                                                                  : QString::fromStdString(s.study.status)));
      item->setToolTip(studyPhaseReason(s, now));
      break;  // with sorting on, the row may have moved
    }
  }
  if (!changed) return;
  updateButtons();
  Q_EMIT studiesChanged();
}

void StudyView::onTrials(const StudyTrialsUpdate &update) {
  if (update.token != m_token || update.studyId != m_studyId) return;  // an earlier selection
  if (update.trialsChanged) {
    m_records = update.trials;
    if (update.analysis) m_plots->setAnalysis(update.analysis);
    showTrials();
  }
  if (!update.curves.empty()) m_plots->appendCurves(update.curves);
}

void StudyView::showTrials() {
  const StudyAnalysis *analysis = m_plots->analysis();
  // Columns: the space's keys in order, then any key only the records know.
  m_paramKeys.clear();
  std::set<std::string> known;
  if (analysis)
    for (const auto &param : analysis->space.params) {
      m_paramKeys.push_back(param.key);
      known.insert(param.key);
    }
  for (const auto &record : m_records)
    for (const auto &entry : record.params)
      if (known.insert(entry.first).second) m_paramKeys.push_back(entry.first);
  QStringList headers{tr("Trial"), tr("State"), tr("Value"), tr("Duration"), tr("Pruned At Epoch"), tr("Run")};
  for (const auto &key : m_paramKeys) headers << QString::fromStdString(key);

  const int selectedNumber = selectedTrial() ? selectedTrial()->number : -1;
  const QSignalBlocker block(m_trials);
  m_trials->setSortingEnabled(false);
  QStringList shownHeaders;
  for (int column = 0; column < m_trials->columnCount(); ++column)
    if (const QTableWidgetItem *header = m_trials->horizontalHeaderItem(column)) shownHeaders << header->text();
  const bool newColumns = shownHeaders != headers;
  m_trials->setColumnCount(static_cast<int>(headers.size()));
  m_trials->setHorizontalHeaderLabels(headers);
  for (int column = FirstParamColumn; column < m_trials->columnCount(); ++column)
    m_trials->horizontalHeaderItem(column)->setToolTip(headers[column]);
  m_trials->setRowCount(static_cast<int>(m_records.size()));
  const int64_t now = tracking::nowMs();
  for (int row = 0; row < static_cast<int>(m_records.size()); ++row) {
    const tracking::TrialRecord &t = m_records[static_cast<size_t>(row)];
    m_trials->setItem(row, NumberColumn, idItem(t.number));
    auto *state = new QTableWidgetItem(trialStateText(QString::fromStdString(t.state)));
    state->setIcon(statusIcon(QString::fromStdString(t.state)));
    if (!t.message.empty()) state->setToolTip(QString::fromStdString(t.message));
    m_trials->setItem(row, StateColumn, state);
    // Two objectives read "0.91; 1,203": the list separator cannot be the German decimal comma.
    QStringList values;
    for (double v : t.values) values << formatNumber(v);
    auto *value = t.values.empty() ? new NumberItem : new NumberItem(t.values.front());
    value->setText(values.join(QStringLiteral("; ")));
    m_trials->setItem(row, ValueColumn, value);
    const int64_t end = t.endMs > 0 ? t.endMs : (t.state == "RUNNING" ? now : t.startMs);
    auto *duration = new NumberItem;
    if (t.startMs > 0) {
      duration->setText(formatDuration(end - t.startMs));
      duration->setData(NumberItem::SortRole, static_cast<double>(end - t.startMs));
    }
    m_trials->setItem(row, DurationColumn, duration);
    const bool pruned = t.state == "PRUNED" && !t.intermediate.empty();
    m_trials->setItem(row, PrunedAtColumn,
                      pruned ? new NumberItem(static_cast<double>(t.intermediate.rbegin()->first)) : new NumberItem);
    m_trials->setItem(row, RunColumn, t.runId != 0 ? idItem(t.runId) : new NumberItem);
    for (size_t i = 0; i < m_paramKeys.size(); ++i) {
      const auto found = t.params.find(m_paramKeys[i]);
      // The digits that matter in the locale; the tooltip has every digit the store keeps.
      auto *item = found != t.params.end() ? NumberItem::fromText(QString::fromStdString(found->second)) : new NumberItem;
      if (found != t.params.end()) item->setToolTip(QString::fromStdString(found->second));
      m_trials->setItem(row, FirstParamColumn + static_cast<int>(i), item);
    }
    for (int column = 0; column < m_trials->columnCount(); ++column)
      m_trials->item(row, column)->setData(Qt::UserRole, t.number);
    if (t.number == selectedNumber) m_trials->selectRow(row);
  }
  m_trials->setSortingEnabled(true);
  // Every column wide enough for its name and values (a parameter's name is its only label, and
  // German states are long), once per set of columns.
  if (newColumns) m_trials->resizeColumnsToContents();
  // Rows with a state's icon are taller than the empty table measured at construction: 8 of them
  // stay in view whatever the plots below ask for.
  keepRowsVisible(m_trials);
  // Two strings rather than %n: without an English translation %n reads "6 trial(s)".
  m_title->setText(m_records.size() == 1 ? tr("1 trial") : tr("%1 trials").arg(m_records.size()));
  updateButtons();
}

int StudyView::trialRow(int number) const {
  for (int row = 0; row < m_trials->rowCount(); ++row)
    if (m_trials->item(row, NumberColumn) && m_trials->item(row, NumberColumn)->data(Qt::UserRole).toInt() == number)
      return row;
  return -1;
}

const tracking::TrialRecord *StudyView::selectedTrial() const {
  const auto rows = m_trials->selectionModel() ? m_trials->selectionModel()->selectedRows() : QModelIndexList{};
  if (rows.isEmpty()) return nullptr;
  const QTableWidgetItem *item = m_trials->item(rows.front().row(), NumberColumn);
  if (!item) return nullptr;
  const int number = item->data(Qt::UserRole).toInt();
  for (const auto &record : m_records)
    if (record.number == number) return &record;
  return nullptr;
}

void StudyView::updateButtons() {
  const StudySummary *summary = selectedSummary();
  const bool running = summary && studyPhase(*summary, clock()) == StudyPhase::Running;
  m_stop->setEnabled(running && !summary->study.stopRequested);
  // Resume only where a sweep has trials left to run: a finished study has none.
  const StudyClock now = clock();
  m_resume->setEnabled(summary && resumable(studyPhase(*summary, now)));
  m_phase->setText(summary ? studyPhaseReason(*summary, now) : QString());
  const tracking::TrialRecord *trial = selectedTrial();
  m_openRun->setEnabled(trial && trial->runId != 0);
  m_launchTrial->setEnabled(trial != nullptr);
  m_exportBest->setEnabled(bestTrialRunId() != 0);
}

const StudySummary *StudyView::selectedSummary() const {
  for (const auto &s : m_summaries)
    if (s.study.id == m_studyId) return &s;
  return nullptr;
}

int64_t StudyView::bestTrialRunId() const {
  for (const auto &s : m_summaries) {
    if (s.study.id != m_studyId || s.bestNumber < 0) continue;
    for (const auto &record : m_records)
      if (record.number == s.bestNumber) return record.runId;
  }
  return 0;
}

}  // namespace tw::ui
