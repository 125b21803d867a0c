#pragma once
// Horizontal bars, one per named value, largest on top (parameter importance). Part of the
// chart adapter over Qt Charts, beside MetricChart and ScatterChart.
//
//   chart->setBars({{"train.lr", 0.71}, {"data.batch_size", 0.18}}, tr("Importance"));

#include <QString>
#include <QStringList>
#include <QWidget>

#include <utility>
#include <vector>

class QChart;
class QChartView;

namespace tw::ui {

class BarChart : public QWidget {
  Q_OBJECT

 public:
  explicit BarChart(QWidget *parent = nullptr);
  ~BarChart() override;

  // Replaces the bars; they are drawn sorted by value, the largest on top.
  void setBars(std::vector<std::pair<QString, double>> bars, const QString &valueTitle);
  // What is drawn, largest first, for tests.
  QStringList drawnLabels() const;
  std::vector<double> drawnValues() const;

 private:
  QChart *m_chart = nullptr;
  QChartView *m_view = nullptr;
  std::vector<std::pair<QString, double>> m_bars;  // largest first
  QString m_valueTitle;
};

}  // namespace tw::ui
