#include "ui/sweeps/study_phase.h"

#include "app/common/study_records.h"
#include "tracking/study_liveness.h"
#include "ui/common/number_format.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace tw::ui {

bool driverSilent(const StudySummary &summary, const StudyClock &clock) {
  return tracking::driverSilent(summary.study, clock.nowMs, clock.driverSilenceMs);
}

bool timeSpent(const StudySummary &summary) {
  return app::timeBudgetSpent(summary.budgetMinutes, summary.study.driverMs);
}

bool resumable(StudyPhase phase) { return phase == StudyPhase::Stopped || phase == StudyPhase::Interrupted; }

StudyPhase studyPhase(const StudySummary &summary, const StudyClock &clock) {
  if (summary.study.status == "RUNNING") return driverSilent(summary, clock) ? StudyPhase::Interrupted : StudyPhase::Running;
  if (!summary.resumable) return StudyPhase::Idle;
  if (summary.running > 0) return StudyPhase::Stopped;
  if (timeSpent(summary)) return StudyPhase::Finished;  // the driver retries nothing once time is up
  if (summary.budgetTrials > 0 && summary.budgetUsed >= summary.budgetTrials && !summary.retryLeft)
    return StudyPhase::Finished;
  return StudyPhase::Stopped;
}

QString studyPhaseText(StudyPhase phase) {
  switch (phase) {
    case StudyPhase::Running: return QCoreApplication::translate("tw::ui::StudyPhase", "running");
    case StudyPhase::Interrupted: return QCoreApplication::translate("tw::ui::StudyPhase", "interrupted");
    case StudyPhase::Finished: return QCoreApplication::translate("tw::ui::StudyPhase", "finished");
    case StudyPhase::Stopped: return QCoreApplication::translate("tw::ui::StudyPhase", "stopped");
    case StudyPhase::Idle: break;
  }
  return QCoreApplication::translate("tw::ui::StudyPhase", "idle");
}

QString studyPhaseReason(const StudySummary &summary, const StudyClock &clock) {
  if (driverSilent(summary, clock))
    return QCoreApplication::translate("tw::ui::StudyPhase",
                                       "Its sweep stopped answering (no heartbeat for %1 s): it was killed or its "
                                       "machine stopped. Resume continues the study.")
        .arg(formatNumber(std::floor((clock.nowMs - tracking::driverLastSignMs(summary.study)) / 1000.0)));
  switch (studyPhase(summary, clock)) {
    case StudyPhase::Running:
      if (summary.study.stopRequested)
        return QCoreApplication::translate("tw::ui::StudyPhase",
                                           "Stopping: the running trials end and no new one starts.");
      return QCoreApplication::translate("tw::ui::StudyPhase", "A sweep in the background runs the study's trials.");
    case StudyPhase::Finished:
      if (timeSpent(summary))
        return QCoreApplication::translate("tw::ui::StudyPhase",
                                           "Finished: its time budget of %1 minutes is spent; `sweep --resume "
                                           "--set budget.minutes=N` gives it more.")
            .arg(formatNumber(summary.budgetMinutes));
      return QCoreApplication::translate("tw::ui::StudyPhase",
                                         "Finished: its budget of %1 trials is spent; there is nothing left to resume.")
          .arg(formatNumber(summary.budgetTrials));
    case StudyPhase::Stopped:
      if (summary.budgetTrials > 0)
        return QCoreApplication::translate("tw::ui::StudyPhase", "Stopped after %1 of %2 trials; Resume runs the rest.")
            .arg(formatNumber(summary.budgetUsed), formatNumber(summary.budgetTrials));
      return QCoreApplication::translate("tw::ui::StudyPhase",
                                         "Stopped before its budget was spent; Resume runs the rest of it.");
    case StudyPhase::Interrupted:  // said above, with the silence
    case StudyPhase::Idle: break;
  }
  return QCoreApplication::translate("tw::ui::StudyPhase",
                                     "No sweep drives this study; its trials come from `torchwright study ask` and "
                                     "`tell`.");
}

}  // namespace tw::ui
