#pragma once
// The words Studio shows for the states the store keeps as names: a trial's
// WAITING/RUNNING/COMPLETE/PRUNED/FAILED (core/search's names) and a model version's stage
// (tracking/model_record.h's modelStages()). The stored names stay as they are (the CLI, the
// database and the status colours use them); only what a person reads is translated, here.
// A run's status reads through ui/runs/run_status.h's runStatusText. An export's check, which the
// worker records as an English sentence in the artifact's details, reads in the user's language
// and number format through exportCheckText.
//
//   item->setText(trialStateText(QString::fromStdString(trial.state)));   // "Pruned", "Abgebrochen"
//   item->setIcon(statusIcon(QString::fromStdString(trial.state)));       // colours by the name

#include <QString>

namespace tw::ui {

// A name it does not know comes back unchanged.
QString trialStateText(const QString &state);
QString modelStageText(const QString &stage);
// The "check" of an export's details JSON (artifacts.details, a model version's exportDetails):
// the worker's sentence (app/worker/export_run.cpp) translated with its numbers through
// formatNumber; a sentence of another shape comes back as it is, empty when there is no check.
QString exportCheckText(const QString &detailsJson);

}  // namespace tw::ui
