#include "ui/charts/grid_heatmap.h"

#include "ui/charts/chart_export.h"
#include "ui/charts/color_scale.h"
#include "ui/charts/heatmap_parts.h"

#include <QEvent>
#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <limits>

namespace tw::ui {

namespace {

constexpr int kMaxLabelWidth = 180;
constexpr int kBarWidth = 14;
constexpr int kGap = 6;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

QString number(double value) { return QLocale().toString(value, 'g', 4); }

}  // namespace

GridHeatmap::GridHeatmap(QWidget *parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  // One line per row, one column per grid column, as the picture lays them out; empty cells empty.
  ChartExport::install(this, [this]() -> CsvMaker {
    const QString corner = m_rowTitle + QLatin1Char('\\') + m_columnTitle;  // "Layer\Epoch"
    return [rows = m_rows, columns = m_columns, values = m_values, corner] {
      CsvTable table{QStringList{corner} + columns, {}};
      for (qsizetype r = 0; r < rows.size(); ++r) {
        QStringList line{rows[r]};
        for (qsizetype c = 0; c < columns.size(); ++c) line << csvNumber(values[size_t(r * columns.size() + c)]);
        table.rows.append(line);
      }
      return table;
    };
  });
}

void GridHeatmap::setGrid(const QStringList &rows, const QStringList &columns, std::vector<double> values) {
  if (values.size() != static_cast<size_t>(rows.size()) * static_cast<size_t>(columns.size())) {
    clear();  // a caller's mistake: better blank than cells under the wrong names
    return;
  }
  m_rows = rows;
  m_columns = columns;
  m_values = std::move(values);
  bool any = false, positive = true;
  for (double v : m_values) {
    if (!std::isfinite(v)) continue;
    m_min = any ? std::min(m_min, v) : v;
    m_max = any ? std::max(m_max, v) : v;
    positive = positive && v > 0;
    any = true;
  }
  if (!any) m_min = m_max = 0;
  m_log = any && positive && m_max / m_min > 10.0;
  update();
}

void GridHeatmap::clear() {
  m_rows.clear();
  m_columns.clear();
  m_values.clear();
  m_min = m_max = 0;
  m_log = false;
  update();
}

void GridHeatmap::setRowTitle(const QString &title) {
  m_rowTitle = title;
  update();
}

void GridHeatmap::setColumnTitle(const QString &title) {
  m_columnTitle = title;
  update();
}

int GridHeatmap::filledCellCount() const {
  return static_cast<int>(std::count_if(m_values.begin(), m_values.end(), [](double v) { return std::isfinite(v); }));
}

double GridHeatmap::value(int row, int column) const {
  if (row < 0 || column < 0 || row >= rowCount() || column >= columnCount()) return kNaN;
  return m_values[static_cast<size_t>(row) * m_columns.size() + static_cast<size_t>(column)];
}

double GridHeatmap::shade(double value) const {
  if (!(m_max > m_min)) return 0.5;
  if (m_log) return (std::log10(value) - std::log10(m_min)) / (std::log10(m_max) - std::log10(m_min));
  return (value - m_min) / (m_max - m_min);
}

QString GridHeatmap::cellToolTip(int row, int column) const {
  const double v = value(row, column);
  if (row < 0 || column < 0 || row >= rowCount() || column >= columnCount()) return {};
  return tr("%1\n%2 %3: %4")
      .arg(m_rows[row], m_columnTitle, m_columns[column], std::isfinite(v) ? number(v) : tr("not recorded"));
}

GridHeatmap::Geometry GridHeatmap::geometry() const {
  Geometry g;
  if (m_rows.isEmpty() || m_columns.isEmpty()) return g;
  const QFontMetrics fm = fontMetrics();
  for (const QString &name : m_rows) g.labelWidth = std::max(g.labelWidth, fm.horizontalAdvance(name));
  g.labelWidth = std::min(g.labelWidth + 4, kMaxLabelWidth);
  const int barLabels = std::max(fm.horizontalAdvance(number(m_min)), fm.horizontalAdvance(number(m_max))) + kGap;
  // Left: the row title on its side, then the row names. Below: the column names, then the
  // column title. Right: the colour bar and its labels.
  const int left = fm.height() + kGap + g.labelWidth + kGap;
  const int bottom = kGap + fm.height() + kGap + fm.height();
  const int right = 2 * kGap + kBarWidth + kGap + barLabels;
  const int top = fm.height() / 2 + kGap;
  const int w = std::max(1, width() - left - right), h = std::max(1, height() - top - bottom);
  g.cellWidth = static_cast<double>(w) / m_columns.size();
  // Rows no taller than a few lines: two layers should not fill the page with two bands.
  g.cellHeight = std::min(static_cast<double>(h) / m_rows.size(), 3.0 * fm.height());
  g.grid = QRect(left, top, w, static_cast<int>(std::lround(g.cellHeight * m_rows.size())));
  g.bar = QRect(g.grid.right() + 2 * kGap, g.grid.top(), kBarWidth, g.grid.height());
  return g;
}

QRect GridHeatmap::cellRect(int row, int column) const {
  if (row < 0 || column < 0 || row >= rowCount() || column >= columnCount()) return {};
  const Geometry g = geometry();
  const int x0 = g.grid.left() + static_cast<int>(std::lround(column * g.cellWidth));
  const int x1 = g.grid.left() + static_cast<int>(std::lround((column + 1) * g.cellWidth));
  const int y0 = g.grid.top() + static_cast<int>(std::lround(row * g.cellHeight));
  const int y1 = g.grid.top() + static_cast<int>(std::lround((row + 1) * g.cellHeight));
  return {x0, y0, std::max(1, x1 - x0), std::max(1, y1 - y0)};
}

QPoint GridHeatmap::cellAt(const QPoint &position) const {
  const Geometry g = geometry();
  if (m_values.empty() || !g.grid.contains(position)) return {-1, -1};
  const int column = std::min(columnCount() - 1, static_cast<int>((position.x() - g.grid.left()) / g.cellWidth));
  const int row = std::min(rowCount() - 1, static_cast<int>((position.y() - g.grid.top()) / g.cellHeight));
  return {column, row};
}

void GridHeatmap::paintEvent(QPaintEvent *) {
  if (m_values.empty()) return;
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing, false);
  const Geometry g = geometry();
  const QFontMetrics fm = fontMetrics();
  for (int r = 0; r < rowCount(); ++r)
    for (int c = 0; c < columnCount(); ++c)
      if (const double v = value(r, c); std::isfinite(v)) painter.fillRect(cellRect(r, c), viridis(shade(v)));
  painter.setPen(palette().color(QPalette::Mid));
  painter.drawRect(g.grid.adjusted(0, 0, -1, -1));

  painter.setPen(palette().color(QPalette::WindowText));
  // Names only where they fit: a hundred layers in a short widget leave the tooltip to name them.
  const int rowStride = std::max(1, static_cast<int>(std::ceil(fm.height() / std::max(1.0, g.cellHeight))));
  for (int r = 0; r < rowCount(); r += rowStride) {
    const QRect cell = cellRect(r, 0);
    const QRect label(g.grid.left() - kGap - g.labelWidth, cell.top(), g.labelWidth, std::max(cell.height(), fm.height()));
    painter.drawText(label, Qt::AlignRight | Qt::AlignVCenter, fm.elidedText(m_rows[r], Qt::ElideLeft, g.labelWidth));
  }
  int widestColumn = 0;
  for (const QString &name : m_columns) widestColumn = std::max(widestColumn, fm.horizontalAdvance(name));
  const int columnStride =
      std::max(1, static_cast<int>(std::ceil((widestColumn + kGap) / std::max(1.0, g.cellWidth))));
  for (int c = 0; c < columnCount(); c += columnStride) {
    const QRect cell = cellRect(0, c);
    painter.drawText(QRect(cell.center().x() - widestColumn, g.grid.bottom() + kGap, 2 * widestColumn, fm.height()),
                     Qt::AlignCenter, m_columns[c]);
  }
  heatmap::drawAxisTitles(painter, *this, g.grid, g.grid.bottom() + 2 * kGap + fm.height(), m_columnTitle, m_rowTitle);
  heatmap::drawColourBar(painter, *this, g.bar, viridis, {{shade(m_min), number(m_min)}, {shade(m_max), number(m_max)}});
}

bool GridHeatmap::event(QEvent *event) {
  if (heatmap::showCellToolTip(
          this, event, [this](const QPoint &p) { return cellAt(p); },
          [this](int row, int column) { return cellRect(row, column); },
          [this](int row, int column) { return cellToolTip(row, column); }))
    return true;
  return QWidget::event(event);
}

}  // namespace tw::ui
