#pragma once
// The studies of a workspace, followed live: the list with each study's best value, the chosen
// study's trial table (number, state, value, parameters, duration, pruned at which epoch) and
// its plots (StudyPlots). A StudyPoller reads the database on its own thread; this view only
// shows what it hands over.
//
//   view->setDatabase(session->databasePath());
//   connect(view, &StudyView::openRunRequested, runsPage, &RunsPage::selectRun);

#include "ui/sweeps/study_phase.h"
#include "ui/sweeps/study_poller.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;
class QThread;

namespace tw::ui {

class StudyPlots;

class StudyView : public QWidget {
  Q_OBJECT

 public:
  enum TrialColumn { NumberColumn, StateColumn, ValueColumn, DurationColumn, PrunedAtColumn, RunColumn, FirstParamColumn };

  explicit StudyView(QWidget *parent = nullptr);
  ~StudyView() override;

  // Follows the studies of this database on a thread of its own; empty: none.
  void setDatabase(const QString &dbPath);
  // Shows the study with this id (once it is listed, if it is not yet).
  void selectStudy(int64_t studyId);
  // The same by uuid, as `torchwright sweep --detach` prints it; waits for the study to be listed.
  void selectStudyUuid(const QString &uuid);
  int64_t selectedStudyId() const { return m_studyId; }
  QString selectedStudyName() const;
  // Every study as last read, and the selected one's (nullptr when none).
  const std::vector<StudySummary> &summaries() const { return m_summaries; }
  const StudySummary *selectedSummary() const;
  // The selected study's phase in a sentence: why it is where it is, what Resume would do.
  QLabel *phaseLabel() const { return m_phase; }
  // Phases judged now: a driver silent for longer than `silenceMs` is gone (default: the store's
  // rule for runs). Re-judged after every poll, since a dead driver writes nothing.
  StudyClock clock() const;
  void setDriverSilenceMs(int64_t silenceMs) { m_driverSilenceMs = silenceMs; }
  // The selected trial's record, or nullptr.
  const tracking::TrialRecord *selectedTrial() const;

  QTableWidget *studies() const { return m_studies; }
  QTableWidget *trials() const { return m_trials; }
  StudyPlots *plots() const { return m_plots; }
  QPushButton *stopButton() const { return m_stop; }
  QPushButton *resumeButton() const { return m_resume; }
  QPushButton *openRunButton() const { return m_openRun; }
  QPushButton *launchTrialButton() const { return m_launchTrial; }
  QPushButton *exportBestButton() const { return m_exportBest; }
  // The run of the selected study's best trial, or 0.
  int64_t bestTrialRunId() const;
  // The row of trial `number` in the trial table, or -1.
  int trialRow(int number) const;

 Q_SIGNALS:
  void stopRequested(qint64 studyId);
  void resumeRequested(const QString &study);
  void openRunRequested(qint64 runId);
  // "Export Best Trial...": the best trial's run, to export.
  void exportRunRequested(qint64 runId);
  // The trial's parameters (dotted keys, values as text) to put on the Launch page.
  void launchConfigurationRequested(const std::map<std::string, std::string> &params);
  // The study list was read again (summaries() holds it).
  void studiesChanged();
  // After each poll of the study poller, following the updates it sent.
  void polled();

 private:
  void onStudies(const StudiesUpdate &update);
  void onTrials(const StudyTrialsUpdate &update);
  void watch();
  void stopPolling();
  void showTrials();
  void updateButtons();
  // The status column and buttons again (a driver may have fallen silent since the last read).
  void showPhases();

  QThread *m_thread = nullptr;
  StudyPoller *m_poller = nullptr;
  quint64 m_generation = 0;
  quint64 m_token = 0;
  int64_t m_studyId = 0;
  QString m_pendingUuid;
  StudyAnalysisRequest m_request;
  std::vector<StudySummary> m_summaries;
  std::vector<tracking::TrialRecord> m_records;
  std::vector<std::string> m_paramKeys;  // trial table columns after FirstParamColumn

  QTableWidget *m_studies;
  QTableWidget *m_trials;
  StudyPlots *m_plots;
  QLabel *m_title;
  QLabel *m_phase;
  int64_t m_driverSilenceMs = tracking::Store::kDefaultMaxSilenceMs;
  std::vector<StudyPhase> m_shownPhases;  // per row of m_summaries, as last shown
  QPushButton *m_stop, *m_resume, *m_openRun, *m_launchTrial, *m_exportBest;
};

}  // namespace tw::ui
