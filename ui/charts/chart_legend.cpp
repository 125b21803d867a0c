#include "ui/charts/chart_legend.h"

#include <QFontMetrics>
#include <QResizeEvent>
#include <QSizePolicy>

namespace tw::ui {

namespace {

QString elided(const QString &name) {
  if (name.size() <= ChartLegend::kMaxNameChars) return name;
  // More of the end than of the start: overlaid names differ at the end ("· Validation", a trial).
  const int keep = (ChartLegend::kMaxNameChars - 1) / 3;
  return name.left(keep) + QChar(0x2026) + name.right(ChartLegend::kMaxNameChars - 1 - keep);
}

// A solid bar for a solid line, a dashed one for a dashed line (validation beside training).
QString swatchOf(Qt::PenStyle style) {
  return style == Qt::SolidLine ? QStringLiteral("\u2501\u2501") : QStringLiteral("\u254D\u254D");
}

}  // namespace

ChartLegend::ChartLegend(QWidget *parent) : QLabel(parent) {
  setObjectName(QStringLiteral("chartLegend"));
  setTextFormat(Qt::RichText);
  setAlignment(Qt::AlignHCenter | Qt::AlignTop);
  setContentsMargins(4, 0, 4, 2);
  // As narrow as the chart: the entries take more lines rather than widening it.
  setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Minimum);
}

void ChartLegend::setEntries(const std::vector<Entry> &entries) {
  m_entries = entries;
  QStringList names;
  for (const Entry &e : entries) names << e.name;
  setToolTip(names.join(QLatin1Char('\n')));
  m_laidOutWidth = -1;
  relayout();
}

void ChartLegend::resizeEvent(QResizeEvent *event) {
  QLabel::resizeEvent(event);
  if (event->size().width() != m_laidOutWidth) relayout();
}

void ChartLegend::relayout() {
  const QFontMetrics metrics(font());
  const int width = std::max(1, contentsRect().width());
  m_laidOutWidth = size().width();
  const int gap = metrics.horizontalAdvance(QStringLiteral("   "));
  QStringList lines;
  QString line;
  int used = 0;
  for (const Entry &e : m_entries) {
    const QString swatch = swatchOf(e.style), name = elided(e.name);
    const int entryWidth = metrics.horizontalAdvance(swatch + QLatin1Char(' ') + name);
    QString html = QStringLiteral("<span style=\"color:%1\"><b>%2</b></span>&nbsp;%3")
                       .arg(e.color.name(), swatch, name.toHtmlEscaped().replace(QLatin1Char(' '), QStringLiteral("&nbsp;")));
    if (!line.isEmpty() && used + gap + entryWidth > width) {
      lines << line;
      line.clear();
      used = 0;
    }
    if (!line.isEmpty()) {
      line += QStringLiteral("&nbsp;&nbsp;&nbsp;");
      used += gap;
    }
    line += html;
    used += entryWidth;
  }
  if (!line.isEmpty()) lines << line;
  m_lines = static_cast<int>(lines.size());
  setText(lines.join(QStringLiteral("<br>")));
}

QStringList ChartLegend::shownNames() const {
  QStringList names;
  for (const Entry &e : m_entries) names << elided(e.name);
  return names;
}

}  // namespace tw::ui
