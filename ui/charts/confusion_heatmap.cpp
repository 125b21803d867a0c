#include "ui/charts/confusion_heatmap.h"

#include "ui/charts/chart_export.h"
#include "ui/charts/heatmap_parts.h"
#include "ui/common/number_format.h"

#include <QEvent>
#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace tw::ui {

namespace {

constexpr int kMaxLabelWidth = 140;
constexpr int kBarWidth = 14;
constexpr int kGap = 6;

// ColorBrewer's sequential "Blues": light for few, dark for many, legible in grey print and
// for the common colour-vision deficiencies.
const QColor kBlues[] = {QColor(0xf7, 0xfb, 0xff), QColor(0xde, 0xeb, 0xf7), QColor(0xc6, 0xdb, 0xef),
                         QColor(0x9e, 0xca, 0xe1), QColor(0x6b, 0xae, 0xd6), QColor(0x42, 0x92, 0xc6),
                         QColor(0x21, 0x71, 0xb5), QColor(0x08, 0x51, 0x9c), QColor(0x08, 0x30, 0x6b)};
constexpr int kStops = sizeof kBlues / sizeof kBlues[0];

QColor blues(double t) {
  const double x = std::clamp(t, 0.0, 1.0) * (kStops - 1);
  const int i = std::min(kStops - 2, static_cast<int>(x));
  const double f = x - i;
  const QColor &a = kBlues[i], &b = kBlues[i + 1];
  return QColor::fromRgbF(static_cast<float>(a.redF() + f * (b.redF() - a.redF())),
                          static_cast<float>(a.greenF() + f * (b.greenF() - a.greenF())),
                          static_cast<float>(a.blueF() + f * (b.blueF() - a.blueF())));
}

// The diagonal dwarfs the errors in a trained model; a square-root scale keeps a handful of
// confusions visible next to hundreds of hits.
double shadeOf(double value, double max) { return max > 0 ? std::sqrt(std::max(0.0, value) / max) : 0.0; }

}  // namespace

ConfusionHeatmap::ConfusionHeatmap(QWidget *parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  ChartExport::install(this, [this] {
    return [matrix = m_matrix] {
      // The counts, laid out as the engine's confusion CSV: truth by row, prediction by column.
      CsvTable table;
      table.header << QStringLiteral("truth\\predicted") << matrix.classes;  // as the engine writes it
      for (int truth = 0; truth < matrix.size(); ++truth) {
        QStringList row{matrix.classes[truth]};
        for (int predicted = 0; predicted < matrix.size(); ++predicted)
          row << QString::number(matrix.count(truth, predicted));
        table.rows.append(std::move(row));
      }
      return table;
    };
  });
}

void ConfusionHeatmap::setMatrix(const ConfusionMatrix &matrix) {
  if (matrix == m_matrix) return;
  m_matrix = matrix;
  update();
}

void ConfusionHeatmap::clear() { setMatrix({}); }

void ConfusionHeatmap::setRowNormalised(bool on) {
  if (on == m_rowNormalised) return;
  m_rowNormalised = on;
  update();
}

double ConfusionHeatmap::value(int truth, int predicted) const {
  const auto count = static_cast<double>(m_matrix.count(truth, predicted));
  if (!m_rowNormalised) return count;
  const int64_t row = m_matrix.rowTotal(truth);
  return row > 0 ? count / static_cast<double>(row) : 0.0;
}

double ConfusionHeatmap::maxValue() const {
  return m_rowNormalised ? 1.0 : static_cast<double>(m_matrix.maxCount());
}

QString ConfusionHeatmap::cellText(int truth, int predicted) const {
  if (!m_rowNormalised) return QLocale().toString(static_cast<qlonglong>(m_matrix.count(truth, predicted)));
  return QLocale().toString(100.0 * value(truth, predicted), 'f', 0) + QLatin1Char('%');
}

ConfusionHeatmap::Geometry ConfusionHeatmap::geometry() const {
  Geometry g;
  const int n = m_matrix.size();
  if (n == 0) return g;
  const QFontMetrics fm = fontMetrics();
  for (const QString &name : m_matrix.classes) g.labelWidth = std::max(g.labelWidth, fm.horizontalAdvance(name));
  // A few pixels over the widest name: elidedText would otherwise cut a name of exactly that width.
  g.labelWidth = std::min(g.labelWidth + 4, kMaxLabelWidth);
  const QString widest = m_rowNormalised ? QStringLiteral("100%") : QLocale().toString(m_matrix.maxCount());
  const int barLabels = fm.horizontalAdvance(widest) + kGap;
  // Left: the axis title turned on its side, then the row names. Below: the column names
  // turned on their side, then the axis title. Right: the colour bar and its labels.
  const int left = fm.height() + kGap + g.labelWidth + kGap;
  const int bottom = kGap + g.labelWidth + kGap + fm.height();
  const int right = 2 * kGap + kBarWidth + kGap + barLabels;
  const int top = fm.height() / 2 + kGap;  // room for the colour bar's top label
  const int side = std::min(width() - left - right, height() - top - bottom);
  g.cell = std::max(1, side / n);
  g.grid = QRect(left, top, g.cell * n, g.cell * n);
  g.bar = QRect(g.grid.right() + 2 * kGap, g.grid.top(), kBarWidth, g.grid.height());
  return g;
}

QRect ConfusionHeatmap::cellRect(int truth, int predicted) const {
  const Geometry g = geometry();
  if (truth < 0 || predicted < 0 || truth >= m_matrix.size() || predicted >= m_matrix.size()) return {};
  return {g.grid.left() + predicted * g.cell, g.grid.top() + truth * g.cell, g.cell, g.cell};
}

QPoint ConfusionHeatmap::cellAt(const QPoint &position) const {
  const Geometry g = geometry();
  if (m_matrix.isEmpty() || !g.grid.contains(position)) return {-1, -1};
  return {(position.x() - g.grid.left()) / g.cell, (position.y() - g.grid.top()) / g.cell};
}

void ConfusionHeatmap::paintEvent(QPaintEvent *) {
  const int n = m_matrix.size();
  if (n == 0) return;
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing, false);
  const Geometry g = geometry();
  const QFontMetrics fm = fontMetrics();
  const double max = maxValue();

  for (int t = 0; t < n; ++t) {
    for (int p = 0; p < n; ++p) {
      const QRect cell = cellRect(t, p);
      const double shade = shadeOf(value(t, p), max);
      painter.fillRect(cell.adjusted(0, 0, -1, -1), blues(shade));
      const QString text = cellText(t, p);
      if (fm.height() <= cell.height() - 2 && fm.horizontalAdvance(text) <= cell.width() - 4) {
        painter.setPen(shade > 0.6 ? Qt::white : QColor(0x20, 0x20, 0x20));
        painter.drawText(cell, Qt::AlignCenter, text);
      }
    }
  }
  painter.setPen(palette().color(QPalette::Mid));
  painter.drawRect(g.grid.adjusted(0, 0, -1, -1));

  painter.setPen(palette().color(QPalette::WindowText));
  for (int t = 0; t < n; ++t) {
    const QRect row(g.grid.left() - kGap - g.labelWidth, g.grid.top() + t * g.cell, g.labelWidth, g.cell);
    painter.drawText(row, Qt::AlignRight | Qt::AlignVCenter,
                     fm.elidedText(m_matrix.classes[t], Qt::ElideRight, g.labelWidth));
  }
  for (int p = 0; p < n; ++p) {
    painter.save();
    painter.translate(g.grid.left() + p * g.cell + g.cell / 2, g.grid.bottom() + kGap);
    painter.rotate(-90);  // reads upwards, ending at the grid
    painter.drawText(QRect(-g.labelWidth, -g.cell / 2, g.labelWidth, g.cell), Qt::AlignRight | Qt::AlignVCenter,
                     fm.elidedText(m_matrix.classes[p], Qt::ElideRight, g.labelWidth));
    painter.restore();
  }
  heatmap::drawAxisTitles(painter, *this, g.grid, g.grid.bottom() + 2 * kGap + g.labelWidth, tr("Predicted"),
                          tr("Truth"));
  // Ticks at 0, a quarter and all of the maximum: on the square-root scale, the bottom, the
  // middle and the top of the bar.
  QList<QPair<double, QString>> ticks;
  for (double share : {0.0, 0.25, 1.0}) {
    const QString label = m_rowNormalised ? QLocale().toString(100.0 * share, 'f', 0) + QLatin1Char('%')
                                          : QLocale().toString(share * max, 'f', share * max < 10 && share > 0 ? 1 : 0);
    ticks.append({shadeOf(share, 1.0), label});
  }
  heatmap::drawColourBar(painter, *this, g.bar, blues, ticks);
}

bool ConfusionHeatmap::event(QEvent *event) {
  const auto text = [this](int truth, int predicted) {
    const int64_t row = m_matrix.rowTotal(truth);
    const double share = row > 0 ? static_cast<double>(m_matrix.count(truth, predicted)) / row : 0.0;
    // "Examples: n" rather than %n: without an English translation %n reads "3 example(s)".
    return tr("Truth: %1\nPredicted: %2\nExamples: %3 (%4 of the class)")
        .arg(m_matrix.classes[truth], m_matrix.classes[predicted],
             formatNumber(static_cast<double>(m_matrix.count(truth, predicted))), formatPercent(share, 3));
  };
  if (heatmap::showCellToolTip(
          this, event, [this](const QPoint &p) { return cellAt(p); },
          [this](int truth, int predicted) { return cellRect(truth, predicted); }, text))
    return true;
  return QWidget::event(event);
}

}  // namespace tw::ui
