#pragma once
// Whether a study is driven now. A study reads RUNNING in the database while a sweep driver holds
// it; a driver killed together with its trials (a machine crash) never writes IDLE, so a RUNNING
// study whose driver has not beaten for the store's silence rule (Store::kDefaultMaxSilenceMs, as
// for runs) was interrupted: nothing drives it and a resume (`sweep --resume`, Studio's Resume)
// continues it. The CLI's `study list/show` and Studio's Sweeps page both judge by this rule.

#include "tracking/store.h"
#include "tracking/study_record.h"

#include <string>
#include <vector>

namespace tw::tracking {

inline constexpr const char *kStudyInterrupted = "INTERRUPTED";

// When its driver last gave a sign of life: its heartbeat; a study claimed before drivers beat is
// judged by its latest write. Failing silent trials bumps updated_ms, so the heartbeat alone
// counts once there is one.
int64_t driverLastSignMs(const StudyRecord &study);
// RUNNING in the database, but its driver silent for longer than maxSilenceMs.
bool driverSilent(const StudyRecord &study, int64_t nowMs, int64_t maxSilenceMs = Store::kDefaultMaxSilenceMs);
// "RUNNING", "INTERRUPTED" or the stored status ("IDLE").
std::string studyStatusNow(const StudyRecord &study, int64_t nowMs,
                           int64_t maxSilenceMs = Store::kDefaultMaxSilenceMs);
// For every interrupted study, fails its trials left RUNNING (silent as their driver) so that they
// read FAILED, not RUNNING, and a resume retries them; returns how many it failed.
// `studies`: as the caller listed them (settling changes no study's status).
int settleInterruptedStudies(Store &store, const std::vector<StudyRecord> &studies,
                             int64_t maxSilenceMs = Store::kDefaultMaxSilenceMs);

}  // namespace tw::tracking
