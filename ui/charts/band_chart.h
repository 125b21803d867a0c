#pragma once
// Curves with a spread: per band, a mean line and a semi-transparent area between a lower and an
// upper line, one colour per band (Compare's group by: mean, min and max of a group's runs).
// Sits beside MetricChart as the other adapter over Qt Charts for step-based curves.
//
//   BandChart::Band band;
//   band.label = tr("lr = 0.01 (3 runs)");
//   band.mean = {{1, 0.9}, {2, 0.7}}; band.lower = ...; band.upper = ...; band.counts = {3, 3};
//   chart->setBands({band});

#include <QList>
#include <QPointF>
#include <QString>
#include <QWidget>

#include <vector>

class QChart;
class QChartView;
class QLineSeries;
class QValueAxis;

namespace tw::ui {

class BandChart : public QWidget {
  Q_OBJECT

 public:
  struct Band {
    QString label;
    QList<QPointF> mean, lower, upper;  // the same x values, ascending
    QList<int> counts;                  // curves behind each point, for the read-out
  };

  explicit BandChart(const QString &title, QWidget *parent = nullptr);
  ~BandChart() override;

  // Replaces what is drawn.
  void setBands(std::vector<Band> bands);
  void setTitle(const QString &title);
  const std::vector<Band> &bands() const { return m_bands; }
  // What the chart draws, for tests: the mean line and the area's edges of band `index`.
  QList<QPointF> drawnMean(int index) const;
  QList<QPointF> drawnLower(int index) const;
  QList<QPointF> drawnUpper(int index) const;
  // The labels the legend shows, in order.
  QStringList legendLabels() const;

 private:
  struct Drawn {
    QLineSeries *mean = nullptr, *lower = nullptr, *upper = nullptr;
  };
  void showReadOut(int band, const QPointF &at);

  QChart *m_chart = nullptr;
  QChartView *m_view = nullptr;
  QValueAxis *m_stepAxis = nullptr;
  QValueAxis *m_valueAxis = nullptr;
  std::vector<Band> m_bands;
  std::vector<Drawn> m_drawn;
};

}  // namespace tw::ui
