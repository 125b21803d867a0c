#pragma once
// Where a study stands, as the Sweeps page says it: running (a driver holds it and beats),
// finished (its
// trial budget is spent and no failed trial is left to retry, so Resume has nothing to run),
// stopped (idle with budget left: Resume continues it) or idle (no budget to judge by, such as a
// study driven by `study ask|tell`). The budget rule is the sweep driver's own
// (app/common/study_records.h), read on the study poller's thread into StudySummary. A study left
// RUNNING by a driver that stopped beating (killed, its machine down) is interrupted, by the
// tracking store's rule (tracking/study_liveness.h) that `study list` reads too: Resume takes it on.
//
//   const StudyClock clock{tracking::nowMs()};
//   status->setText(studyPhaseText(studyPhase(summary, clock)));
//   resume->setEnabled(resumable(studyPhase(summary, clock)));

#include "tracking/store.h"
#include "ui/sweeps/study_poller.h"

#include <QString>

namespace tw::ui {

enum class StudyPhase { Running, Interrupted, Finished, Stopped, Idle };
// Stopped or interrupted: Resume has trials to run.
bool resumable(StudyPhase phase);

// When a phase is judged, and how long a driver may go without a heartbeat.
struct StudyClock {
  int64_t nowMs = 0;
  int64_t driverSilenceMs = tracking::Store::kDefaultMaxSilenceMs;
};

// The study is RUNNING in the database, but its driver has not beaten for driverSilenceMs.
bool driverSilent(const StudySummary &summary, const StudyClock &clock);
StudyPhase studyPhase(const StudySummary &summary, const StudyClock &clock);
// "running", "interrupted", "finished", "stopped", "idle", translated.
QString studyPhaseText(StudyPhase phase);
// A sentence saying why the study is where it is and what Resume would do.
QString studyPhaseReason(const StudySummary &summary, const StudyClock &clock);

}  // namespace tw::ui
