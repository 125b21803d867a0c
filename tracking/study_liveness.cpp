#include "tracking/study_liveness.h"

namespace tw::tracking {

int64_t driverLastSignMs(const StudyRecord &study) {
  return study.driverHeartbeatMs > 0 ? study.driverHeartbeatMs : study.updatedMs;
}

bool driverSilent(const StudyRecord &study, int64_t nowMs, int64_t maxSilenceMs) {
  return study.status == "RUNNING" && nowMs - driverLastSignMs(study) > maxSilenceMs;
}

std::string studyStatusNow(const StudyRecord &study, int64_t nowMs, int64_t maxSilenceMs) {
  return driverSilent(study, nowMs, maxSilenceMs) ? kStudyInterrupted : study.status;
}

int settleInterruptedStudies(Store &store, const std::vector<StudyRecord> &studies, int64_t maxSilenceMs) {
  int failed = 0;
  for (const StudyRecord &study : studies)
    if (driverSilent(study, nowMs(), maxSilenceMs))
      failed += static_cast<int>(store.failSilentTrials(study.id, maxSilenceMs).size());
  return failed;
}

}  // namespace tw::tracking
