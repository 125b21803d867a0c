#include "ui/runs/run_status.h"

#include "ui/common/number_format.h"

#include "ui/common/status_colors.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QLocale>

namespace tw::ui {

using tracking::RunStatus;

QString runStatusText(RunStatus status) {
  switch (status) {
    case RunStatus::Created: return QCoreApplication::translate("tw::ui::RunStatus", "Created");
    case RunStatus::Running: return QCoreApplication::translate("tw::ui::RunStatus", "Running");
    case RunStatus::Finished: return QCoreApplication::translate("tw::ui::RunStatus", "Finished");
    case RunStatus::Failed: return QCoreApplication::translate("tw::ui::RunStatus", "Failed");
    case RunStatus::Killed: return QCoreApplication::translate("tw::ui::RunStatus", "Stopped");
  }
  return QString::fromStdString(tracking::runStatusName(status));
}

// The state's name as the store writes it is the key of Studio's one status palette.
QColor runStatusColor(RunStatus status) { return statusColor(QString::fromStdString(tracking::runStatusName(status))); }

QIcon runStatusIcon(RunStatus status) { return statusIcon(QString::fromStdString(tracking::runStatusName(status))); }

int64_t runDurationMs(const tracking::RunRecord &run, int64_t nowMs) {
  if (run.startMs == 0) return 0;
  const int64_t end = run.endMs ? run.endMs : (run.status == RunStatus::Running ? nowMs : run.updatedMs);
  return end > run.startMs ? end - run.startMs : 0;
}

QString formatDuration(int64_t ms) {
  if (ms < 0) return {};
  const int64_t seconds = ms / 1000;
  const int64_t hours = seconds / 3600, minutes = (seconds / 60) % 60, secs = seconds % 60;
  if (hours > 0)
    return QCoreApplication::translate("tw::ui::RunStatus", "%1 h %2 min")
        .arg(hours)
        .arg(minutes, 2, 10, QLatin1Char('0'));
  if (minutes > 0)
    return QCoreApplication::translate("tw::ui::RunStatus", "%1 min %2 s")
        .arg(minutes)
        .arg(secs, 2, 10, QLatin1Char('0'));
  // Under a minute, three digits: "0.3 s", "12.4 s" (short runs and trials differ there).
  return QCoreApplication::translate("tw::ui::RunStatus", "%1 s").arg(formatNumber(static_cast<double>(ms) / 1000.0, 3));
}

QString formatTimestamp(int64_t ms) {
  if (ms <= 0) return {};
  return QLocale().toString(QDateTime::fromMSecsSinceEpoch(ms), QLocale::ShortFormat);
}

}  // namespace tw::ui
