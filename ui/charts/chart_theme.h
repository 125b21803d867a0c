#pragma once
// Charts in the system's light or dark theme: QChart::ChartThemeLight or ChartThemeDark chosen
// from the palette (ui/common/theme.h) when a chart is made and again whenever the palette
// changes, keeping the colours Studio gave its series (a theme change alone would recolour them).
//
//   m_view = new QChartView(m_chart, this);
//   followPaletteTheme(m_view);

#include <QPalette>

class QAbstractAxis;
class QChartView;

namespace tw::ui {

// Applies the palette's theme now and on every later palette change of the view.
void followPaletteTheme(QChartView *view);
// Grid lines faint on the theme's background (major and, for log axes, minor).
void styleAxisGrid(QAbstractAxis *axis, const QPalette &palette);

}  // namespace tw::ui
