// The median, percentile, ASHA and Hyperband pruners against hand-worked histories: which trial
// stops at which epoch, for minimised and maximised objectives.
#include "core/search/asha_pruner.h"
#include "core/search/catalog.h"
#include "core/search/hyperband_pruner.h"
#include "core/search/median_pruner.h"
#include "core/search/random_sampler.h"
#include "core/search/study.h"

#include <QtTest>

#include <cmath>

using namespace tw::search;

namespace {

Trial trial(int number, TrialState state, std::map<int64_t, double> intermediate) {
  Trial t;
  t.number = number;
  t.state = state;
  t.intermediate = std::move(intermediate);
  if (state == TrialState::Complete) t.values = {t.intermediate.rbegin()->second};
  return t;
}

// Five COMPLETE trials reporting 1..5 (trial i reports i + 1 at every epoch), in `sign` * value.
std::vector<Trial> fiveComplete(double sign = 1.0) {
  std::vector<Trial> trials;
  for (int i = 0; i < 5; ++i) {
    const double v = sign * (i + 1);
    trials.push_back(trial(i, TrialState::Complete, {{1, v}, {2, v}, {3, v}, {4, v}, {5, v}}));
  }
  return trials;
}

// Appends a running trial with `reports` and asks `pruner` about its last report.
bool ask(const Pruner &pruner, std::vector<Trial> trials, std::map<int64_t, double> reports,
         Direction direction = Direction::Minimize) {
  const int64_t step = reports.rbegin()->first;
  trials.push_back(trial(static_cast<int>(trials.size()), TrialState::Running, std::move(reports)));
  return pruneNow(pruner, trials, trials.back(), step, direction);
}

SearchSpace oneParam() {
  SearchSpace space;
  space.params.push_back({"x", ParamType::Float, 0.0, 1.0});
  return space;
}

// Runs trials through a Study: each row is a trial's reports at epochs 1, 2, ...; returns, per
// trial, the epoch it was pruned at (0 when it ran to the end).
std::vector<int> runStudy(std::unique_ptr<Pruner> pruner, Direction direction,
                          const std::vector<std::vector<double>> &curves) {
  Study study(oneParam(), {direction}, std::make_unique<RandomSampler>(), std::move(pruner), 1);
  std::vector<int> prunedAt;
  for (const auto &curve : curves) {
    const int number = study.ask().number;
    int stoppedAt = 0;
    for (size_t e = 0; e < curve.size() && !stoppedAt; ++e)
      if (study.report(number, static_cast<int64_t>(e + 1), curve[e])) stoppedAt = static_cast<int>(e + 1);
    if (stoppedAt) study.tellPruned(number);
    else study.tell(number, {curve.back()});
    prunedAt.push_back(stoppedAt);
  }
  return prunedAt;
}

std::vector<std::vector<double>> negated(std::vector<std::vector<double>> curves) {
  for (auto &c : curves)
    for (double &v : c) v = -v;
  return curves;
}

std::unique_ptr<Pruner> make(const std::string &name, const OptionValues &values = {}) {
  const PrunerEntry *entry = findPruner(name);
  if (!entry) return nullptr;
  if (!checkOptions(entry->options, values).empty()) return nullptr;
  return entry->make(values);
}

}  // namespace

class TestPruners : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void catalogListsThePruners() {
    for (const char *name : {"none", "median", "percentile", "asha", "hyperband"}) QVERIFY2(findPruner(name), name);
    QCOMPARE(QString::fromStdString(findPruner("asha")->options[1].defaultText), QString("3"));
    QVERIFY(!checkOptions(findPruner("asha")->options, {{"reduction_factor", "1"}}).empty());
    QVERIFY(!checkOptions(findPruner("percentile")->options, {{"percentile", "101"}}).empty());
  }

  void percentileInterpolates() {
    QCOMPARE(percentileOf({5, 1, 3, 2, 4}, 50), 3.0);
    QCOMPARE(percentileOf({1, 2, 3, 4}, 50), 2.5);
    QCOMPARE(percentileOf({1, 2, 3, 4, 5}, 25), 2.0);
    QCOMPARE(percentileOf({1, 2, 3, 4, NAN}, 100), 4.0);
    QVERIFY(std::isnan(percentileOf({NAN}, 50)));
  }

  // Median of 1..5 at every epoch is 3.
  void medianMinimize_data() {
    QTest::addColumn<double>("report");
    QTest::addColumn<bool>("pruned");
    QTest::newRow("worse than the median") << 3.5 << true;
    QTest::newRow("at the median") << 3.0 << false;
    QTest::newRow("better") << 2.0 << false;
    QTest::newRow("NaN") << double(NAN) << true;
  }
  void medianMinimize() {
    QFETCH(double, report);
    QFETCH(bool, pruned);
    QCOMPARE(ask(*make("median"), fiveComplete(), {{1, report}}), pruned);
  }

  // Maximised: the low ones stop. Values -1..-5, median -3.
  void medianMaximizePrunesTheLowOnes() {
    const auto pruner = make("median");
    QVERIFY(ask(*pruner, fiveComplete(-1), {{1, -3.5}}, Direction::Maximize));
    QVERIFY(!ask(*pruner, fiveComplete(-1), {{1, -2.5}}, Direction::Maximize));
    QVERIFY(!ask(*pruner, fiveComplete(-1), {{1, -3.0}}, Direction::Maximize));
  }

  void medianUsesTheBestSoFar() {
    // Epoch 2 reports 10, above the median 3, but the trial's best so far (1) is below it.
    QVERIFY(!ask(*make("median"), fiveComplete(), {{1, 1.0}, {2, 10.0}}));
    QVERIFY(ask(*make("median"), fiveComplete(), {{1, 4.0}, {2, 10.0}}));
  }

  void medianWaitsForStartupTrials() {
    auto four = fiveComplete();
    four.pop_back();
    four.push_back(trial(4, TrialState::Pruned, {{1, 0.5}}));  // PRUNED trials do not count
    QVERIFY(!ask(*make("median"), four, {{1, 100.0}}));
    QVERIFY(ask(*make("median", {{"n_startup_trials", "4"}}), four, {{1, 100.0}}));
  }

  void medianIgnoresPrunedTrialsValues() {
    auto trials = fiveComplete();
    for (int i = 0; i < 4; ++i) trials.push_back(trial(5 + i, TrialState::Pruned, {{1, 100.0}}));
    // With the pruned ones the median would be 5; without them it is 3.
    QVERIFY(ask(*make("median"), trials, {{1, 4.0}}));
  }

  void medianWarmupAndInterval() {
    const auto warm = make("median", {{"n_warmup_steps", "2"}});
    QVERIFY(!ask(*warm, fiveComplete(), {{1, 9.0}}));
    QVERIFY(!ask(*warm, fiveComplete(), {{1, 9.0}, {2, 9.0}}));
    QVERIFY(ask(*warm, fiveComplete(), {{1, 9.0}, {2, 9.0}, {3, 9.0}}));
    // Every second epoch from the first: epochs 1, 3, 5 are judged, 2 and 4 are not.
    const auto every2 = make("median", {{"interval_steps", "2"}});
    QVERIFY(ask(*every2, fiveComplete(), {{1, 9.0}}));
    QVERIFY(!ask(*every2, fiveComplete(), {{1, 9.0}, {2, 9.0}}));
    QVERIFY(ask(*every2, fiveComplete(), {{1, 9.0}, {2, 9.0}, {3, 9.0}}));
    // A trial that skipped epoch 3 is judged at its next report instead.
    QVERIFY(ask(*every2, fiveComplete(), {{1, 9.0}, {2, 9.0}, {4, 9.0}}));
  }

  void medianNeedsMinTrialsAtTheStep() {
    auto trials = fiveComplete();
    for (auto &t : trials) t.intermediate.erase(2);  // nobody reported epoch 2
    QVERIFY(ask(*make("median"), trials, {{1, 9.0}}));
    QVERIFY(!ask(*make("median"), trials, {{1, 9.0}, {2, 9.0}}));
    QVERIFY(!ask(*make("median", {{"n_min_trials", "6"}}), fiveComplete(), {{1, 9.0}}));
  }

  // The 25th percentile of 1..5 is 2; for a maximised -1..-5 the bar is the 75th, -2.
  void percentileKeepsTheBestQuarter() {
    const auto pruner = make("percentile");
    QVERIFY(ask(*pruner, fiveComplete(), {{1, 2.5}}));
    QVERIFY(!ask(*pruner, fiveComplete(), {{1, 2.0}}));
    QVERIFY(ask(*pruner, fiveComplete(-1), {{1, -2.5}}, Direction::Maximize));
    QVERIFY(!ask(*pruner, fiveComplete(-1), {{1, -2.0}}, Direction::Maximize));
  }

  // Rungs at epochs 1, 3, 9. Worked by hand, trial by trial:
  //  0: epoch 1 value 5, alone at rung 0: best, goes on; epoch 3 value 4, alone at rung 1.
  //  1: epoch 1 value 6 vs {5}: fewer than 3 at the rung, only the best goes on: stops at 1.
  //  2: epoch 1 value 3 vs {5, 6}: best, goes on; epoch 3 value 3.5 vs {4}: goes on.
  //  3: epoch 1 value 4 vs {5, 6, 3}: 4 values, keep the best 4/3 = 1: 3 is; stops at 1.
  //  4: epoch 1 value 2: best of 5, goes on; epoch 3 value 3.8 vs {4, 3.5}: stops at 3.
  //  5: epoch 1 value 2.5 vs {5, 6, 3, 4, 2}: 6 values, keep the best 2 (2, 2.5): goes on;
  //     epoch 3 value 1 goes on; epoch 9 value 0.5 alone at rung 2 goes on; runs to the end.
  void ashaWorkedExample_data() {
    QTest::addColumn<bool>("maximize");
    QTest::newRow("minimize") << false;
    QTest::newRow("maximize, values negated") << true;
  }
  void ashaWorkedExample() {
    QFETCH(bool, maximize);
    std::vector<std::vector<double>> curves = {
        {5, 4.5, 4, 4, 4, 4, 4, 4, 4, 4},
        {6, 6, 6},
        {3, 3.6, 3.5, 3, 3, 3, 3, 3, 3, 3},
        {4, 4},
        {2, 3.9, 3.8, 3},
        {2.5, 2, 1, 1, 1, 1, 1, 1, 0.5, 0.5},
    };
    if (maximize) curves = negated(curves);
    const auto prunedAt = runStudy(make("asha"), maximize ? Direction::Maximize : Direction::Minimize, curves);
    QCOMPARE(prunedAt, (std::vector<int>{0, 1, 0, 1, 3, 0}));
  }

  void ashaEarlyStoppingRateSkipsRungs() {
    // With rate 1 the first rung is epoch 3: trial 1 survives epoch 1 and stops at 3.
    AshaPrunerOptions o;
    o.minEarlyStoppingRate = 1;
    QCOMPARE(ashaRungStep(o, 0), int64_t(3));
    QCOMPARE(ashaRungStep(o, 2), int64_t(27));
    const auto prunedAt = runStudy(std::make_unique<AshaPruner>(o), Direction::Minimize,
                                   {{1, 1, 1, 1}, {9, 9, 9, 9}});
    QCOMPARE(prunedAt, (std::vector<int>{0, 3}));
  }

  void ashaJudgesASkippedRungAtTheNextReport() {
    // Trial 1 reports epochs 1 and 5 only: at 5 it has passed rung 1 (epoch 3) with value 7.
    std::vector<Trial> trials = {trial(0, TrialState::Complete, {{1, 1}, {2, 1}, {3, 1}, {4, 1}, {5, 1}})};
    trials.push_back(trial(1, TrialState::Running, {{1, 0.5}, {5, 7}}));
    const AshaPruner pruner({});
    QVERIFY(!pruneNow(pruner, trials, trials[1], 1, Direction::Minimize));
    QVERIFY(pruneNow(pruner, trials, trials[1], 5, Direction::Minimize));
  }

  void hyperbandBracketsAsOptuna() {
    QCOMPARE(hyperbandBudgets(1, 27, 3), (std::vector<int64_t>{27, 12, 6, 4}));
    QCOMPARE(hyperbandBudgets(1, 26, 3), (std::vector<int64_t>{9, 5, 3}));
    QCOMPARE(hyperbandBudgets(1, 9, 3), (std::vector<int64_t>{9, 5, 3}));
    QCOMPARE(hyperbandBudgets(2, 8, 2), (std::vector<int64_t>{4, 3, 3}));  // rungs 2, 4, 8
    QCOMPARE(hyperbandBudgets(1, 2, 3), (std::vector<int64_t>{1}));
    QVERIFY(hyperbandBudgets(5, 4, 3).empty());
    // Trial numbers split among the brackets in proportion to the budgets.
    const auto budgets = hyperbandBudgets(1, 27, 3);
    std::vector<int> counts(4, 0);
    const int n = 49000;
    for (int i = 0; i < n; ++i) ++counts[static_cast<size_t>(hyperbandBracket(i, budgets))];
    for (size_t b = 0; b < 4; ++b)
      QVERIFY2(std::abs(counts[b] / double(n) - budgets[b] / 49.0) < 0.01, qPrintable(QString::number(counts[b])));
  }

  void hyperbandJudgesWithinABracket() {
    const auto budgets = hyperbandBudgets(1, 27, 3);
    std::vector<int> b0, b1, b3;
    for (int i = 0; b0.size() < 3 || b1.size() < 3 || b3.size() < 2; ++i) {
      const int b = hyperbandBracket(i, budgets);
      if (b == 0 && b0.size() < 3) b0.push_back(i);
      if (b == 1 && b1.size() < 3) b1.push_back(i);
      if (b == 3 && b3.size() < 2) b3.push_back(i);
    }
    const HyperbandPruner pruner({1, 27, 3, 0});
    const auto at = [](int number, std::map<int64_t, double> reports) {
      return trial(number, TrialState::Running, std::move(reports));
    };
    // Bracket 0 (rungs 1, 3, 9): the second trial, worse at epoch 1, stops there.
    std::vector<Trial> trials = {at(b0[0], {{1, 1.0}}), at(b0[1], {{1, 2.0}})};
    QVERIFY(!pruneNow(pruner, trials, trials[0], 1, Direction::Minimize));
    QVERIFY(pruneNow(pruner, trials, trials[1], 1, Direction::Minimize));
    // Bracket 1 (rungs 3, 9): never judged at epoch 1; at epoch 3 its trials compete only
    // with each other, so the first is kept though bracket 0's trial did better there.
    trials = {at(b0[0], {{1, 1.0}, {2, 1.0}, {3, 0.1}}), at(b1[0], {{1, 9.0}}), at(b1[1], {{1, 9.5}})};
    QVERIFY(!pruneNow(pruner, trials, trials[1], 1, Direction::Minimize));
    QVERIFY(!pruneNow(pruner, trials, trials[2], 1, Direction::Minimize));
    trials[1].intermediate.insert({{2, 5.0}, {3, 5.0}});
    QVERIFY(!pruneNow(pruner, trials, trials[1], 3, Direction::Minimize));
    trials[2].intermediate.insert({{2, 6.0}, {3, 6.0}});
    QVERIFY(pruneNow(pruner, trials, trials[2], 3, Direction::Minimize));
    // Maximised, the low one stops.
    QVERIFY(!pruneNow(pruner, trials, trials[2], 3, Direction::Maximize));
    // Bracket 3's only rung is epoch 27, where trials finish: it never prunes there.
    std::map<int64_t, double> full;
    for (int e = 1; e <= 27; ++e) full[e] = 100.0;
    trials = {trial(b3[0], TrialState::Complete, {{27, 0.0}}), trial(b3[1], TrialState::Running, full)};
    QVERIFY(!pruneNow(pruner, trials, trials[1], 27, Direction::Minimize));
    // Plain ASHA with the same rung would stop it.
    AshaPrunerOptions rate3;
    rate3.minEarlyStoppingRate = 3;
    QVERIFY(pruneNow(AshaPruner(rate3), trials, trials[1], 27, Direction::Minimize));
  }

  void hyperbandAutoWaitsForACompleteTrial() {
    const auto budgets = hyperbandBudgets(1, 27, 3);
    std::vector<int> b0;
    for (int i = 0; b0.size() < 3; ++i)
      if (hyperbandBracket(i, budgets) == 0) b0.push_back(i);
    const HyperbandPruner pruner({});  // max_resource 0: auto
    std::vector<Trial> trials = {trial(b0[0], TrialState::Running, {{1, 1.0}}),
                                 trial(b0[1], TrialState::Running, {{1, 2.0}})};
    QVERIFY(!pruneNow(pruner, trials, trials[1], 1, Direction::Minimize));
    // Once a 27-epoch trial has completed the brackets are those of max_resource 27.
    std::map<int64_t, double> full;
    for (int e = 1; e <= 27; ++e) full[e] = 1.0;
    trials[0] = trial(b0[0], TrialState::Complete, full);
    QVERIFY(pruneNow(pruner, trials, trials[1], 1, Direction::Minimize));
  }
};

QTEST_APPLESS_MAIN(TestPruners)
#include "test_pruners.moc"
