#include "ui/charts/band_chart.h"

#include "ui/common/number_format.h"

#include "ui/charts/chart_export.h"
#include "ui/charts/chart_theme.h"
#include "ui/charts/nice_axis.h"
#include "ui/charts/series_palette.h"
#include "ui/common/number_format.h"

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QToolTip>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace tw::ui {

BandChart::BandChart(const QString &title, QWidget *parent) : QWidget(parent) {
  m_chart = new QChart();
  QFont titleFont = font();
  titleFont.setBold(true);
  m_chart->setTitleFont(titleFont);
  m_chart->setTitle(title);
  // The same frame as MetricChart, so that switching group by on and off does not jump.
  m_chart->setBackgroundVisible(false);
  m_chart->setPlotAreaBackgroundBrush(palette().color(QPalette::Base));
  m_chart->setPlotAreaBackgroundPen(QPen(palette().color(QPalette::Mid)));
  m_chart->setPlotAreaBackgroundVisible(true);
  m_chart->setMargins(QMargins(2, 2, 2, 2));
  m_chart->legend()->setAlignment(Qt::AlignBottom);
  m_chart->legend()->setFont(font());
  m_chart->setAnimationOptions(QChart::NoAnimation);
  m_chart->setLocalizeNumbers(true);  // axis labels in the locale, as every number in Studio

  m_stepAxis = new QValueAxis(m_chart);
  m_stepAxis->setTitleText(tr("Step"));
  m_valueAxis = new QValueAxis(m_chart);
  m_valueAxis->setLabelFormat(QStringLiteral("%.3g"));
  for (QValueAxis *axis : {m_stepAxis, m_valueAxis}) {
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setLabelsFont(font());
  }
  setNiceRangeLabelled(m_stepAxis, 0, 100, 5, /*wholeNumbers=*/true);
  setNiceRange(m_valueAxis, 0, 1, 5);
  m_chart->addAxis(m_stepAxis, Qt::AlignBottom);
  m_chart->addAxis(m_valueAxis, Qt::AlignLeft);

  m_view = new QChartView(m_chart, this);
  m_view->setRenderHint(QPainter::Antialiasing);
  m_view->setFrameShape(QFrame::NoFrame);
  followPaletteTheme(m_view);
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_view);
  ChartExport::install(this, [this] {
    return [bands = m_bands] {
      // Column names are for programs reading the file: the same in every language.
      CsvTable table{{QStringLiteral("group"), QStringLiteral("step"), QStringLiteral("mean"), QStringLiteral("min"),
                      QStringLiteral("max"), QStringLiteral("runs")},
                     {}};
      for (const Band &band : bands)
        for (qsizetype i = 0; i < band.mean.size(); ++i)
          table.rows.append({band.label, csvNumber(band.mean[i].x()), csvNumber(band.mean[i].y()),
                             csvNumber(band.lower.value(i).y()), csvNumber(band.upper.value(i).y()),
                             QString::number(band.counts.value(i))});
      return table;
    };
  });
}

BandChart::~BandChart() = default;

void BandChart::setTitle(const QString &title) { m_chart->setTitle(title); }

void BandChart::setBands(std::vector<Band> bands) {
  // removeAllSeries() deletes the areas and means; the edges are children of the chart.
  m_chart->removeAllSeries();
  for (const Drawn &drawn : m_drawn) {
    delete drawn.lower;
    delete drawn.upper;
  }
  m_drawn.clear();
  m_bands = std::move(bands);

  bool any = false;
  double minX = 0, maxX = 0, minY = 0, maxY = 0;
  for (size_t index = 0; index < m_bands.size(); ++index) {
    const Band &band = m_bands[index];
    const QColor color = seriesColor(index);
    Drawn drawn;
    drawn.lower = new QLineSeries(m_chart);
    drawn.upper = new QLineSeries(m_chart);
    drawn.lower->replace(band.lower);
    drawn.upper->replace(band.upper);
    auto *area = new QAreaSeries(drawn.upper, drawn.lower);
    QColor fill = color;
    fill.setAlpha(56);
    area->setBrush(fill);
    area->setPen(Qt::NoPen);
    area->setName(band.label);
    drawn.mean = new QLineSeries();
    drawn.mean->setName(band.label);
    QPen pen(color);
    pen.setWidthF(1.8);
    drawn.mean->setPen(pen);
    drawn.mean->replace(band.mean);
    for (QAbstractSeries *series : {static_cast<QAbstractSeries *>(area), static_cast<QAbstractSeries *>(drawn.mean)}) {
      m_chart->addSeries(series);
      series->attachAxis(m_stepAxis);
      series->attachAxis(m_valueAxis);
    }
    // One legend entry per group: the solid mean line reads better than the pale area.
    for (QLegendMarker *marker : m_chart->legend()->markers(area)) marker->setVisible(false);
    const int bandIndex = static_cast<int>(index);
    connect(drawn.mean, &QLineSeries::hovered, this, [this, bandIndex](const QPointF &point, bool state) {
      if (state) showReadOut(bandIndex, point);
      else QToolTip::hideText();
    });
    m_drawn.push_back(drawn);

    for (int i = 0; i < band.mean.size(); ++i) {
      const double low = std::min(band.lower[i].y(), band.mean[i].y());
      const double high = std::max(band.upper[i].y(), band.mean[i].y());
      if (!any) {
        minX = maxX = band.mean[i].x();
        minY = low;
        maxY = high;
        any = true;
      }
      minX = std::min(minX, band.mean[i].x());
      maxX = std::max(maxX, band.mean[i].x());
      minY = std::min(minY, low);
      maxY = std::max(maxY, high);
    }
  }
  if (!any) {
    setNiceRangeLabelled(m_stepAxis, 0, 100, 5, /*wholeNumbers=*/true);
    setNiceRange(m_valueAxis, 0, 1, 5);
    return;
  }
  setNiceRangeLabelled(m_stepAxis, minX, maxX > minX ? maxX : minX + 1, 8, /*wholeNumbers=*/true);
  padRange(&minY, &maxY);
  setNiceRange(m_valueAxis, minY, maxY, 6);
}

void BandChart::showReadOut(int band, const QPointF &at) {
  // The pointer is between points: read out the nearest step of the band.
  const Band &b = m_bands[static_cast<size_t>(band)];
  if (b.mean.isEmpty()) return;
  auto it = std::lower_bound(b.mean.begin(), b.mean.end(), at.x(), [](const QPointF &p, double x) { return p.x() < x; });
  qsizetype i = it - b.mean.begin();
  if (i == b.mean.size() || (i > 0 && at.x() - b.mean[i - 1].x() < b.mean[i].x() - at.x())) --i;
  const QString text = tr("%1 · step %2: mean %3, min %4, max %5 (runs with this step: %6)")
                           .arg(b.label)
                           .arg(formatNumber(b.mean[i].x()))
                           .arg(formatNumber(b.mean[i].y(), 5))
                           .arg(formatNumber(b.lower[i].y(), 5))
                           .arg(formatNumber(b.upper[i].y(), 5))
                           .arg(b.counts.value(i));
  QToolTip::showText(QCursor::pos(), text, m_view);
}

QList<QPointF> BandChart::drawnMean(int index) const {
  return index >= 0 && index < static_cast<int>(m_drawn.size()) ? m_drawn[index].mean->points() : QList<QPointF>();
}

QList<QPointF> BandChart::drawnLower(int index) const {
  return index >= 0 && index < static_cast<int>(m_drawn.size()) ? m_drawn[index].lower->points() : QList<QPointF>();
}

QList<QPointF> BandChart::drawnUpper(int index) const {
  return index >= 0 && index < static_cast<int>(m_drawn.size()) ? m_drawn[index].upper->points() : QList<QPointF>();
}

QStringList BandChart::legendLabels() const {
  QStringList labels;
  // The markers of the areas are hidden; asking the markers for visibility would also depend on
  // whether the legend has been laid out yet.
  for (QLegendMarker *marker : m_chart->legend()->markers())
    if (marker->type() != QLegendMarker::LegendMarkerTypeArea) labels << marker->label();
  return labels;
}

}  // namespace tw::ui
