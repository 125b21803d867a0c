#include "ui/sweeps/study_poller.h"

#include "app/common/study_records.h"
#include "tracking/store_location.h"
#include "tracking/store.h"
#include "tracking/study_liveness.h"
#include "ui/studio_log.h"

#include <QTimer>

#include <climits>

namespace tw::ui {

namespace {

// Two commits within one millisecond carry the same stamp: a study touched this recently is
// read again even when its stamp looks unchanged.
constexpr int64_t kRecentOverlapMs = 1000;

bool isFinal(const std::string &state) { return state == "COMPLETE" || state == "PRUNED" || state == "FAILED"; }

StudySummary summarise(const tracking::StudyRecord &study, const std::vector<tracking::TrialRecord> &trials) {
  StudySummary summary;
  summary.study = study;
  summary.trials = static_cast<int>(trials.size());
  for (const auto &trial : trials) {
    summary.complete += trial.state == "COMPLETE";
    summary.pruned += trial.state == "PRUNED";
    summary.failed += trial.state == "FAILED";
    summary.running += trial.state == "RUNNING";
  }
  search::Direction direction = search::Direction::Maximize;
  search::parseDirection(study.directions.substr(0, study.directions.find(',')), &direction);
  const auto [best, number] = bestValue(trials, direction);
  summary.best = best;
  summary.bestNumber = number;
  try {
    const sweep::SweepFile sweep = app::recordedSweep(study, /*requireBase=*/false);
    summary.resumable = !sweep.baseYaml.empty();  // what `sweep --resume` requires
    summary.budgetTrials = sweep.budget.trials;
    summary.budgetMinutes = sweep.budget.minutes;
    summary.budgetUsed = app::budgetTrialsUsed(trials);
    summary.retryLeft = app::retryCandidate(trials, sweep.retries, {}) >= 0;
  } catch (const std::exception &) {
    // A sweep that no longer parses (edited by hand, a key renamed): Resume would say why.
    summary.resumable = true;
  }
  return summary;
}

}  // namespace

void registerStudyMetaTypes() {
  qRegisterMetaType<StudiesUpdate>();
  qRegisterMetaType<StudyTrialsUpdate>();
  qRegisterMetaType<StudyAnalysisRequest>();
}

StudyPoller::StudyPoller(std::string dbPath, int intervalMs) : m_dbPath(std::move(dbPath)) {
  registerStudyMetaTypes();
  m_timer = new QTimer(this);  // a child moves to the poller's thread with it
  m_timer->setInterval(std::max(10, intervalMs));
  connect(m_timer, &QTimer::timeout, this, &StudyPoller::pollNow);
}

StudyPoller::~StudyPoller() = default;

void StudyPoller::start() {
  m_timer->start();
  pollNow();
}

void StudyPoller::watchStudy(quint64 token, int64_t studyId, const StudyAnalysisRequest &request) {
  m_token = token;
  m_studyId = studyId;
  m_request = request;
  m_watchedUpdatedMs = -1;  // everything again, under the new token
  m_trials.clear();
  m_curveStep.clear();
  m_curveDone.clear();
  QTimer::singleShot(0, this, &StudyPoller::pollNow);
}

void StudyPoller::pollNow() {
  if (!ensureOpen()) return;
  try {
    const int64_t now = tracking::nowMs();
    pollStudies(now);
    pollWatched(now);
    Q_EMIT polled();
  } catch (const std::exception &error) {
    m_store.reset();  // reopened on the next tick
    studioLog()->warn("reading studies from {}: {}", tracking::shownLocation(m_dbPath), error.what());
    Q_EMIT failed(QString::fromStdString(error.what()));
  }
}

bool StudyPoller::ensureOpen() {
  if (m_store) {
    const std::string reason = m_store->replacedFiles();
    if (reason.empty()) return true;
    // Read everything again from the live files (DbPoller does the same for runs).
    studioLog()->warn("reading studies from {}: {}; reopening it", tracking::shownLocation(m_dbPath), reason);
    m_store.reset();
    m_studyUpdatedMs.clear();
  }
  // Not while another connection of this process holds the orphaned files (Store's comment).
  if (tracking::Store::connectionsOnReplacedFiles(m_dbPath) > 0) return false;
  try {
    m_store = tracking::Store::open(m_dbPath);
    return true;
  } catch (const std::exception &error) {
    Q_EMIT failed(QString::fromStdString(error.what()));
    return false;
  }
}

void StudyPoller::pollStudies(int64_t pollStartMs) {
  bool changed = !m_studiesSent;
  const std::vector<tracking::StudyRecord> studies = m_store->listStudies();
  // A study whose sweep died with its trials: its trials read FAILED, as `study list` makes them.
  tracking::settleInterruptedStudies(*m_store, studies);
  std::set<int64_t> present;
  for (const auto &study : studies) {
    present.insert(study.id);
    auto seen = m_studyUpdatedMs.find(study.id);
    const bool recent = study.updatedMs >= pollStartMs - kRecentOverlapMs;
    if (seen != m_studyUpdatedMs.end() && seen->second == study.updatedMs && !recent) continue;
    m_studyUpdatedMs[study.id] = study.updatedMs;
    m_summaries[study.id] = summarise(study, m_store->trials(study.id));
    changed = true;
  }
  for (auto it = m_summaries.begin(); it != m_summaries.end();) {
    if (present.count(it->first)) {
      ++it;
    } else {
      m_studyUpdatedMs.erase(it->first);
      it = m_summaries.erase(it);
      changed = true;
    }
  }
  if (!changed) return;
  m_studiesSent = true;
  StudiesUpdate update;
  for (const auto &study : studies) update.studies.push_back(m_summaries[study.id]);
  Q_EMIT studiesUpdated(update);
}

void StudyPoller::pollWatched(int64_t pollStartMs) {
  if (m_studyId == 0) return;
  const std::optional<tracking::StudyRecord> study = m_store->study(m_studyId);
  if (!study) return;
  StudyTrialsUpdate update;
  update.token = m_token;
  update.studyId = m_studyId;
  const bool recent = study->updatedMs >= pollStartMs - kRecentOverlapMs;
  if (study->updatedMs != m_watchedUpdatedMs || recent) {
    std::vector<tracking::TrialRecord> trials = m_store->trials(m_studyId);
    const bool differs = m_watchedUpdatedMs < 0 || trials.size() != m_trials.size() ||
                         !std::equal(trials.begin(), trials.end(), m_trials.begin(), [](const auto &a, const auto &b) {
                           return a.updatedMs == b.updatedMs && a.state == b.state;
                         });
    m_watchedUpdatedMs = study->updatedMs;
    if (differs) {
      m_trials = std::move(trials);
      update.trialsChanged = true;
      update.trials = m_trials;
      update.analysis = std::make_shared<const StudyAnalysis>(analyseStudy(*study, m_trials, m_request));
    }
  }
  // Learning curves: the objective metric of each trial's run, read on until the trial ended
  // and one read after that has caught its last points.
  const std::string metric = study->metrics.substr(0, study->metrics.find(','));
  for (const auto &trial : m_trials) {
    if (trial.runId == 0 || m_curveDone.count(trial.number) || metric.empty()) continue;
    auto [cursor, inserted] = m_curveStep.try_emplace(trial.number, INT64_MIN);
    auto points = m_store->metricPoints(trial.runId, metric, cursor->second);
    if (isFinal(trial.state)) m_curveDone.insert(trial.number);
    if (points.empty()) continue;
    cursor->second = points.back().step;
    update.curves.push_back({trial.number, std::move(points)});
  }
  if (update.trialsChanged || !update.curves.empty()) Q_EMIT trialsUpdated(update);
}

}  // namespace tw::ui
