#pragma once
// How a run's status and times read in Studio: translated status names, status colours and
// durations, shared by the runs table and the run detail panel.

#include "tracking/run_record.h"

#include <QColor>
#include <QIcon>
#include <QString>

namespace tw::ui {

QString runStatusText(tracking::RunStatus status);
// Studio's one status palette (ui/common/status_colors.h) for a run's status.
QColor runStatusColor(tracking::RunStatus status);
// A small filled dot in the status colour.
QIcon runStatusIcon(tracking::RunStatus status);

// Wall time of the run so far (until now while it runs); 0 before it started.
int64_t runDurationMs(const tracking::RunRecord &run, int64_t nowMs);
// "2 h 05 min", "3 min 07 s", "12 s", "0 ms"; empty for a negative value.
QString formatDuration(int64_t ms);
// Local date and time in the user's locale; empty for 0.
QString formatTimestamp(int64_t ms);

}  // namespace tw::ui
