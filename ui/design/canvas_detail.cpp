#include "ui/design/canvas_detail.h"

#include <QApplication>
#include <QFontMetricsF>
#include <QTransform>

#include <algorithm>
#include <cmath>

namespace tw::ui {

double screenScale(const QTransform &transform) {
  return std::sqrt(std::abs(transform.m11() * transform.m22() - transform.m12() * transform.m21()));
}

bool readableAt(double scale, double pixels) { return scale * pixels >= kMinTextPixels * (1.0 - 1e-9); }

double fullLabelZoom() { return kMinTextPixels / kBodyPixels; }

QFont canvasFont(int pixels, bool bold) {
  QFont font = QApplication::font();
  font.setPixelSize(std::max(1, pixels));
  font.setBold(bold);
  return font;
}

OpNameLayout layOutOpName(const QString &op, QSizeF box) {
  if (op.isEmpty()) return {};
  // Measured once at a large size: a font's widths and height scale with its size.
  constexpr int kProbe = 100;
  const QFontMetricsF metrics(canvasFont(kProbe, true));
  auto sizeFor = [&](const QStringList &lines) {
    double widest = 0;
    for (const QString &line : lines) widest = std::max(widest, metrics.horizontalAdvance(line));
    const double byWidth = box.width() / widest * kProbe;
    const double byHeight = box.height() / (metrics.lineSpacing() * lines.size()) * kProbe;
    return std::min({double(kOpNameMaxPixels), byWidth, byHeight});
  };
  OpNameLayout best{{op}, 0};
  double bestSize = sizeFor(best.lines);
  for (int i = 1; i < op.size(); ++i) {
    const bool wordStart = op[i].isUpper() && (op[i - 1].isLower() || op[i - 1].isDigit());
    if (!wordStart) continue;
    const QStringList lines{op.left(i), op.mid(i)};
    if (const double size = sizeFor(lines); size > bestSize) {
      best.lines = lines;
      bestSize = size;
    }
  }
  best.pixels = static_cast<int>(std::floor(bestSize));
  return best;
}

NodeDetail detailAt(double scale, const OpNameLayout &opName) {
  if (readableAt(scale, kBodyPixels)) return NodeDetail::Full;
  if (opName.pixels > 0 && readableAt(scale, opName.pixels)) return NodeDetail::OpName;
  return NodeDetail::Box;
}

}  // namespace tw::ui
