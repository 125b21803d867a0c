// The chart adapter: incremental appends, min/max decimation of long series (first, last and
// extreme points kept), axes that follow the data, and log axes with a tick at every decade.

#include "ui/charts/chart_legend.h"
#include "ui/charts/decimation.h"
#include "ui/charts/log_axis.h"
#include "ui/charts/metric_chart.h"
#include "ui/charts/parallel_coordinates.h"
#include "ui/charts/scatter_chart.h"

#include <QAction>
#include <QChart>
#include <QChartView>
#include <QGraphicsView>
#include <QLegend>
#include <QLogValueAxis>
#include <QValueAxis>
#include <QtTest>

#include <algorithm>

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

// A log axis' ends lie a hair outside their decades (see log_axis.cpp).
bool near(double value, double expected) { return std::abs(value / expected - 1.0) < 1e-6; }

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

  // The test figure recorded after the last epoch sits on the last step: the step axis leaves
  // room past it so the marker is drawn whole.
  void markerOnTheLastStepIsNotCut() {
    tw::ui::MetricChart chart(QStringLiteral("Loss"));
    chart.addSeries("train/loss", QStringLiteral("Training"));
    chart.appendPoints("train/loss", metricPoints(1, 100));
    QCOMPARE(chart.stepAxis()->max(), 100.0);
    chart.setMarker("test/loss", QStringLiteral("Test"), 100, 0.5, Qt::red);
    QVERIFY2(chart.stepAxis()->max() > 100.0, qPrintable(QString::number(chart.stepAxis()->max())));
    QCOMPARE(chart.stepAxis()->min(), 1.0);
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

  void zoomRedrawsTheRangeAtFullResolution() {
    tw::ui::MetricChart chart(QStringLiteral("Loss"));
    chart.resize(800, 400);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.addSeries("train/loss", QStringLiteral("Training"));
    // A million steps, with one spike that decimation must keep at every zoom level.
    for (int64_t first = 1; first <= 1000000; first += 100000) {
      auto points = metricPoints(first, first + 99999);
      for (auto &p : points)
        if (p.step == 123456) p.value = 50.0;
      chart.appendPoints("train/loss", points);
    }
    QVERIFY(chart.seriesPointCount("train/loss") <= 4000);
    auto drawn = chart.drawnPoints("train/loss");
    QCOMPARE(drawn.first().x(), 1.0);
    QCOMPARE(drawn.last().x(), 1000000.0);
    QVERIFY(std::any_of(drawn.begin(), drawn.end(), [](const QPointF &p) { return p.y() == 50.0; }));

    // 3,000 steps in view: every one of them is drawn (plus one beyond each edge).
    chart.zoomToSteps(120000, 123000);
    QVERIFY(chart.isZoomed());
    drawn = chart.drawnPoints("train/loss");
    QCOMPARE(drawn.size(), qsizetype(3001 + 2));
    QCOMPARE(drawn.first().x(), 119999.0);
    QCOMPARE(drawn.last().x(), 123001.0);
    QCOMPARE(chart.visibleFrom(), 120000.0);
    QCOMPARE(chart.visibleTo(), 123000.0);
    // Live points while zoomed do not move the view.
    chart.appendPoints("train/loss", metricPoints(1000001, 1000100));
    QCOMPARE(chart.visibleTo(), 123000.0);

    // Panning keeps the width; the wheel zooms around the pointer; a double-click shows all.
    chart.pan(500);
    QCOMPARE(chart.visibleFrom(), 120500.0);
    QCOMPARE(chart.visibleTo(), 123500.0);
    chart.zoomBy(0.5, 123500);
    QCOMPARE(chart.visibleFrom(), 122000.0);
    QCOMPARE(chart.visibleTo(), 123500.0);
    drawn = chart.drawnPoints("train/loss");
    QVERIFY(std::any_of(drawn.begin(), drawn.end(), [](const QPointF &p) { return p.y() == 50.0; }));
    auto *view = chart.findChild<QGraphicsView *>();
    QVERIFY(view);
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, view->viewport()->rect().center());
    QVERIFY(!chart.isZoomed());
    QCOMPARE(chart.drawnPoints("train/loss").last().x(), 1000100.0);
    QVERIFY(chart.seriesPointCount("train/loss") <= 4000);

    // A drag across the plot zooms to the steps under it.
    const QRect area = view->viewport()->rect();
    const QPoint from(area.left() + area.width() / 3, area.center().y());
    const QPoint to(area.left() + area.width() / 2, area.center().y());
    QTest::mousePress(view->viewport(), Qt::LeftButton, {}, from);
    QMouseEvent move(QEvent::MouseMove, to, view->viewport()->mapToGlobal(to), Qt::NoButton, Qt::LeftButton, {});
    QApplication::sendEvent(view->viewport(), &move);
    QTest::mouseRelease(view->viewport(), Qt::LeftButton, {}, to);
    QVERIFY(chart.isZoomed());
    QVERIFY(chart.visibleFrom() > 1 && chart.visibleTo() < 1000100 && chart.visibleFrom() < chart.visibleTo());
    // The right button is the context menu's; its first entry shows every step again.
    QTest::mouseClick(view->viewport(), Qt::RightButton, {}, area.center());
    QVERIFY(chart.isZoomed());
    QCOMPARE(chart.contextMenuPolicy(), Qt::ActionsContextMenu);
    QAction *showAll = chart.actions().value(0);
    QVERIFY(showAll);
    QCOMPARE(showAll->text(), QStringLiteral("Show All Steps"));
    showAll->trigger();
    QVERIFY(!chart.isZoomed());
  }

  void legendHidesForManySeries() {
    tw::ui::MetricChart chart(QStringLiteral("Loss"));
    for (int i = 0; i < 12; ++i) chart.addSeries("s" + std::to_string(i), QString::number(i));
    QVERIFY(chart.legendVisible());
    QVERIFY(!chart.legend()->isHidden());
    chart.addSeries("s12", QStringLiteral("12"));
    QVERIFY(!chart.legendVisible());
    QVERIFY(chart.legend()->isHidden());
    chart.setLegendVisible(true);
    QVERIFY(chart.legendVisible());
  }

  // Six overlaid runs with long names on a chart a third of a 1024-pixel window wide: every entry
  // is in the legend (long names elided in the middle, whole in the tooltip), the legend wraps to
  // the chart's width and is tall enough for all its lines. Qt Charts' one-row legend cut them.
  void legendWrapsOnANarrowChart() {
    tw::ui::MetricChart chart(QStringLiteral("Loss"));
    QStringList names;
    for (int run = 0; run < 6; ++run)
      for (const char *split : {"Training", "Validation"}) {
        const QString name = QStringLiteral("fashion-mnist-cnn-lr-sweep-trial-%1 · %2").arg(run).arg(split);
        chart.addSeries(name.toStdString(), name);
        names << name;
      }
    chart.resize(340, 420);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    tw::ui::ChartLegend *legend = chart.legend();
    QVERIFY(legend->isVisible());
    QCOMPARE(legend->shownNames().size(), 12);
    for (const QString &shown : legend->shownNames()) QVERIFY(shown.size() <= tw::ui::ChartLegend::kMaxNameChars);
    QVERIFY(legend->shownNames().first().endsWith(QStringLiteral("Training")));  // the end survives the elision
    for (const QString &name : names) QVERIFY(legend->toolTip().contains(name));
    QTRY_VERIFY(legend->width() <= chart.width());
    QVERIFY(legend->lineCount() > 2);  // it wrapped, between entries
    QTRY_VERIFY(legend->height() >= legend->lineCount() * legend->fontMetrics().height());
    QDir().mkpath(QStringLiteral(TW_BINARY_DIR "/screenshots"));
    chart.grab().save(QStringLiteral(TW_BINARY_DIR "/screenshots/chart_legend_narrow.png"));
  }

  // Three steps: ticks at whole steps, each label once ("1 2 3", never "1 1 1 2 2").
  void integerAxisTicksEachStepOnce() {
    QLocale::setDefault(QLocale::c());
    tw::ui::MetricChart chart(QStringLiteral("Loss"));
    chart.addSeries("loss", QStringLiteral("Training"));
    chart.appendPoints("loss", metricPoints(1, 3));
    const QValueAxis *axis = chart.stepAxis();
    QVERIFY(axis->tickInterval() >= 1.0);
    QStringList labels;
    for (double v = axis->tickAnchor(); v <= axis->max() + 1e-9; v += axis->tickInterval())
      if (v >= axis->min() - 1e-9) labels << QString::asprintf(axis->labelFormat().toLatin1().constData(), v);
    QVERIFY2(!labels.isEmpty(), "no ticks");
    QCOMPARE(QSet<QString>(labels.begin(), labels.end()).size(), labels.size());
    QCOMPARE(labels, (QStringList{"1", "2", "3"}));
  }

  // A fractional axis (epochs) labels its ticks with the decimals they need, no two alike.
  void fractionalTicksHaveTheirDecimals() {
    QLocale::setDefault(QLocale::c());
    tw::ui::MetricChart chart(QStringLiteral("Loss"));
    chart.addSeries("loss", QStringLiteral("Training"), 1);
    chart.appendEpochs(1, {{100, 1.0, 0}});
    chart.appendPoints("loss", metricPoints(1, 100));
    chart.setXAxis(tw::ui::XAxisKind::Epoch);
    const QValueAxis *axis = chart.stepAxis();
    QStringList labels;
    for (double v = axis->tickAnchor(); v <= axis->max() + 1e-9; v += axis->tickInterval())
      if (v >= axis->min() - 1e-9) labels << QString::asprintf(axis->labelFormat().toLatin1().constData(), v);
    QVERIFY(labels.size() >= 3);
    QCOMPARE(QSet<QString>(labels.begin(), labels.end()).size(), labels.size());
    QCOMPARE(axis->titleText(), QStringLiteral("Epoch"));
  }

  // Two runs, one with twice the batch size: 100 and 50 steps an epoch. Against steps their
  // validation points lie apart; against epochs they line up at 1, 2, 3; against wall time each
  // point sits at its time since its own run's start. The test figure follows the axis.
  void curvesAgainstEpochsAndWallTime() {
    tw::ui::MetricChart chart(QStringLiteral("Loss"));
    const int64_t t0 = 1'700'000'000'000, t1 = 1'700'000'500'000;
    std::vector<tw::tracking::MetricPoint> epochsA, epochsB, valA, valB;
    for (int64_t e = 1; e <= 3; ++e) {
      epochsA.push_back({100 * e, static_cast<double>(e), t0 + e * 20'000});
      epochsB.push_back({50 * e, static_cast<double>(e), t1 + e * 10'000});
      valA.push_back({100 * e, 1.0 / e, t0 + e * 20'000});
      valB.push_back({50 * e, 0.9 / e, t1 + e * 10'000});
    }
    chart.addSeries("val@1", QStringLiteral("a"), 1);
    chart.addSeries("val@2", QStringLiteral("b"), 2);
    chart.setRunStart(1, t0);
    chart.setRunStart(2, t1);
    chart.appendEpochs(1, epochsA);
    chart.appendEpochs(2, epochsB);
    chart.appendPoints("val@1", valA);
    chart.appendPoints("val@2", valB);
    chart.setMarker("test@1", QStringLiteral("Test"), 300, 0.3, Qt::red, 1);
    auto xs = [&](const std::string &key) {
      QList<double> out;
      for (const QPointF &p : chart.drawnPoints(key)) out << p.x();
      return out;
    };
    QCOMPARE(xs("val@1"), (QList<double>{100, 200, 300}));
    QCOMPARE(xs("val@2"), (QList<double>{50, 100, 150}));
    QCOMPARE(chart.markerPoint("test@1").x(), 300.0);

    chart.setXAxis(tw::ui::XAxisKind::Epoch);
    QCOMPARE(xs("val@1"), (QList<double>{1, 2, 3}));
    QCOMPARE(xs("val@2"), (QList<double>{1, 2, 3}));
    QCOMPARE(chart.markerPoint("test@1").x(), 3.0);
    QCOMPARE(chart.stepAxis()->titleText(), QStringLiteral("Epoch"));
    // Steps in an epoch are interpolated; those of the epoch in progress take the last one's length.
    chart.addSeries("loss@2", QStringLiteral("b · Training"), 2);
    chart.appendPoints("loss@2", {{25, 2.0, t1 + 5'000}, {175, 1.0, t1 + 35'000}});
    QCOMPARE(xs("loss@2"), (QList<double>{0.5, 3.5}));
    // A run with no epoch recorded has nothing to place its points by; its legend entry says so.
    chart.addSeries("val@3", QStringLiteral("c"), 3);
    chart.appendPoints("val@3", {{10, 1.0, t1}});
    QVERIFY(xs("val@3").isEmpty());
    QVERIFY2(chart.legend()->shownNames().contains(QStringLiteral("c (no epoch recorded yet)")),
             qPrintable(chart.legend()->shownNames().join(" | ")));
    chart.appendEpochs(3, {{10, 1.0, t1}});
    QCOMPARE(xs("val@3"), (QList<double>{1}));
    QVERIFY(chart.legend()->shownNames().contains(QStringLiteral("c")));

    chart.setXAxis(tw::ui::XAxisKind::WallTime);
    QCOMPARE(xs("val@1"), (QList<double>{20, 40, 60}));
    QCOMPARE(xs("val@2"), (QList<double>{10, 20, 30}));
    QCOMPARE(chart.markerPoint("test@1").x(), 60.0);
    QCOMPARE(chart.stepAxis()->titleText(), QStringLiteral("Time since start (s)"));

    // Back on steps, everything where it was.
    chart.setXAxis(tw::ui::XAxisKind::Step);
    QCOMPARE(xs("val@2"), (QList<double>{50, 100, 150}));
    QCOMPARE(chart.stepAxis()->titleText(), QStringLiteral("Step"));
  }

  // An hour-long run reads in minutes, not in thousands of seconds; a live run that passes ten
  // minutes switches unit with its next points.
  void wallTimeTakesMinutesForLongRuns() {
    tw::ui::MetricChart chart(QStringLiteral("Loss"));
    chart.addSeries("loss", QStringLiteral("Training"), 1);
    chart.setRunStart(1, 1000);
    chart.setXAxis(tw::ui::XAxisKind::WallTime);
    chart.appendPoints("loss", {{1, 1.0, 1000 + 60'000}, {2, 0.9, 1000 + 300'000}});
    QCOMPARE(chart.drawnPoints("loss").last().x(), 300.0);
    chart.appendPoints("loss", {{3, 0.8, 1000 + 3'600'000}});
    QCOMPARE(chart.stepAxis()->titleText(), QStringLiteral("Time since start (min)"));
    QCOMPARE(chart.drawnPoints("loss").first().x(), 1.0);
    QCOMPARE(chart.drawnPoints("loss").last().x(), 60.0);
  }

  void skipsNonFiniteValues() {
    tw::ui::MetricChart chart(QStringLiteral("Loss"));
    chart.addSeries("train/loss", QStringLiteral("Training"));
    chart.appendPoints("train/loss", {{1, 2.0, 0}, {2, std::nan(""), 0}, {3, INFINITY, 0}, {4, 1.0, 0}});
    QCOMPARE(chart.seriesPointCount("train/loss"), 2);
  }

  void smoothingIsADebiasedEmaOverAllPoints() {
    tw::ui::MetricChart chart(QStringLiteral("loss"), nullptr, {/*decimateAbove=*/100});
    chart.addSeries("train/loss", QStringLiteral("train"));
    std::vector<tw::tracking::MetricPoint> points;
    for (int64_t step = 1; step <= 1000; ++step) points.push_back({step, step % 2 ? 2.0 : 0.0, 0});
    chart.appendPoints("train/loss", points);
    chart.setSmoothing(0.9);
    const QList<QPointF> drawn = chart.drawnPoints("train/loss");
    QVERIFY(drawn.size() <= 100);  // decimated after smoothing
    // Debiased: the first point is the first value, not 10% of it.
    QCOMPARE(drawn.front().y(), 2.0);
    // Smoothed: the alternation 0/2 settles around 1; computed over all 1,000 points, so the
    // last drawn value is the EMA's, whatever the decimation kept.
    QVERIFY(std::abs(drawn.back().y() - 1.0) < 0.15);
    for (const QPointF &p : drawn.mid(20)) QVERIFY2(p.y() > 0.7 && p.y() < 1.3, qPrintable(QString::number(p.y())));
    chart.setSmoothing(0.0);
    double low = 1.0, high = 1.0;
    for (const QPointF &p : chart.drawnPoints("train/loss")) {
      low = std::min(low, p.y());
      high = std::max(high, p.y());
    }
    QCOMPARE(low, 0.0);  // the raw extremes are back
    QCOMPARE(high, 2.0);
  }

  void logScaleDropsNonPositiveValues() {
    tw::ui::MetricChart chart(QStringLiteral("loss"));
    chart.addSeries("train/loss", QStringLiteral("train"));
    chart.appendPoints("train/loss", {{1, 10.0, 0}, {2, 1.0, 0}, {3, 0.0, 0}, {4, 0.01, 0}});
    chart.setLogScale(true);
    QVERIFY(chart.logScale());
    QCOMPARE(chart.drawnPoints("train/loss").size(), 3);
    chart.appendPoints("train/loss", {{5, 0.001, 0}});
    QCOMPARE(chart.drawnPoints("train/loss").size(), 4);
    chart.setLogScale(false);
    QCOMPARE(chart.drawnPoints("train/loss").size(), 5);
    QCOMPARE(chart.rawPointCount("train/loss"), 5);
  }

  // --- log axes: a labelled tick at every decade, minor ticks at 2..9 between ---

  void decadeRange_data() {
    QTest::addColumn<double>("min");
    QTest::addColumn<double>("max");
    QTest::addColumn<int>("first");
    QTest::addColumn<int>("last");
    QTest::addColumn<QStringList>("labels");
    QTest::newRow("three decades") << 3e-4 << 0.02 << -4 << -1 << QStringList{"0.0001", "0.001", "0.01", "0.1"};
    QTest::newRow("within one decade") << 0.2 << 0.9 << -1 << 0 << QStringList{"0.1", "1"};
    QTest::newRow("exact powers stay") << 1e-3 << 10.0 << -3 << 1 << QStringList{"0.001", "0.01", "0.1", "1", "10"};
    QTest::newRow("one value") << 5.0 << 5.0 << 0 << 1 << QStringList{"1", "10"};
    QTest::newRow("one power of ten") << 100.0 << 100.0 << 2 << 3 << QStringList{"100", "1000"};
    QTest::newRow("large") << 2e5 << 3e6 << 5 << 7 << QStringList{"100000", "1e+06", "1e+07"};
    QTest::newRow("given the other way round") << 0.02 << 3e-4 << -4 << -1 << QStringList{"0.0001", "0.001", "0.01", "0.1"};
    QTest::newRow("nothing positive") << 0.0 << -1.0 << 0 << 1 << QStringList{"1", "10"};
  }

  void decadeRange() {
    QFETCH(double, min);
    QFETCH(double, max);
    QFETCH(int, first);
    QFETCH(int, last);
    QFETCH(QStringList, labels);
    const tw::ui::DecadeRange range = tw::ui::decadeRange(min, max);
    QCOMPARE(range.firstExponent, first);
    QCOMPARE(range.lastExponent, last);
    QStringList shown;
    for (int e = range.firstExponent; e <= range.lastExponent; ++e) shown << tw::ui::decadeLabel(e);
    QCOMPARE(shown, labels);
    // What a QLogValueAxis given that range labels: every decade, both ends included.
    QChart chart;
    auto *axis = new QLogValueAxis;
    chart.addAxis(axis, Qt::AlignLeft);
    tw::ui::setDecadeRange(axis, min, max);
    QCOMPARE(axis->tickCount(), labels.size());
    QCOMPARE(axis->minorTickCount(), 8);
    QCOMPARE(axis->base(), 10.0);
  }

  void logTicksAreDecadesWithMinorTicksBetween() {
    const std::vector<tw::ui::LogTick> ticks = tw::ui::logTicks(3e-4, 0.02);
    QList<double> majors, minors;
    for (const auto &tick : ticks) (tick.major ? majors : minors).append(tick.value);
    QCOMPARE(majors.size(), 2);  // 0.001 and 0.01
    QVERIFY(qFuzzyCompare(majors[0], 0.001) && qFuzzyCompare(majors[1], 0.01));
    // 3e-4 .. 9e-4, 2e-3 .. 9e-3, 0.02: seven, eight and one.
    QCOMPARE(minors.size(), 7 + 8 + 1);
    QVERIFY(qFuzzyCompare(minors.front(), 3e-4));
    QVERIFY(qFuzzyCompare(minors[7], 2e-3));
    QVERIFY(qFuzzyCompare(minors.back(), 0.02));
    for (size_t i = 1; i < ticks.size(); ++i) QVERIFY(ticks[i - 1].value < ticks[i].value);
    QVERIFY(tw::ui::logTicks(0.0, 1.0).empty());
  }

  void logAxesOfTheChartsCarryDecades() {
    // The metric chart: values 0.001 .. 10 show the decades 0.001 .. 10, all labelled.
    tw::ui::MetricChart chart(QStringLiteral("loss"));
    chart.resize(600, 400);
    chart.show();
    chart.addSeries("train/loss", QStringLiteral("train"));
    chart.appendPoints("train/loss", {{1, 10.0, 0}, {2, 0.5, 0}, {3, 0.002, 0}});
    chart.setLogScale(true);
    const QLogValueAxis *axis = chart.logAxis();
    QVERIFY(axis);
    QVERIFY(near(axis->min(), 1e-3) && near(axis->max(), 10.0));
    QCOMPARE(axis->tickCount(), 5);
    QCOMPARE(axis->minorTickCount(), 8);
    // Narrow values still get a decade below and above, so that the axis has labels at all.
    chart.clear();
    chart.appendPoints("train/loss", {{1, 0.4, 0}, {2, 0.3, 0}});
    QVERIFY(near(axis->min(), 0.1) && near(axis->max(), 1.0));

    // The scatter chart's log axis.
    tw::ui::ScatterChart scatter;
    tw::ui::ScatterChart::Axis x;
    x.title = QStringLiteral("train.lr");
    x.log = true;
    tw::ui::ScatterChart::Axis y;
    y.title = QStringLiteral("val/loss");
    scatter.setPoints(x, y, {{2e-4, 0.5, "a"}, {0.03, 0.4, "b"}});
    auto *scatterAxis = qobject_cast<QLogValueAxis *>(scatter.drawnAxis(Qt::Horizontal));
    QVERIFY(scatterAxis);
    // The decades 1e-4 .. 0.1, with a little room beyond so that a point at a decade is not cut.
    QVERIFY(scatterAxis->min() < 1e-4 && scatterAxis->min() > 1e-4 / 1.2);
    QVERIFY(scatterAxis->max() > 0.1 && scatterAxis->max() < 0.1 * 1.2);
    QCOMPARE(scatterAxis->tickCount(), 4);
    QCOMPARE(scatterAxis->minorTickCount(), 8);

    // The parallel coordinates paint their own: a major tick at each decade inside the range.
    tw::ui::ParallelCoordinates plot;
    tw::ui::ParallelCoordinates::Axis lr;
    lr.title = QStringLiteral("train.lr");
    lr.values = {2e-4, 0.05};
    lr.log = true;
    tw::ui::ParallelCoordinates::Axis loss;
    loss.title = QStringLiteral("val/loss");
    loss.values = {0.5, 0.4};
    plot.setData({lr, loss}, {QStringLiteral("a"), QStringLiteral("b")}, 1);
    QList<double> majors;
    int minors = 0;
    for (const auto &tick : plot.logTicks(0)) tick.major ? majors.append(tick.value) : void(++minors);
    QCOMPARE(majors.size(), 2);  // 0.001 and 0.01; 0.1 is above 0.05
    QVERIFY(qFuzzyCompare(majors[0], 1e-3) && qFuzzyCompare(majors[1], 1e-2));
    QCOMPARE(minors, 8 + 8 + 4);  // 2..9 x 1e-4, 2..9 x 1e-3, 0.02 .. 0.05
    QVERIFY(plot.logTicks(1).empty());  // a linear axis
  }
};

QTEST_MAIN(TestMetricChart)
#include "test_metric_chart.moc"
