#include "ui/workspace/workspace_session.h"

#include "core/config/workspace.h"
#include "ui/studio_log.h"
#include "tracking/store_location.h"
#include "tracking/workspace_store.h"

#include <QDir>
#include <QThread>
#include <QTimer>

#include <algorithm>

namespace tw::ui {

WorkspaceSession::WorkspaceSession(QObject *parent, DbPollerOptions options)
    : QObject(parent), m_options(options) {
  registerPollMetaTypes();
  m_watchdog = new QTimer(this);
  m_watchdog->setInterval(std::max(100, m_options.stallMs / 4));
  connect(m_watchdog, &QTimer::timeout, this, &WorkspaceSession::checkStall);
}

WorkspaceSession::~WorkspaceSession() { close(); }

bool WorkspaceSession::open(const QString &workspaceDir, QString *error) {
  const QString dir = QDir::cleanPath(QDir(workspaceDir).absolutePath());
  std::string store;
  try {
    config::ensureWorkspace(dir.toStdString());
    store = tracking::workspaceStore(dir.toStdString());  // a small settings file: no I/O of size
  } catch (const std::exception &e) {
    if (error) *error = QString::fromStdString(e.what());
    studioLog()->error("opening workspace {}: {}", dir.toStdString(), e.what());
    return false;
  }
  close();
  m_workspaceDir = dir;
  m_dbPath = QString::fromStdString(store);
  const quint64 generation = ++m_generation;

  m_thread = new QThread(this);
  m_thread->setObjectName(QStringLiteral("tw-db-poller"));
  m_poller = new DbPoller(m_dbPath.toStdString(), m_options);
  m_poller->moveToThread(m_thread);
  connect(m_thread, &QThread::started, m_poller, &DbPoller::start);
  // Deleted on its own thread, so its timer and SQLite connection close where they were used.
  connect(m_thread, &QThread::finished, m_poller, &QObject::deleteLater);

  // Queued into this thread; the generation check drops what a closed poller left behind.
  connect(m_poller, &DbPoller::runsUpdated, this, [this, generation](const RunsUpdate &update) {
    if (generation != m_generation) return;
    Q_EMIT runsUpdated(update);
    // Taken in: the next part arrives on a later turn of the event loop, input handled between.
    if (update.more) QMetaObject::invokeMethod(m_poller, &DbPoller::sendMoreRuns, Qt::QueuedConnection);
  });
  connect(m_poller, &DbPoller::metricsAppended, this, [this, generation](const MetricsUpdate &update) {
    if (generation == m_generation) Q_EMIT metricsAppended(update);
  });
  connect(m_poller, &DbPoller::polled, this, [this, generation] {
    if (generation == m_generation) onPolled();
  });
  connect(m_poller, &DbPoller::stateChanged, this,
          [this, generation](DbState state, const QString &detail) {
            if (generation == m_generation) onPollerState(state, detail);
          });
  connect(m_poller, &DbPoller::reopened, this, [this, generation](const QString &reason) {
    if (generation == m_generation) Q_EMIT reopened(reason);
  });

  m_pollerState = DbState::Connecting;
  m_pollerDetail.clear();
  m_stalled = false;
  m_sinceProgress.start();
  m_watchdog->start();
  m_thread->start();
  studioLog()->info("opened workspace {}", dir.toStdString());
  Q_EMIT opened(dir);
  return true;
}

void WorkspaceSession::close() {
  if (!m_thread) return;
  ++m_generation;
  m_watchdog->stop();
  m_thread->quit();
  // Bounded by one poll, i.e. by SQLite's busy timeout in the worst case.
  m_thread->wait();
  delete m_thread;
  m_thread = nullptr;
  m_poller = nullptr;  // deleted by the finished thread
}

void WorkspaceSession::onPollerState(DbState state, const QString &detail) {
  m_pollerState = state;
  m_pollerDetail = detail;
  m_stalled = false;
  m_sinceProgress.restart();
  Q_EMIT databaseStateChanged(state, detail);
}

void WorkspaceSession::onPolled() {
  m_sinceProgress.restart();
  if (m_stalled) {
    m_stalled = false;
    studioLog()->info("tracking database {} answers again", tracking::shownLocation(m_dbPath.toStdString()));
    Q_EMIT databaseStateChanged(m_pollerState, m_pollerDetail);
  }
  Q_EMIT polled();
}

void WorkspaceSession::checkStall() {
  // An unavailable database is already a warning, retried on every tick.
  if (m_stalled || m_pollerState == DbState::Unavailable) return;
  const qint64 silentMs = m_sinceProgress.elapsed();
  if (silentMs < m_options.stallMs) return;
  m_stalled = true;
  const QString detail = tr("No update from the tracking database for %1 s: a process may hold a lock on it.")
                             .arg(silentMs / 1000);
  studioLog()->warn("tracking database {}: no poll finished for {} ms", tracking::shownLocation(m_dbPath.toStdString()),
                    silentMs);
  Q_EMIT databaseStateChanged(DbState::Stalled, detail);
}

quint64 WorkspaceSession::watchRun(int64_t runId, const QStringList &keys) {
  return watchRuns(runId == 0 ? std::vector<int64_t>{} : std::vector<int64_t>{runId}, keys);
}

quint64 WorkspaceSession::watchRuns(const std::vector<int64_t> &runIds, const QStringList &keys) {
  const quint64 token = m_nextWatchToken++;
  if (!m_poller) return token;
  std::vector<std::string> keyList;
  for (const auto &key : keys) keyList.push_back(key.toStdString());
  DbPoller *poller = m_poller;
  QMetaObject::invokeMethod(
      poller, [poller, token, runIds, keyList] { poller->watchRuns(token, runIds, keyList); },
      Qt::QueuedConnection);
  return token;
}

QString WorkspaceSession::shownDatabase() const {
  return QString::fromStdString(tracking::shownLocation(m_dbPath.toStdString()));
}

}  // namespace tw::ui
