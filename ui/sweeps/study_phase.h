#pragma once
// Where a study stands, as the Sweeps page says it: running (a driver holds it), finished (its
// trial budget is spent and no failed trial is left to retry, so Resume has nothing to run),
// stopped (idle with budget left: Resume continues it) or idle (no budget to judge by, such as a
// study driven by `study ask|tell`). The budget rule is the sweep driver's own
// (app/common/study_records.h), read on the study poller's thread into StudySummary.
//
//   status->setText(studyPhaseText(studyPhase(summary)));
//   resume->setEnabled(studyPhase(summary) == StudyPhase::Stopped);

#include "ui/sweeps/study_poller.h"

#include <QString>

namespace tw::ui {

enum class StudyPhase { Running, Finished, Stopped, Idle };

StudyPhase studyPhase(const StudySummary &summary);
// "running", "finished", "stopped", "idle", translated.
QString studyPhaseText(StudyPhase phase);
// A sentence saying why the study is where it is and what Resume would do.
QString studyPhaseReason(const StudySummary &summary);

}  // namespace tw::ui
