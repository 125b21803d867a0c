#pragma once
// Follows the workspace's studies on its own thread and connection, like DbPoller follows runs:
// the list of studies with each one's best value, and for the watched study its trials, the
// objective's learning curve of every trial run (new points only) and the analysis, computed
// here so that the UI thread only draws. Plain values cross to the UI in queued signals.
//
//   auto *poller = new StudyPoller(dbPath);
//   poller->moveToThread(&thread);
//   connect(&thread, &QThread::started, poller, &StudyPoller::start);

#include "tracking/run_record.h"
#include "tracking/study_record.h"
#include "ui/sweeps/study_analysis.h"

#include <QMetaType>
#include <QObject>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

class QTimer;

namespace tw::tracking {
class Store;
}

namespace tw::ui {

struct StudySummary {
  tracking::StudyRecord study;
  int trials = 0, complete = 0, pruned = 0, failed = 0, running = 0;
  double best = 0.0;      // of the first objective; valid when bestNumber >= 0
  int bestNumber = -1;
  // The recorded sweep's budget against the driver's own count (app/common/study_records.h);
  // resumable: the study has a sweep with a base run that `sweep --resume` can drive.
  bool resumable = false;
  int budgetTrials = 0;     // 0: no limit on the count
  double budgetMinutes = 0.0;  // 0: no limit on the time (the study's drivers' time: study.driverMs)
  int budgetUsed = 0;
  bool retryLeft = false;   // a failed trial the sweep's `retries` would run again
};

// Every study, newest first, whenever one changed.
struct StudiesUpdate {
  std::vector<StudySummary> studies;
};

struct TrialCurve {
  int number = 0;
  std::vector<tracking::MetricPoint> points;  // after those already sent for this trial
};

// The watched study: all its trials when they changed (else empty and trialsChanged false),
// new learning-curve points, and the analysis of the trials sent.
struct StudyTrialsUpdate {
  quint64 token = 0;
  int64_t studyId = 0;
  bool trialsChanged = false;
  std::vector<tracking::TrialRecord> trials;  // number order
  std::vector<TrialCurve> curves;
  std::shared_ptr<const StudyAnalysis> analysis;  // set with the trials
};

class StudyPoller : public QObject {
  Q_OBJECT

 public:
  explicit StudyPoller(std::string dbPath, int intervalMs = 500);
  ~StudyPoller() override;

  // On the poller's thread (queued calls): start polling; follow a study (0: none).
  void start();
  void watchStudy(quint64 token, int64_t studyId, const tw::ui::StudyAnalysisRequest &request);
  void pollNow();

 Q_SIGNALS:
  void studiesUpdated(const tw::ui::StudiesUpdate &update);
  void trialsUpdated(const tw::ui::StudyTrialsUpdate &update);
  void failed(const QString &detail);
  // After every poll that read the database, following the updates it sent.
  void polled();

 private:
  bool ensureOpen();
  void pollStudies(int64_t pollStartMs);
  void pollWatched(int64_t pollStartMs);

  std::string m_dbPath;
  std::unique_ptr<tracking::Store> m_store;
  QTimer *m_timer = nullptr;
  std::map<int64_t, int64_t> m_studyUpdatedMs;  // study id -> updatedMs last summarised
  std::map<int64_t, StudySummary> m_summaries;
  bool m_studiesSent = false;

  quint64 m_token = 0;
  int64_t m_studyId = 0;
  StudyAnalysisRequest m_request;
  int64_t m_watchedUpdatedMs = -1;
  bool m_analysisWanted = false;
  std::vector<tracking::TrialRecord> m_trials;
  std::map<int, int64_t> m_curveStep;  // trial number -> last step sent
  std::set<int> m_curveDone;           // final trials whose curve was read after they ended
};

void registerStudyMetaTypes();

}  // namespace tw::ui

Q_DECLARE_METATYPE(tw::ui::StudiesUpdate)
Q_DECLARE_METATYPE(tw::ui::StudyTrialsUpdate)
Q_DECLARE_METATYPE(tw::ui::StudyAnalysisRequest)
