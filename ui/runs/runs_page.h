#pragma once
// The Runs page: the workspace's runs as a sortable table above the selected run's detail
// (info panel and curves). Owns its model and views; MainWindow only places it.

#include "ui/workspace/poll_results.h"

#include <QByteArray>
#include <QWidget>

#include <cstdint>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QSplitter;
class QTableView;

namespace tw::ui {

class CliCommand;
class ReportWriter;
class ExportDialog;
class RunControl;
class RunsFilter;
class RunDetailView;
class RunsTableModel;
struct ExtraColumn;
class WorkspaceSession;

class RunsPage : public QWidget {
  Q_OBJECT

 public:
  explicit RunsPage(WorkspaceSession *session, QWidget *parent = nullptr);

  // Splitter position and column layout, for QSettings.
  QByteArray saveState() const;
  bool restoreState(const QByteArray &state);

  int64_t selectedRunId() const;
  std::vector<int64_t> selectedRunIds() const;
  // Deletes the selected runs that are not running, with their folders; asks first when confirm.
  void deleteSelectedRuns(bool confirm);
  void selectRun(int64_t runId);
  // Selects the run with this uuid as soon as the poller lists it (a run just launched).
  void selectRunWhenListed(const QString &uuid);
  // Labels, notes and the archive mark of the selected runs; stored off the UI thread.
  void addLabelToSelection(const QString &label);
  void removeLabelFromSelection(const QString &label);
  void setSelectionArchived(bool archived);
  void setNote(int64_t runId, const QString &note);
  // The column chooser's effect: a fixed column hidden or shown, an extra column added or removed.
  void setColumnVisible(int column, bool visible);
  void setExtraColumnShown(const ExtraColumn &column, bool shown);
  RunsTableModel *model() const { return m_model; }
  QTableView *table() const { return m_table; }
  RunDetailView *detail() const { return m_detail; }
  QPushButton *stopButton() const { return m_stop; }
  QPushButton *compareButton() const { return m_compare; }
  QPushButton *checkpointButton() const { return m_checkpoint; }
  QPushButton *deleteButton() const { return m_delete; }
  QLineEdit *filterText() const { return m_filterText; }
  QComboBox *filterStatus() const { return m_filterStatus; }
  QDoubleSpinBox *filterAccuracy() const { return m_filterAccuracy; }
  QComboBox *filterLabel() const { return m_filterLabel; }
  QCheckBox *showArchived() const { return m_showArchived; }
  RunControl *control() const { return m_control; }
  // "Export..." for a run: a dialog that runs `torchwright export` (the CLI at cliPath()).
  ExportDialog *openExportDialog(int64_t runId);
  void setCliPath(const QString &path) { m_cliPath = path; }
  // "Resume": continues a stopped, failed or killed run from its last checkpoint in the
  // background (`torchwright launch --resume RUN --detach`); answers with resumeFinished().
  // False when the run cannot be resumed or a resume is still starting.
  bool resumeRun(int64_t runId);
  // "Reproduce": trains the run again from its recorded configuration in the background
  // (`torchwright reproduce RUN --detach`); the new run is listed as <name>-repro and tagged with
  // the verdict when it ends. Answers with reproduceFinished(); false when the run is unknown or
  // a reproduction is still starting.
  bool reproduceRun(int64_t runId);
  QString cliPath() const { return m_cliPath; }
  // "Export Report...": one self-contained HTML page about the selected runs (as `torchwright
  // report`), written off the UI thread; answers with reportFinished(). False without a selection.
  bool exportReport(const QString &file);
  void chooseReportFile();  // asks where, then exportReport()

 Q_SIGNALS:
  void runCountChanged(int count);
  // Every run of the updates received so far is in the table (a poll that found many runs sends
  // them in parts, RunsUpdate::more).
  void runsListed();
  void compareRequested(const std::vector<int64_t> &runIds);
  void resumeFinished(int exitCode, const QString &message);
  void reproduceFinished(int exitCode, const QString &message);
  void reportFinished(bool ok, const QString &message);  // the file written, or why not
  // "Clone into Launch": the run's resolved configuration (its config.yaml text).
  void cloneRequested(const QString &configYaml);

 private:
  void onWorkspaceOpened();
  void onRunsUpdated(const tw::ui::RunsUpdate &update);
  void merge(const tw::ui::RunsUpdate &update);
  void onCurrentRowChanged();
  // The run in detail (the current row) with the other selected runs' curves overlaid.
  void showSelection();
  // Runs `torchwright ARGS` through `command` (made on first use); its answer goes to `done`.
  bool runCli(CliCommand *&command, const QStringList &arguments, void (RunsPage::*done)(int, const QString &));
  void updateActions();
  void refreshLabelFilter();
  void showRunMenu(const QPoint &position);     // runs_page_menus.cpp
  void showHeaderMenu(const QPoint &position);  // runs_page_menus.cpp
  void askLabelForSelection();
  void editCurrentNote();
  QList<qint64> selectedIdList() const;

  WorkspaceSession *m_session = nullptr;
  RunsTableModel *m_model = nullptr;
  RunsFilter *m_proxy = nullptr;
  QLineEdit *m_filterText = nullptr;
  QComboBox *m_filterStatus = nullptr;
  QDoubleSpinBox *m_filterAccuracy = nullptr;
  QComboBox *m_filterLabel = nullptr;
  QCheckBox *m_showArchived = nullptr;
  QTableView *m_table = nullptr;
  RunDetailView *m_detail = nullptr;
  RunControl *m_control = nullptr;
  ReportWriter *m_report = nullptr;
  QPushButton *m_stop = nullptr;
  QPushButton *m_compare = nullptr;
  QPushButton *m_checkpoint = nullptr;
  QPushButton *m_delete = nullptr;
  QSplitter *m_splitter = nullptr;
  QString m_cliPath;
  CliCommand *m_resumeCommand = nullptr;
  CliCommand *m_reproduceCommand = nullptr;
  bool m_selectionQueued = false;  // a selection change waits for the current row to settle
  int m_shownSelection = 0;        // how many runs were selected when the detail was last shown
  QString m_pendingUuid;  // selectRunWhenListed's run, until it is listed
  // Until a run is selected in this workspace, the newest live run is selected as it is listed:
  // opening Studio while a run trains (the README's first command) shows its curves moving.
  bool m_followLive = true;
};

}  // namespace tw::ui
