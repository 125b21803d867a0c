#pragma once
// The one colour of each state a run or a trial can be in, for every table and chart in Studio
// (runs table, run details, trials table, study charts, the status bar's "Live"). States are
// the store's names: a run's CREATED/RUNNING/FINISHED/FAILED/KILLED and a trial's
// WAITING/RUNNING/COMPLETE/PRUNED/FAILED. FINISHED and COMPLETE are the same success.
//
//   item->setIcon(statusIcon("PRUNED"));
//   pen.setColor(statusColor("FAILED"));

#include <QColor>
#include <QIcon>
#include <QString>

namespace tw::ui {

// Mid-tone colours that read on light and dark backgrounds; grey for a state it does not know.
QColor statusColor(const QString &state);
// A small filled dot in the state's colour (cached per state).
QIcon statusIcon(const QString &state);

}  // namespace tw::ui
