#include "ui/runs/run_status.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QLocale>
#include <QPainter>
#include <QPixmap>

#include <map>

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

QColor runStatusColor(RunStatus status) {
  switch (status) {
    case RunStatus::Created: return QColor(0x9e, 0x9e, 0x9e);
    case RunStatus::Running: return QColor(0x1e, 0x88, 0xe5);
    case RunStatus::Finished: return QColor(0x43, 0xa0, 0x47);
    case RunStatus::Failed: return QColor(0xe5, 0x39, 0x35);
    case RunStatus::Killed: return QColor(0xfb, 0x8c, 0x00);
  }
  return QColor(Qt::gray);
}

QIcon runStatusIcon(RunStatus status) {
  static std::map<RunStatus, QIcon> cache;
  auto found = cache.find(status);
  if (found != cache.end()) return found->second;
  QIcon icon;
  for (int size : {12, 16, 24}) {
    QPixmap pixmap(size, size);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(runStatusColor(status));
    const qreal margin = size / 4.0;
    painter.drawEllipse(QRectF(margin, margin, size - 2 * margin, size - 2 * margin));
    painter.end();
    icon.addPixmap(pixmap);
  }
  cache.emplace(status, icon);
  return icon;
}

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
  // Under a minute, tenths of a second: "0.3 s", "12.4 s" (short runs and trials differ there).
  return QCoreApplication::translate("tw::ui::RunStatus", "%1 s").arg(QLocale().toString(static_cast<double>(ms) / 1000.0, 'f', 1));
}

QString formatTimestamp(int64_t ms) {
  if (ms <= 0) return {};
  return QLocale().toString(QDateTime::fromMSecsSinceEpoch(ms), QLocale::ShortFormat);
}

}  // namespace tw::ui
