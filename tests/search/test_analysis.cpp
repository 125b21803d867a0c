// The study analyses the Sweeps page draws: axes and their ticks, the optimisation history,
// slices, parallel coordinates and contour grids, each against answers worked by hand.
#include "core/search/analysis_axis.h"
#include "core/search/analysis_contour.h"
#include "core/search/analysis_history.h"
#include "core/search/analysis_parallel_coords.h"
#include "core/search/analysis_pareto.h"
#include "core/search/analysis_slices.h"
#include "core/search/random_sampler.h"
#include "core/search/study.h"

#include <QtTest>

#include <cmath>

using namespace tw::search;

namespace {

QStringList labels(const AnalysisAxis &axis) {
  QStringList out;
  for (const auto &t : axis.ticks) out << QString::fromStdString(t.label);
  return out;
}

bool near(double a, double b, double tolerance = 1e-9) { return std::abs(a - b) <= tolerance; }

Trial complete(int number, double value, Params params = {}) {
  Trial t;
  t.number = number;
  t.state = TrialState::Complete;
  t.values = {value};
  t.params = std::move(params);
  return t;
}

Trial ended(int number, TrialState state) {
  Trial t;
  t.number = number;
  t.state = state;
  return t;
}

SearchSpace optimizerSpace() {
  SearchSpace space;
  ParamSpec optimizer{"train.optimizer", ParamType::Categorical};
  optimizer.choices = {"sgd", "adam"};
  space.params.push_back(optimizer);
  ParamSpec momentum{"train.momentum", ParamType::Float, 0.0, 1.0};
  momentum.when = {{"train.optimizer", {"sgd"}}};
  space.params.push_back(momentum);
  return space;
}

SearchSpace unitSpace(int n) {
  SearchSpace space;
  for (int i = 0; i < n; ++i) space.params.push_back({"x" + std::to_string(i), ParamType::Float, 0.0, 1.0});
  return space;
}

}  // namespace

class TestAnalysis : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void paretoPlotMarksTheNonDominated() {
    // Accuracy up, parameters down: trial 2 is beaten by trial 0 on both, trial 3 failed.
    std::vector<Trial> trials(4);
    const double values[4][2] = {{0.9, 100}, {0.8, 50}, {0.85, 120}, {0.99, 1}};
    for (int i = 0; i < 4; ++i) {
      trials[i].number = i;
      trials[i].state = i == 3 ? TrialState::Failed : TrialState::Complete;
      trials[i].values = {values[i][0], values[i][1]};
    }
    const ParetoPlot plot = paretoPlot(trials, {Direction::Maximize, Direction::Minimize}, {"val/accuracy", "params"});
    QCOMPARE(plot.points.size(), size_t(3));
    QVERIFY(plot.points[0].onFront);
    QVERIFY(plot.points[1].onFront);
    QVERIFY(!plot.points[2].onFront);
    QCOMPARE(plot.xAxis.label, std::string("val/accuracy"));
    QCOMPARE(plot.points[1].x, 0.0);  // the lowest accuracy sits at the left end
    QCOMPARE(plot.points[2].y, 1.0);  // the most parameters at the top
    QVERIFY(paretoPlot(trials, {Direction::Maximize}, {}).points.empty());
  }

  void niceSteps() {
    QCOMPARE(niceStep(1.0, 4), 0.2);
    QCOMPARE(niceStep(100.0, 4), 20.0);
    QCOMPARE(niceStep(7.0, 4), 2.0);
    QCOMPARE(niceStep(480.0, 4), 100.0);
  }

  void paramAxes() {
    const AnalysisAxis linear = paramAxis({"x", ParamType::Float, 0.0, 1.0});
    QCOMPARE(labels(linear), QStringList({"0", "0.2", "0.4", "0.6", "0.8", "1"}));
    QVERIFY(near(linear.ticks[3].unit, 0.6));

    const AnalysisAxis lr = paramAxis({"lr", ParamType::Float, 1e-4, 0.3, true});
    QVERIFY(lr.log);
    QCOMPARE(labels(lr), QStringList({"0.0001", "0.001", "0.01", "0.1"}));
    QVERIFY(near(lr.ticks[1].unit, std::log(10.0) / std::log(3000.0)));

    // Less than a decade: 1-2-5 ticks.
    QCOMPARE(labels(paramAxis({"wd", ParamType::Float, 0.01, 0.05, true})), QStringList({"0.01", "0.02", "0.05"}));
    QCOMPARE(labels(paramAxis({"batch", ParamType::Int, 16, 256, true})), QStringList({"20", "50", "100", "200"}));

    // Integers own cells widened by half a step at each end (toUnit): 100 sits at 84 / 512.
    const AnalysisAxis width = paramAxis({"width", ParamType::Int, 32, 512, false, 32});
    QCOMPARE(labels(width), QStringList({"100", "200", "300", "400", "500"}));
    QVERIFY(near(width.ticks[0].unit, 84.0 / 512.0));

    const AnalysisAxis optimizer = paramAxis(optimizerSpace().params[0]);
    QVERIFY(optimizer.categorical);
    QCOMPARE(labels(optimizer), QStringList({"sgd", "adam"}));
    QVERIFY(near(optimizer.ticks[0].unit, 0.25) && near(optimizer.ticks[1].unit, 0.75));
  }

  void valueAxes() {
    const AnalysisAxis accuracy = valueAxis("val/accuracy", 0.5, 0.9);
    QCOMPARE(labels(accuracy), QStringList({"0.5", "0.6", "0.7", "0.8", "0.9"}));
    QVERIFY(near(accuracy.ticks[2].unit, 0.5));
    QCOMPARE(valueAxisUnit(3.0, 3.0, 3.0), 0.5);
  }

  // 0: 5, 1 pruned, 2: 3, 3 failed, 4: 4, 5: 1.
  void historyKeepsTheBestSoFar() {
    const std::vector<Trial> trials = {complete(0, 5), ended(1, TrialState::Pruned), complete(2, 3),
                                       ended(3, TrialState::Failed), complete(4, 4), complete(5, 1)};
    const auto min = optimizationHistory(trials, Direction::Minimize);
    QCOMPARE(min.size(), size_t(4));
    const int numbers[] = {0, 2, 4, 5};
    const double best[] = {5, 3, 3, 1};
    const bool improved[] = {true, true, false, true};
    for (size_t i = 0; i < 4; ++i) {
      QCOMPARE(min[i].number, numbers[i]);
      QCOMPARE(min[i].best, best[i]);
      QCOMPARE(min[i].improved, improved[i]);
    }
    QCOMPARE(min[2].value, 4.0);
    const auto max = optimizationHistory(trials, Direction::Maximize);
    for (const auto &p : max) QCOMPARE(p.best, 5.0);
    QVERIFY(max[0].improved && !max[1].improved);
  }

  void slicesPerParameter() {
    const std::vector<Trial> trials = {complete(0, 0.2, {{"train.optimizer", 0}, {"train.momentum", 0.5}}),
                                       complete(1, 0.6, {{"train.optimizer", 1}}), ended(2, TrialState::Pruned)};
    const auto slices = paramSlices(optimizerSpace(), trials);
    QCOMPARE(slices.size(), size_t(2));
    QCOMPARE(slices[0].points.size(), size_t(2));
    QCOMPARE(slices[0].points[1].value, 1.0);
    QCOMPARE(slices[0].points[1].unit, 0.75);
    QCOMPARE(slices[0].points[1].objective, 0.6);
    QCOMPARE(slices[1].points.size(), size_t(1));  // momentum only where sgd
    QCOMPARE(slices[1].points[0].number, 0);
    QCOMPARE(slices[1].points[0].unit, 0.5);
  }

  void parallelCoordinatesLines() {
    const std::vector<Trial> trials = {complete(0, 0.2, {{"train.optimizer", 0}, {"train.momentum", 0.3}}),
                                       complete(1, 0.6, {{"train.optimizer", 1}}),
                                       complete(2, 0.5, {{"train.optimizer", 0}, {"train.momentum", 0.9}})};
    const auto pc = parallelCoordinates(optimizerSpace(), trials, "val/loss");
    QCOMPARE(pc.axes.size(), size_t(3));
    QCOMPARE(QString::fromStdString(pc.axes.back().label), QString("val/loss"));
    QCOMPARE(pc.lines.size(), size_t(3));
    QCOMPARE(pc.lines[0].units, (std::vector<double>{0.25, 0.3, 0.0}));
    QVERIFY(std::isnan(pc.lines[1].units[1]));
    QCOMPARE(pc.lines[1].units[2], 1.0);
    QVERIFY(near(pc.lines[2].units[2], 0.75));
  }

  // The four corners of test_importance (y = 0, 1, 0, 3) with one exact tree: the surface is
  // 0 left of x0 = 0.5, and 1 below / 3 above x1 = 0.5 on the right.
  void contourOfOneExactTree() {
    const double corners[4][3] = {{0.25, 0.25, 0}, {0.75, 0.25, 1}, {0.25, 0.75, 0}, {0.75, 0.75, 3}};
    std::vector<Trial> trials;
    for (int i = 0; i < 4; ++i) trials.push_back(complete(i, corners[i][2], {{"x0", corners[i][0]}, {"x1", corners[i][1]}}));
    ContourOptions options;
    options.gridSize = 4;
    options.forest.nTrees = 1;
    options.forest.bootstrap = false;
    const ContourData c = contourData(unitSpace(2), trials, "x0", "x1", options);
    QCOMPARE(c.points.size(), size_t(4));
    QCOMPARE(c.gridSize, 4);
    QCOMPARE(c.gridUnits, (std::vector<double>{0.125, 0.375, 0.625, 0.875}));
    QCOMPARE(c.z, (std::vector<double>{0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 3, 3, 0, 0, 3, 3}));
    QCOMPARE(c.zMin, 0.0);
    QCOMPARE(c.zMax, 3.0);
  }

  // y = x0 + 2 x1 with an irrelevant x2 averaged out: the forest's surface follows the plane.
  void contourFollowsTheObjective() {
    Study study(unitSpace(3), {Direction::Minimize}, std::make_unique<RandomSampler>(), nullptr, 5);
    for (int i = 0; i < 200; ++i) {
      const Trial &t = study.ask();
      study.tell(t.number, {t.params.at("x0") + 2 * t.params.at("x1")});
    }
    ContourOptions options;
    options.gridSize = 10;
    const ContourData c = contourData(study.space(), study.trials(), "x0", "x1", options);
    QCOMPARE(c.z.size(), size_t(100));
    double error = 0;
    for (int j = 0; j < 10; ++j)
      for (int i = 0; i < 10; ++i)
        error += std::abs(c.z[static_cast<size_t>(j * 10 + i)] - (c.gridUnits[static_cast<size_t>(i)] + 2 * c.gridUnits[static_cast<size_t>(j)]));
    QVERIFY2(error / 100 < 0.15, qPrintable(QString::number(error / 100)));
    QVERIFY(c.z[90] > c.z[0] + 1.0);
  }

  void contourRefusesBadKeys() {
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, contourData(unitSpace(2), {}, "x0", "nope"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, contourData(unitSpace(2), {}, "x0", "x0"));
    QCOMPARE(contourData(unitSpace(2), {}, "x0", "x1").gridSize, 0);  // no trials, no surface
  }
};

QTEST_APPLESS_MAIN(TestAnalysis)
#include "test_analysis.moc"
