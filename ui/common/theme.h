#pragma once
// Light or dark, as the system says. Qt 6.4 has no QStyleHints::colorScheme (6.5 does), so a
// dark theme is read off the palette the platform gives: a dark window colour is a dark theme.
// Widgets that paint with their own colours ask here, at start and on every
// QEvent::PaletteChange / ApplicationPaletteChange, instead of assuming white.
//
//   if (isDarkPalette(palette())) ...

#include <QPalette>

namespace tw::ui {

bool isDarkPalette(const QPalette &palette);

}  // namespace tw::ui
