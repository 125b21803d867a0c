#include "ui/common/state_labels.h"

#include <QCoreApplication>

namespace tw::ui {

QString trialStateText(const QString &state) {
  if (state == QLatin1String("WAITING")) return QCoreApplication::translate("tw::ui::TrialState", "Waiting");
  if (state == QLatin1String("RUNNING")) return QCoreApplication::translate("tw::ui::TrialState", "Running");
  if (state == QLatin1String("COMPLETE")) return QCoreApplication::translate("tw::ui::TrialState", "Complete");
  if (state == QLatin1String("PRUNED")) return QCoreApplication::translate("tw::ui::TrialState", "Pruned");
  if (state == QLatin1String("FAILED")) return QCoreApplication::translate("tw::ui::TrialState", "Failed");
  return state;
}

QString modelStageText(const QString &stage) {
  if (stage == QLatin1String("none")) return QCoreApplication::translate("tw::ui::ModelStage", "None");
  if (stage == QLatin1String("staging")) return QCoreApplication::translate("tw::ui::ModelStage", "Staging");
  if (stage == QLatin1String("production")) return QCoreApplication::translate("tw::ui::ModelStage", "Production");
  if (stage == QLatin1String("archived")) return QCoreApplication::translate("tw::ui::ModelStage", "Archived");
  return stage;
}

}  // namespace tw::ui
