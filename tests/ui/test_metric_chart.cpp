// The chart adapter: incremental appends, min/max decimation of long series (first, last and
// extreme points kept), and axes that follow the data.

#include "ui/charts/decimation.h"
#include "ui/charts/metric_chart.h"

#include <QtTest>

#include <cmath>

namespace {

QList<QPointF> ramp(int n) {
  QList<QPointF> points;
  for (int i = 0; i < n; ++i) points.append(QPointF(i, std::sin(i * 0.01)));
  return points;
}

std::vector<tw::tracking::MetricPoint> metricPoints(int64_t first, int64_t last) {
  std::vector<tw::tracking::MetricPoint> points;
  for (int64_t step = first; step <= last; ++step) points.push_back({step, 1.0 / static_cast<double>(step), 0});
  return points;
}

}  // namespace

class TestMetricChart : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void decimation_data() {
    QTest::addColumn<int>("inputSize");
    QTest::addColumn<int>("maxPoints");
    QTest::newRow("short series unchanged") << 100 << 4000;
    QTest::newRow("exactly at the limit") << 4000 << 4000;
    QTest::newRow("ten times over") << 40000 << 4000;
    QTest::newRow("tiny budget") << 1000 << 2;
    QTest::newRow("odd sizes") << 12345 << 777;
  }
  void decimation() {
    QFETCH(int, inputSize);
    QFETCH(int, maxPoints);
    const QList<QPointF> input = ramp(inputSize);
    const QList<QPointF> out = tw::ui::minMaxDecimate(input, maxPoints);
    if (inputSize <= std::max(4, maxPoints)) {
      QCOMPARE(out, input);
      return;
    }
    QVERIFY(out.size() <= std::max(4, maxPoints));
    QVERIFY(out.size() >= std::max(4, maxPoints) - 2);
    QCOMPARE(out.front(), input.front());
    QCOMPARE(out.back(), input.back());
    for (qsizetype i = 1; i < out.size(); ++i) QVERIFY(out[i].x() > out[i - 1].x());
  }

  void decimationKeepsSpikes() {
    QList<QPointF> input = ramp(100000);
    input[54321].setY(50.0);
    input[7777].setY(-50.0);
    const QList<QPointF> out = tw::ui::minMaxDecimate(input, 1000);
    QVERIFY(out.contains(input[54321]));
    QVERIFY(out.contains(input[7777]));
  }

  void appendsIncrementally() {
    tw::ui::MetricChart chart(QStringLiteral("Loss"));
    chart.addSeries("train/loss", QStringLiteral("Training"));
    chart.appendPoints("train/loss", metricPoints(1, 100));
    QCOMPARE(chart.seriesPointCount("train/loss"), 100);
    chart.appendPoints("train/loss", metricPoints(101, 150));
    QCOMPARE(chart.seriesPointCount("train/loss"), 150);
    QCOMPARE(chart.rawPointCount("train/loss"), 150);
    // Unknown keys are ignored with a log line, never a crash.
    chart.appendPoints("no/such", metricPoints(1, 3));
    QCOMPARE(chart.seriesPointCount("no/such"), 0);
    chart.clear();
    QCOMPARE(chart.seriesPointCount("train/loss"), 0);
    QVERIFY(chart.hasSeries("train/loss"));
  }

  void decimatesLongSeries() {
    tw::ui::MetricChartOptions options;
    options.decimateAbove = 2000;
    tw::ui::MetricChart chart(QStringLiteral("Loss"), nullptr, options);
    chart.addSeries("train/loss", QStringLiteral("Training"));
    for (int64_t first = 1; first <= 50000; first += 10000) chart.appendPoints("train/loss", metricPoints(first, first + 9999));
    QCOMPARE(chart.rawPointCount("train/loss"), 50000);
    QVERIFY(chart.seriesPointCount("train/loss") <= 2000);
    QVERIFY(chart.seriesPointCount("train/loss") >= 1000);
  }

  void skipsNonFiniteValues() {
    tw::ui::MetricChart chart(QStringLiteral("Loss"));
    chart.addSeries("train/loss", QStringLiteral("Training"));
    chart.appendPoints("train/loss", {{1, 2.0, 0}, {2, std::nan(""), 0}, {3, INFINITY, 0}, {4, 1.0, 0}});
    QCOMPARE(chart.seriesPointCount("train/loss"), 2);
  }
};

QTEST_MAIN(TestMetricChart)
#include "test_metric_chart.moc"
