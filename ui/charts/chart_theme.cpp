#include "ui/charts/chart_theme.h"

#include "ui/common/theme.h"

#include <QAbstractBarSeries>
#include <QAreaSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QGuiApplication>
#include <QLegend>
#include <QLogValueAxis>
#include <QXYSeries>

#include <functional>
#include <vector>

namespace tw::ui {

namespace {

void applyTheme(QChartView *view, const QPalette &palette) {
  QChart *chart = view->chart();
  if (!chart) return;
  const bool dark = isDarkPalette(palette);
  const QChart::ChartTheme theme = dark ? QChart::ChartThemeDark : QChart::ChartThemeLight;
  if (chart->theme() != theme) {
    // setTheme() gives every series the theme's colours; Studio's mean something (a run, a
    // status), so they are put back.
    std::vector<std::function<void()>> restore;
    for (QAbstractSeries *series : chart->series()) {
      if (auto *xy = qobject_cast<QXYSeries *>(series)) {
        restore.push_back([xy, pen = xy->pen(), brush = xy->brush()] {
          xy->setPen(pen);
          xy->setBrush(brush);
        });
      } else if (auto *area = qobject_cast<QAreaSeries *>(series)) {
        restore.push_back([area, pen = area->pen(), brush = area->brush()] {
          area->setPen(pen);
          area->setBrush(brush);
        });
      } else if (auto *bars = qobject_cast<QAbstractBarSeries *>(series)) {
        for (QBarSet *set : bars->barSets())
          restore.push_back([set, pen = set->pen(), brush = set->brush()] {
            set->setPen(pen);
            set->setBrush(brush);
          });
      }
    }
    // It also gives every axis and the legend the theme's fonts; the charts' own stay.
    for (QAbstractAxis *axis : chart->axes())
      restore.push_back([axis, labels = axis->labelsFont(), title = axis->titleFont()] {
        axis->setLabelsFont(labels);
        axis->setTitleFont(title);
      });
    restore.push_back([legend = chart->legend(), font = chart->legend()->font()] { legend->setFont(font); });
    const bool background = chart->isBackgroundVisible();
    const QFont title = chart->titleFont();
    chart->setTheme(theme);
    chart->setBackgroundVisible(background);
    chart->setTitleFont(title);
    for (const auto &put : restore) put();
  }
  for (QAbstractAxis *axis : chart->axes()) styleAxisGrid(axis, palette);
  view->setBackgroundBrush(palette.brush(QPalette::Window));
}

// Lives as the view's child: follows it and dies with it.
class ThemeFollower : public QObject {
 public:
  explicit ThemeFollower(QChartView *view) : QObject(view), m_view(view) { view->installEventFilter(this); }

 protected:
  bool eventFilter(QObject *watched, QEvent *event) override {
    // PaletteChange comes once the view's palette is the new one; ApplicationPaletteChange comes
    // before the view has taken it, so the application's is read.
    if (watched == m_view && event->type() == QEvent::PaletteChange) applyTheme(m_view, m_view->palette());
    if (watched == m_view && event->type() == QEvent::ApplicationPaletteChange)
      applyTheme(m_view, QGuiApplication::palette());
    return false;
  }

 private:
  QChartView *m_view;
};

}  // namespace

void followPaletteTheme(QChartView *view) {
  new ThemeFollower(view);
  applyTheme(view, view->palette());
}

void styleAxisGrid(QAbstractAxis *axis, const QPalette &palette) {
  const bool dark = isDarkPalette(palette);
  axis->setGridLineColor(dark ? QColor(0x4a, 0x4e, 0x55) : QColor(0xe0, 0xe0, 0xe0));
  if (auto *log = qobject_cast<QLogValueAxis *>(axis))
    log->setMinorGridLineColor(dark ? QColor(0x36, 0x39, 0x3e) : QColor(0xf0, 0xf0, 0xf0));  // fainter than decades
}

}  // namespace tw::ui
