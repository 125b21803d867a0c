#pragma once
// The words Studio shows for the states the store keeps as names: a trial's
// WAITING/RUNNING/COMPLETE/PRUNED/FAILED (core/search's names) and a model version's stage
// (tracking/model_record.h's modelStages()). The stored names stay as they are (the CLI, the
// database and the status colours use them); only what a person reads is translated, here.
// A run's status reads through ui/runs/run_status.h's runStatusText.
//
//   item->setText(trialStateText(QString::fromStdString(trial.state)));   // "Pruned", "Abgebrochen"
//   item->setIcon(statusIcon(QString::fromStdString(trial.state)));       // colours by the name

#include <QString>

namespace tw::ui {

// A name it does not know comes back unchanged.
QString trialStateText(const QString &state);
QString modelStageText(const QString &stage);

}  // namespace tw::ui
