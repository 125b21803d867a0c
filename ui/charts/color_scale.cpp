#include "ui/charts/color_scale.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace tw::ui {

QColor viridis(double t) {
  // matplotlib's viridis at 0, 1/8, ..., 1; linear in between is within a few levels of it.
  static const QColor stops[] = {QColor(0x44, 0x01, 0x54), QColor(0x47, 0x2d, 0x7b), QColor(0x3b, 0x52, 0x8b),
                                 QColor(0x2c, 0x72, 0x8e), QColor(0x21, 0x91, 0x8c), QColor(0x28, 0xae, 0x80),
                                 QColor(0x5e, 0xc9, 0x62), QColor(0xad, 0xdc, 0x30), QColor(0xfd, 0xe7, 0x25)};
  if (!std::isfinite(t)) t = 0.0;
  const double at = std::clamp(t, 0.0, 1.0) * static_cast<double>(std::size(stops) - 1);
  const auto low = static_cast<size_t>(std::floor(at));
  const size_t high = std::min(low + 1, std::size(stops) - 1);
  const double f = at - static_cast<double>(low);
  auto mix = [f](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * f)); };
  return QColor(mix(stops[low].red(), stops[high].red()), mix(stops[low].green(), stops[high].green()),
                mix(stops[low].blue(), stops[high].blue()));
}

}  // namespace tw::ui
