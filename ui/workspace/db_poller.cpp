#include "ui/workspace/db_poller.h"

#include "tracking/store_location.h"
#include "tracking/store.h"
#include "ui/studio_log.h"

#include <QTimer>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <iterator>
#include <utility>

namespace tw::ui {

DbPoller::DbPoller(std::string dbPath, DbPollerOptions options)
    : m_dbPath(std::move(dbPath)), m_options(options) {
  registerPollMetaTypes();
  // A child moves to the poller's thread together with it.
  m_timer = new QTimer(this);
  m_timer->setInterval(std::max(10, m_options.intervalMs));
  connect(m_timer, &QTimer::timeout, this, &DbPoller::pollNow);
}

DbPoller::~DbPoller() = default;

void DbPoller::start() {
  m_timer->start();
  pollNow();
}

void DbPoller::watchRun(quint64 token, int64_t runId, const std::vector<std::string> &keys) {
  watchRuns(token, runId == 0 ? std::vector<int64_t>{} : std::vector<int64_t>{runId}, keys);
}

void DbPoller::watchRuns(quint64 token, const std::vector<int64_t> &runIds, const std::vector<std::string> &keys) {
  m_watchToken = token;
  m_watched.clear();
  for (int64_t runId : runIds) {
    if (runId == 0) continue;
    std::map<std::string, int64_t> lastStep;
    for (const auto &key : keys) lastStep[key] = INT64_MIN;
    m_watched.emplace_back(runId, std::move(lastStep));
  }
  // The first points of a newly selected run should not wait for the next tick.
  if (!m_followUpQueued) {
    m_followUpQueued = true;
    QTimer::singleShot(0, this, &DbPoller::pollNow);
  }
}

void DbPoller::pollNow() {
  m_followUpQueued = false;
  if (!ensureOpen()) return;
  try {
    if (!reopenIfReplaced()) return;
    if (m_unsentParts.empty())
      pollRuns();
    else if (tracking::nowMs() - m_partSentMs > kUnaskedPartMs)
      sendMoreRuns();  // a receiver that does not ask still gets every part, a tick apart
    const bool more = pollMetrics();
    setState(DbState::Ok, {});
    Q_EMIT polled();
    if (more && !m_followUpQueued) {
      m_followUpQueued = true;
      QTimer::singleShot(0, this, &DbPoller::pollNow);
    }
  } catch (const std::exception &error) {
    fail(error);
  }
}

bool DbPoller::ensureOpen() {
  if (m_store) return true;
  // After a replacement, the other connections of this process (the Sweeps page's, a reader on
  // the pool) must let go of the orphaned files first, or SQLite hands them to this one again.
  if (!m_replacedReason.isEmpty() && tracking::Store::connectionsOnReplacedFiles(m_dbPath) > 0) return false;
  try {
    m_store = tracking::Store::open(m_dbPath);
    studioLog()->info("watching tracking database {}", tracking::shownLocation(m_dbPath));
    if (!m_replacedReason.isEmpty()) Q_EMIT reopened(std::exchange(m_replacedReason, QString()));
    return true;
  } catch (const std::exception &error) {
    fail(error);
    return false;
  }
}

bool DbPoller::reopenIfReplaced() {
  const std::string reason = m_store->replacedFiles();
  if (reason.empty()) return true;
  studioLog()->warn("tracking database {}: {}; reopening it", tracking::shownLocation(m_dbPath), reason);
  m_store.reset();
  m_replacedReason = QString::fromStdString(reason);
  // Whatever the orphaned files hid is read again; the runs table merges by id. Metric cursors
  // stay: points already delivered are the same points in the live file.
  m_seenUpdatedMs.clear();
  m_newestUpdatedMs = -1;
  m_unsentParts.clear();  // read again whole
  setState(DbState::Connecting, m_replacedReason);
  return ensureOpen();
}

void DbPoller::pollRuns() {
  const int64_t pollStartMs = tracking::nowMs();
  // A run whose launcher died (killed, machine crashed) stops beating: it is marked FAILED here
  // instead of reading RUNNING forever; the change then arrives like any other below. Not every
  // poll: it takes the write lock.
  if (pollStartMs - m_lastSilenceCheckMs > kSilenceCheckMs) {
    m_lastSilenceCheckMs = pollStartMs;
    m_store->failSilentRuns();
  }
  // Ask from a little before the newest stamp seen; the seen-map filters what did not change.
  const int64_t since = m_newestUpdatedMs < 0 ? -1 : m_newestUpdatedMs - m_options.recentOverlapMs;
  RunsUpdate update;
  std::vector<int64_t> ids;
  for (auto &run : m_store->runsChangedSince(since)) {
    auto seen = m_seenUpdatedMs.find(run.id);
    const bool recent = run.updatedMs >= pollStartMs - m_options.recentOverlapMs;
    if (seen != m_seenUpdatedMs.end() && seen->second == run.updatedMs && !recent) continue;
    m_seenUpdatedMs[run.id] = run.updatedMs;
    m_newestUpdatedMs = std::max(m_newestUpdatedMs, run.updatedMs);
    ids.push_back(run.id);
    RunSnapshot snapshot;
    snapshot.run = std::move(run);
    update.runs.push_back(std::move(snapshot));
  }
  if (update.runs.empty()) return;
  // One pass over each table when a whole workspace arrives, instead of three queries per run.
  auto details = m_store->runDetails(ids);
  for (auto &snapshot : update.runs) {
    tracking::RunDetails &d = details[snapshot.run.id];
    snapshot.latest = std::move(d.latest);
    snapshot.params = std::move(d.params);
    snapshot.tags = std::move(d.tags);
  }
  if (update.runs.size() <= kRunsPerUpdate) {
    Q_EMIT runsUpdated(update);
    return;
  }
  for (size_t first = 0; first < update.runs.size(); first += kRunsPerUpdate) {
    RunsUpdate part;
    const size_t last = std::min(update.runs.size(), first + kRunsPerUpdate);
    part.runs.assign(std::make_move_iterator(update.runs.begin() + static_cast<std::ptrdiff_t>(first)),
                     std::make_move_iterator(update.runs.begin() + static_cast<std::ptrdiff_t>(last)));
    part.more = last < update.runs.size();
    m_unsentParts.push_back(std::move(part));
  }
  sendMoreRuns();
}

void DbPoller::sendMoreRuns() {
  if (m_unsentParts.empty()) return;
  const RunsUpdate part = std::move(m_unsentParts.front());
  m_unsentParts.pop_front();
  m_partSentMs = tracking::nowMs();
  Q_EMIT runsUpdated(part);
}

bool DbPoller::pollMetrics() {
  bool more = false;
  for (auto &[runId, lastSteps] : m_watched) {
    MetricsUpdate update;
    update.watchToken = m_watchToken;
    update.runId = runId;
    for (auto &[key, lastStep] : lastSteps) {
      auto points = m_store->metricPoints(runId, key, lastStep, m_options.maxPointsPerSeries);
      if (points.empty()) continue;
      lastStep = points.back().step;
      more = more || static_cast<int>(points.size()) >= m_options.maxPointsPerSeries;
      update.series.push_back({key, std::move(points)});
    }
    if (!update.series.empty()) Q_EMIT metricsAppended(update);
  }
  return more;
}

void DbPoller::fail(const std::exception &error) {
  // Reopen on the next tick: the file may have been replaced or its folder created meanwhile.
  // The cursors stay, so a transient lock does not resend everything.
  m_store.reset();
  const QString detail = QString::fromStdString(error.what());
  if (m_state != DbState::Unavailable || detail != m_detail)
    studioLog()->warn("tracking database {} unavailable: {}", tracking::shownLocation(m_dbPath), error.what());
  setState(DbState::Unavailable, detail);
}

void DbPoller::setState(DbState state, const QString &detail) {
  if (state == m_state && detail == m_detail) return;
  m_state = state;
  m_detail = detail;
  Q_EMIT stateChanged(state, detail);
}

}  // namespace tw::ui
