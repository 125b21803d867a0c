#include "ui/common/status_colors.h"

#include <QHash>
#include <QPainter>
#include <QPixmap>

namespace tw::ui {

QColor statusColor(const QString &state) {
  if (state == QLatin1String("RUNNING")) return QColor(0x1e, 0x88, 0xe5);
  if (state == QLatin1String("FINISHED") || state == QLatin1String("COMPLETE")) return QColor(0x43, 0xa0, 0x47);
  if (state == QLatin1String("FAILED")) return QColor(0xe5, 0x39, 0x35);
  if (state == QLatin1String("KILLED")) return QColor(0xfb, 0x8c, 0x00);
  // Pruned is a decision, not an accident: its own colour, apart from stopped and failed.
  if (state == QLatin1String("PRUNED")) return QColor(0x8e, 0x24, 0xaa);
  return QColor(0x9e, 0x9e, 0x9e);  // CREATED, WAITING and anything newer than this list
}

QIcon statusIcon(const QString &state) {
  static QHash<QString, QIcon> cache;
  if (auto found = cache.constFind(state); found != cache.constEnd()) return *found;
  QIcon icon;
  for (int size : {12, 16, 24}) {
    QPixmap pixmap(size, size);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(statusColor(state));
    const qreal margin = size / 4.0;
    painter.drawEllipse(QRectF(margin, margin, size - 2 * margin, size - 2 * margin));
    painter.end();
    icon.addPixmap(pixmap);
  }
  cache.insert(state, icon);
  return icon;
}

}  // namespace tw::ui
