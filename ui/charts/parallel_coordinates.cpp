#include "ui/charts/parallel_coordinates.h"

#include "ui/charts/chart_export.h"
#include "ui/charts/color_scale.h"
#include "ui/common/number_format.h"
#include "ui/charts/log_axis.h"

#include <QLinearGradient>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <limits>

namespace tw::ui {

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kAxisGrab = 10.0;   // px either side of an axis where a drag brushes
constexpr double kLineGrab = 6.0;    // px from a line where hovering picks it
constexpr double kLegendWidth = 76.0;

double distanceToSegment(const QPointF &p, const QPointF &a, const QPointF &b) {
  const QPointF ab = b - a;
  const double length2 = QPointF::dotProduct(ab, ab);
  const double t = length2 > 0 ? std::clamp(QPointF::dotProduct(p - a, ab) / length2, 0.0, 1.0) : 0.0;
  const QPointF d = p - (a + t * ab);
  return std::hypot(d.x(), d.y());
}

// Every number on the plot (tick labels, the hovered line's value) as Studio shows numbers.
QString number(double value) { return formatNumber(value); }

// A label centred on an axis, moved inwards where the outer axes would push it off the widget.
QRectF centredLabel(double x, double y, double width, double height, double widgetWidth) {
  QRectF box(x - width / 2.0, y, width, height);
  if (box.left() < 2) box.moveLeft(2);
  if (box.right() > widgetWidth - 2) box.moveRight(widgetWidth - 2);
  return box;
}

}  // namespace

ParallelCoordinates::ParallelCoordinates(QWidget *parent) : QWidget(parent) {
  setMouseTracking(true);
  setAttribute(Qt::WA_OpaquePaintEvent);
  ChartExport::install(this, [this] {
    return [axes = m_axes, names = m_names] {
      // One row per line: its name, then its value on every axis (a category's name on a
      // categorical one, empty where it has none).
      CsvTable table;
      table.header << QStringLiteral("name");
      for (const Axis &axis : axes) table.header << axis.title;
      for (qsizetype line = 0; line < names.size(); ++line) {
        QStringList row{names[line]};
        for (const Axis &axis : axes) {
          const double v = axis.values[static_cast<size_t>(line)];
          row << (axis.categories.isEmpty() ? csvNumber(v)
                                            : (std::isfinite(v) ? axis.categories.value(static_cast<int>(v)) : QString()));
        }
        table.rows.append(std::move(row));
      }
      return table;
    };
  });
}

void ParallelCoordinates::setData(std::vector<Axis> axes, QStringList lineNames, int colorAxis) {
  m_axes = std::move(axes);
  m_names = std::move(lineNames);
  m_colorAxis = colorAxis >= 0 && colorAxis < axisCount() ? colorAxis : -1;
  m_ranges.assign(m_axes.size(), Range{});
  for (size_t a = 0; a < m_axes.size(); ++a) {
    Axis &axis = m_axes[a];
    axis.values.resize(static_cast<size_t>(m_names.size()), kNan);
    if (!axis.categories.isEmpty()) {
      m_ranges[a] = {0.0, static_cast<double>(axis.categories.size() - 1)};
      continue;
    }
    bool any = false;
    for (double v : axis.values) {
      if (!std::isfinite(v) || (axis.log && v <= 0)) continue;
      const double u = axis.log ? std::log10(v) : v;
      m_ranges[a].low = any ? std::min(m_ranges[a].low, u) : u;
      m_ranges[a].high = any ? std::max(m_ranges[a].high, u) : u;
      any = true;
    }
  }
  m_brushes.assign(m_axes.size(), std::nullopt);
  m_hovered = -1;
  m_dragAxis = -1;
  invalidate();
  Q_EMIT selectionChanged();
}

QRectF ParallelCoordinates::plotRect() const {
  const double line = fontMetrics().height();
  // Room above for the title and the highest value, below for the lowest, at the sides for
  // the labels of the outer axes and for the colour legend.
  const double right = m_colorAxis >= 0 ? kLegendWidth + 48 : 48;
  return QRectF(QPointF(48, 2.6 * line + 6), QPointF(width() - right, height() - 1.6 * line - 6));
}

double ParallelCoordinates::axisX(int axis) const {
  const QRectF plot = plotRect();
  if (axisCount() <= 1) return plot.center().x();
  return plot.left() + plot.width() * axis / (axisCount() - 1);
}

double ParallelCoordinates::position(int axis, double value) const {
  const Axis &a = m_axes[static_cast<size_t>(axis)];
  if (!std::isfinite(value) || (a.log && value <= 0)) return kNan;
  if (!a.categories.isEmpty()) return (value + 0.5) / static_cast<double>(a.categories.size());
  const Range &r = m_ranges[static_cast<size_t>(axis)];
  const double u = a.log ? std::log10(value) : value;
  return r.high > r.low ? (u - r.low) / (r.high - r.low) : 0.5;
}

std::vector<LogTick> ParallelCoordinates::logTicks(int axis) const {
  const Axis &a = m_axes.at(static_cast<size_t>(axis));
  if (!a.log || !a.categories.isEmpty()) return {};
  const Range &r = m_ranges[static_cast<size_t>(axis)];
  return tw::ui::logTicks(std::pow(10.0, r.low), std::pow(10.0, r.high));
}

double ParallelCoordinates::yOf(int axis, double value) const {
  const QRectF plot = plotRect();
  return plot.bottom() - position(axis, value) * plot.height();
}

double ParallelCoordinates::valueAt(int axis, double y) const {
  const QRectF plot = plotRect();
  const double t = (plot.bottom() - y) / plot.height();
  const Axis &a = m_axes[static_cast<size_t>(axis)];
  if (!a.categories.isEmpty()) return t * static_cast<double>(a.categories.size()) - 0.5;
  const Range &r = m_ranges[static_cast<size_t>(axis)];
  const double u = r.low + t * (r.high - r.low);
  return a.log ? std::pow(10.0, u) : u;
}

void ParallelCoordinates::setBrush(int axis, double low, double high) {
  if (axis < 0 || axis >= axisCount()) return;
  m_brushes[static_cast<size_t>(axis)] = std::make_pair(std::min(low, high), std::max(low, high));
  invalidate();
  Q_EMIT selectionChanged();
}

void ParallelCoordinates::clearBrush(int axis) {
  if (axis < 0 || axis >= axisCount() || !m_brushes[static_cast<size_t>(axis)]) return;
  m_brushes[static_cast<size_t>(axis)].reset();
  invalidate();
  Q_EMIT selectionChanged();
}

void ParallelCoordinates::clearBrushes() {
  std::fill(m_brushes.begin(), m_brushes.end(), std::nullopt);
  invalidate();
  Q_EMIT selectionChanged();
}

std::optional<std::pair<double, double>> ParallelCoordinates::brush(int axis) const {
  return axis >= 0 && axis < axisCount() ? m_brushes[static_cast<size_t>(axis)] : std::nullopt;
}

bool ParallelCoordinates::inBrushes(int line) const {
  for (size_t a = 0; a < m_axes.size(); ++a) {
    if (!m_brushes[a]) continue;
    const double v = m_axes[a].values[static_cast<size_t>(line)];
    // A run without the value cannot be said to be inside the range.
    if (!std::isfinite(v) || v < m_brushes[a]->first || v > m_brushes[a]->second) return false;
  }
  return true;
}

std::vector<int> ParallelCoordinates::selectedLines() const {
  std::vector<int> lines;
  for (int line = 0; line < lineCount(); ++line)
    if (inBrushes(line)) lines.push_back(line);
  return lines;
}

QColor ParallelCoordinates::lineColor(int line) const {
  if (m_colorAxis < 0) return QColor(0x00, 0x72, 0xb2);
  const double t = position(m_colorAxis, m_axes[static_cast<size_t>(m_colorAxis)].values[static_cast<size_t>(line)]);
  return std::isnan(t) ? QColor(0x90, 0x90, 0x90) : viridis(t);
}

int ParallelCoordinates::axisNear(const QPointF &point) const {
  const QRectF plot = plotRect();
  if (point.y() < plot.top() - kAxisGrab || point.y() > plot.bottom() + kAxisGrab) return -1;
  for (int a = 0; a < axisCount(); ++a)
    if (std::abs(point.x() - axisX(a)) <= kAxisGrab) return a;
  return -1;
}

int ParallelCoordinates::lineNear(const QPointF &point) const {
  int nearest = -1;
  double best = kLineGrab;
  for (int line = 0; line < lineCount(); ++line) {
    for (int a = 0; a + 1 < axisCount(); ++a) {
      const double y0 = yOf(a, m_axes[static_cast<size_t>(a)].values[static_cast<size_t>(line)]);
      const double y1 = yOf(a + 1, m_axes[static_cast<size_t>(a + 1)].values[static_cast<size_t>(line)]);
      if (std::isnan(y0) || std::isnan(y1)) continue;
      const double d = distanceToSegment(point, {axisX(a), y0}, {axisX(a + 1), y1});
      if (d < best) {
        best = d;
        nearest = line;
      }
    }
    if (axisCount() == 1) {
      const double y = yOf(0, m_axes[0].values[static_cast<size_t>(line)]);
      const double d = std::hypot(point.x() - axisX(0), point.y() - y);
      if (d < best) {
        best = d;
        nearest = line;
      }
    }
  }
  return nearest;
}

void ParallelCoordinates::setHovered(int line) {
  if (line == m_hovered) return;
  m_hovered = line;
  update();
  Q_EMIT hoveredLineChanged(line);
}

void ParallelCoordinates::mousePressEvent(QMouseEvent *event) {
  if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
  m_dragAxis = axisNear(event->position());
  m_dragFrom = event->position().y();
}

void ParallelCoordinates::mouseMoveEvent(QMouseEvent *event) {
  m_pointer = event->position();
  if (m_dragAxis >= 0 && (event->buttons() & Qt::LeftButton)) {
    const QRectF plot = plotRect();
    const double from = std::clamp(m_dragFrom, plot.top(), plot.bottom());
    const double to = std::clamp(event->position().y(), plot.top(), plot.bottom());
    if (std::abs(to - from) >= 3) setBrush(m_dragAxis, valueAt(m_dragAxis, from), valueAt(m_dragAxis, to));
    return;
  }
  setHovered(lineNear(m_pointer));
  update();  // the name follows the pointer
}

void ParallelCoordinates::mouseReleaseEvent(QMouseEvent *event) {
  if (event->button() != Qt::LeftButton || m_dragAxis < 0) return QWidget::mouseReleaseEvent(event);
  if (std::abs(event->position().y() - m_dragFrom) < 3) clearBrush(m_dragAxis);  // a click
  m_dragAxis = -1;
}

void ParallelCoordinates::leaveEvent(QEvent *event) {
  setHovered(-1);
  QWidget::leaveEvent(event);
}

QPainterPath ParallelCoordinates::pathOf(int line) const {
  QPainterPath path;
  bool open = false;  // a missing value breaks the line
  for (int a = 0; a < axisCount(); ++a) {
    const double y = yOf(a, m_axes[static_cast<size_t>(a)].values[static_cast<size_t>(line)]);
    if (std::isnan(y)) {
      open = false;
      continue;
    }
    if (open) path.lineTo(axisX(a), y);
    else path.moveTo(axisX(a), y);
    open = true;
  }
  return path;
}

void ParallelCoordinates::invalidate() {
  m_cache = QPixmap();
  update();
}

void ParallelCoordinates::resizeEvent(QResizeEvent *event) {
  m_cache = QPixmap();
  QWidget::resizeEvent(event);
}

void ParallelCoordinates::changeEvent(QEvent *event) {
  if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) m_cache = QPixmap();
  QWidget::changeEvent(event);
}

void ParallelCoordinates::paintEvent(QPaintEvent *) {
  // Hovering repaints often; the lines only change with the data, the brushes or the size, so
  // they are drawn once into a pixmap and the hovered line is drawn over it.
  if (m_cache.isNull()) {
    m_cache = QPixmap(size() * devicePixelRatioF());
    m_cache.setDevicePixelRatio(devicePixelRatioF());
    QPainter painter(&m_cache);
    paintLines(painter);
  }
  QPainter painter(this);
  painter.drawPixmap(0, 0, m_cache);
  painter.setRenderHint(QPainter::Antialiasing);
  if (m_hovered >= 0) paintHovered(painter);
}

void ParallelCoordinates::paintLines(QPainter &painter) const {
  painter.fillRect(rect(), palette().color(QPalette::Base));
  painter.setRenderHint(QPainter::Antialiasing);
  if (m_axes.empty() || m_names.isEmpty()) {
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(rect(), Qt::AlignCenter, tr("Nothing to show: the runs have no differing parameters or values."));
    return;
  }
  bool anyBrush = std::any_of(m_brushes.begin(), m_brushes.end(), [](const auto &b) { return b.has_value(); });
  // Faded lines first, so that the selection is drawn over them.
  for (int pass = 0; pass < 2; ++pass) {
    for (int line = 0; line < lineCount(); ++line) {
      const bool selected = !anyBrush || inBrushes(line);
      if (selected != (pass == 1)) continue;
      QColor color = selected ? lineColor(line) : QColor(0xb0, 0xb0, 0xb0);
      color.setAlpha(selected ? 200 : 70);
      // Exactly 1 px: wider antialiased pens go through the stroker, ten times slower.
      painter.setPen(QPen(color, 1.0));
      painter.drawPath(pathOf(line));
    }
  }
  paintAxes(painter);
  if (m_colorAxis >= 0) paintLegend(painter);
}

void ParallelCoordinates::paintAxes(QPainter &painter) const {
  const QRectF plot = plotRect();
  const QFontMetrics metrics = fontMetrics();
  const double spacing = axisCount() > 1 ? plot.width() / (axisCount() - 1) : plot.width();
  const QColor text = palette().color(QPalette::Text);
  QColor labelBackground = palette().color(QPalette::Base);
  labelBackground.setAlpha(210);
  QColor brushFill = palette().color(QPalette::Highlight);
  brushFill.setAlpha(70);
  for (int a = 0; a < axisCount(); ++a) {
    const Axis &axis = m_axes[static_cast<size_t>(a)];
    const double x = axisX(a);
    if (m_brushes[static_cast<size_t>(a)]) {
      const auto [low, high] = *m_brushes[static_cast<size_t>(a)];
      const double top = std::max(plot.top(), std::min(yOf(a, high), yOf(a, low)));
      const double bottom = std::min(plot.bottom(), std::max(yOf(a, high), yOf(a, low)));
      painter.setPen(QPen(palette().color(QPalette::Highlight), 1));
      painter.setBrush(brushFill);
      painter.drawRect(QRectF(x - 7, top, 14, bottom - top));
      painter.setBrush(Qt::NoBrush);
    }
    painter.setPen(QPen(text, 1.2));
    painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
    const int labelWidth = static_cast<int>(std::max(40.0, spacing - 8));
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    const QString title = QFontMetrics(bold).elidedText(axis.title, Qt::ElideMiddle, labelWidth);
    painter.drawText(centredLabel(x, 2, QFontMetrics(bold).horizontalAdvance(title) + 4, metrics.height(), width()),
                     Qt::AlignCenter, title);
    painter.setFont(font());
    if (axis.categories.isEmpty()) {
      const Range &r = m_ranges[static_cast<size_t>(a)];
      const double high = axis.log ? std::pow(10.0, r.high) : r.high;
      const double low = axis.log ? std::pow(10.0, r.low) : r.low;
      const QString suffix = axis.log ? tr(" (log)") : QString();
      const QString highText = number(high) + suffix, lowText = number(low);
      painter.drawText(centredLabel(x, plot.top() - metrics.height() - 4, metrics.horizontalAdvance(highText) + 4,
                                    metrics.height(), width()),
                       Qt::AlignCenter, highText);
      painter.drawText(centredLabel(x, plot.bottom() + 4, metrics.horizontalAdvance(lowText) + 4, metrics.height(), width()),
                       Qt::AlignCenter, lowText);
      // A log axis: a labelled tick at each power of ten, short ones at 2..9 times it.
      for (const LogTick &tick : logTicks(a)) {
        const double y = yOf(a, tick.value);
        const double reach = tick.major ? 4.0 : 2.0;
        painter.drawLine(QPointF(x - reach, y), QPointF(x + reach, y));
        if (!tick.major) continue;
        const QString label = number(tick.value);
        const QRectF box(x + 6, y - metrics.height() / 2.0, metrics.horizontalAdvance(label) + 4, metrics.height());
        painter.fillRect(box, labelBackground);
        painter.drawText(box, Qt::AlignCenter, label);
      }
      continue;
    }
    // Categories: a tick and a label each, thinned out when they would overlap.
    const double gap = plot.height() / axis.categories.size();
    const int every = std::max(1, static_cast<int>(std::ceil(metrics.height() / std::max(1.0, gap))));
    const int width = static_cast<int>(std::max(30.0, spacing / 2 - 10));
    for (int c = 0; c < axis.categories.size(); c += every) {
      const double y = yOf(a, c);
      painter.drawLine(QPointF(x - 3, y), QPointF(x + 3, y));
      const QString label = metrics.elidedText(axis.categories[c], Qt::ElideRight, width);
      // On a patch of background: many lines meet at a category and would strike the text out.
      const QRectF box(x + 5, y - metrics.height() / 2.0, metrics.horizontalAdvance(label) + 4, metrics.height());
      painter.fillRect(box, labelBackground);
      painter.drawText(box, Qt::AlignCenter, label);
    }
  }
}

void ParallelCoordinates::paintLegend(QPainter &painter) const {
  // The colour scale of the colouring axis, its highest value on top like the axis itself; no
  // title, the axis has it.
  const QRectF plot = plotRect();
  const QFontMetrics metrics = fontMetrics();
  const QRectF bar(width() - kLegendWidth + 4, plot.top(), 12, plot.height());
  QLinearGradient gradient(bar.bottomLeft(), bar.topLeft());
  for (int i = 0; i <= 8; ++i) gradient.setColorAt(i / 8.0, viridis(i / 8.0));
  painter.setPen(QPen(palette().color(QPalette::Mid), 1));
  painter.setBrush(gradient);
  painter.drawRect(bar);
  painter.setBrush(Qt::NoBrush);
  painter.setPen(palette().color(QPalette::Text));
  const Axis &axis = m_axes[static_cast<size_t>(m_colorAxis)];
  const Range &r = m_ranges[static_cast<size_t>(m_colorAxis)];
  const auto shown = [&](double u) {
    if (!axis.categories.isEmpty()) return axis.categories.value(static_cast<int>(u));
    return number(axis.log ? std::pow(10.0, u) : u);
  };
  const double textWidth = kLegendWidth - 20;
  painter.drawText(QRectF(bar.right() + 3, bar.top(), textWidth, metrics.height()), Qt::AlignLeft, shown(r.high));
  painter.drawText(QRectF(bar.right() + 3, bar.bottom() - metrics.height(), textWidth, metrics.height()),
                   Qt::AlignLeft, shown(r.low));
}

void ParallelCoordinates::paintHovered(QPainter &painter) const {
  const QPainterPath path = pathOf(m_hovered);
  painter.setPen(QPen(palette().color(QPalette::Base), 5));  // a halo keeps it apart from its neighbours
  painter.drawPath(path);
  painter.setPen(QPen(lineColor(m_hovered).darker(115), 2.6));
  painter.drawPath(path);

  // The name by the pointer, drawn here rather than as a tooltip so that it shows at once.
  QString label = m_names.value(m_hovered);
  if (m_colorAxis >= 0) {
    const double v = m_axes[static_cast<size_t>(m_colorAxis)].values[static_cast<size_t>(m_hovered)];
    label += QStringLiteral("  ·  %1 %2").arg(m_axes[static_cast<size_t>(m_colorAxis)].title, number(v));
  }
  const QFontMetrics metrics = fontMetrics();
  QRectF box(m_pointer + QPointF(12, -metrics.height() - 10), QSizeF(metrics.horizontalAdvance(label) + 12, metrics.height() + 6));
  if (box.right() > width()) box.moveRight(m_pointer.x() - 12);
  if (box.top() < 0) box.moveTop(m_pointer.y() + 12);
  painter.setPen(QPen(palette().color(QPalette::Mid), 1));
  painter.setBrush(palette().color(QPalette::ToolTipBase));
  painter.drawRoundedRect(box, 3, 3);
  painter.setPen(palette().color(QPalette::ToolTipText));
  painter.drawText(box, Qt::AlignCenter, label);
}

}  // namespace tw::ui
