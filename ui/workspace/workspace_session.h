#pragma once
// The open workspace as the UI thread sees it: owns the poller thread and forwards the poller's
// updates. Reopening another workspace drops whatever the previous poller still had queued.
//
//   WorkspaceSession session;
//   QString error;
//   if (!session.open(dir, &error)) showError(error);
//   connect(&session, &WorkspaceSession::runsUpdated, model, &RunsTableModel::mergeRuns);

#include "ui/workspace/db_poller.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QStringList>

class QThread;
class QTimer;

namespace tw::ui {

class WorkspaceSession : public QObject {
  Q_OBJECT

 public:
  explicit WorkspaceSession(QObject *parent = nullptr, DbPollerOptions options = {});
  ~WorkspaceSession() override;

  // Creates the workspace folder when missing and starts polling its tracking database.
  bool open(const QString &workspaceDir, QString *error);
  void close();
  bool isOpen() const { return m_thread != nullptr; }
  QString workspaceDir() const { return m_workspaceDir; }
  // The store's location (a path or a URL that may hold a password): for opening connections.
  QString databasePath() const { return m_dbPath; }
  // The same for people: the password hidden.
  QString shownDatabase() const;

  // Starts following the given metrics of a run (0: none); the returned token is carried by
  // every MetricsUpdate that answers this request.
  quint64 watchRun(int64_t runId, const QStringList &keys);
  // Several runs (curves overlaid); their updates carry the one token returned.
  quint64 watchRuns(const std::vector<int64_t> &runIds, const QStringList &keys);

 Q_SIGNALS:
  void opened(const QString &workspaceDir);
  void runsUpdated(const tw::ui::RunsUpdate &update);
  void metricsAppended(const tw::ui::MetricsUpdate &update);
  void databaseStateChanged(tw::ui::DbState state, const QString &detail);
  void polled();  // DbPoller::polled, after the updates of that poll were forwarded
  void reopened(const QString &reason);  // DbPoller::reopened

 private:
  DbPollerOptions m_options;
  QThread *m_thread = nullptr;
  DbPoller *m_poller = nullptr;
  quint64 m_generation = 0;
  quint64 m_nextWatchToken = 1;
  QString m_workspaceDir;
  QString m_dbPath;

  // The watchdog lives here, on the UI thread, because a stuck poller cannot report itself.
  void onPollerState(DbState state, const QString &detail);
  void onPolled();
  void checkStall();
  QTimer *m_watchdog = nullptr;
  QElapsedTimer m_sinceProgress;  // since the last finished poll or state change
  DbState m_pollerState = DbState::Connecting;
  QString m_pollerDetail;
  bool m_stalled = false;
};

}  // namespace tw::ui
