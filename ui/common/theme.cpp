#include "ui/common/theme.h"

namespace tw::ui {

bool isDarkPalette(const QPalette &palette) {
  const QColor window = palette.color(QPalette::Window);
  const QColor text = palette.color(QPalette::WindowText);
  // Text lighter than its background is what every dark theme has in common.
  return window.lightness() < 128 && text.lightness() > window.lightness();
}

}  // namespace tw::ui
