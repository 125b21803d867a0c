// fANOVA importance and the random forest under it: exact answers on tiny tables, and the
// shares on random studies where the objective's dependence is known.
#include "core/search/analysis_importance.h"
#include "core/search/analysis_table.h"
#include "core/search/random_forest.h"
#include "core/search/random_sampler.h"
#include "core/search/study.h"

#include <QtTest>

#include <cmath>
#include <functional>

using namespace tw::search;

namespace {

SearchSpace unitSpace(int n) {
  SearchSpace space;
  for (int i = 0; i < n; ++i) space.params.push_back({"x" + std::to_string(i), ParamType::Float, 0.0, 1.0});
  return space;
}

std::vector<Trial> randomStudy(const SearchSpace &space, int n, const std::function<double(const Params &)> &f) {
  Study study(space, {Direction::Minimize}, std::make_unique<RandomSampler>(), nullptr, 7);
  for (int i = 0; i < n; ++i) {
    const Trial &t = study.ask();
    study.tell(t.number, {f(t.params)});
  }
  return study.trials();
}

double importanceOf(const std::vector<ParamImportance> &all, const std::string &key) {
  for (const auto &p : all)
    if (p.key == key) return p.importance;
  return -1;
}

ForestOptions oneExactTree() {
  ForestOptions o;
  o.nTrees = 1;
  o.bootstrap = false;
  return o;
}

}  // namespace

class TestImportance : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // Four corners, y = 0, 1, 0, 3. The best first split is x0 at 0.5 (squared error 1 against
  // 2.5 for x1), then x1 at 0.5 on the right: leaves 0 (volume 1/2), 1 and 3 (1/4 each).
  // Mean 1, variance 1.5; x0's marginal is 0 | 2 (variance 1), x1's 0.5 | 1.5 (variance 0.25):
  // fractions 2/3 and 1/6, normalised 0.8 and 0.2.
  void exactTreeOnFourCorners() {
    const std::vector<std::vector<double>> rows = {{0.25, 0.25}, {0.75, 0.25}, {0.25, 0.75}, {0.75, 0.75}};
    const std::vector<double> y = {0, 1, 0, 3};
    RandomForest forest(oneExactTree());
    forest.fit(rows, y, {{0, 1}, {0, 1}});
    const RegressionTree &tree = forest.trees().front();
    QCOMPARE(tree.leaves().size(), size_t(3));
    QCOMPARE(tree.splits(0), std::vector<double>{0.5});
    QCOMPARE(tree.splits(1), std::vector<double>{0.5});
    QCOMPARE(tree.predict({0.9, 0.9}), 3.0);
    QCOMPARE(tree.variance(), 1.5);
    QCOMPARE(tree.marginal({0}, {0.9}), 2.0);
    QCOMPARE(tree.marginal({1}, {0.1}), 0.5);
    QCOMPARE(tree.marginalVariance(0), 1.0);
    QCOMPARE(tree.marginalVariance(1), 0.25);

    Trial t;
    t.state = TrialState::Complete;
    std::vector<Trial> trials;
    for (size_t i = 0; i < rows.size(); ++i) {
      t.number = static_cast<int>(i);
      t.params = {{"x0", rows[i][0]}, {"x1", rows[i][1]}};
      t.values = {y[i]};
      trials.push_back(t);
    }
    ImportanceOptions options;
    options.forest = oneExactTree();
    const auto importances = paramImportances(unitSpace(2), trials, options);
    QCOMPARE(importances.size(), size_t(2));
    QCOMPARE(QString::fromStdString(importances[0].key), QString("x0"));
    QVERIFY(std::abs(importances[0].importance - 0.8) < 1e-12);
    QVERIFY(std::abs(importances[1].importance - 0.2) < 1e-12);
  }

  // y = x0 XOR x1 on the corners: no main effect at all, so nothing to share out.
  void pureInteractionHasNoMainEffect() {
    std::vector<Trial> trials;
    const double corners[4][3] = {{0.25, 0.25, 0}, {0.75, 0.25, 1}, {0.25, 0.75, 1}, {0.75, 0.75, 0}};
    for (int i = 0; i < 4; ++i) {
      Trial t;
      t.number = i;
      t.state = TrialState::Complete;
      t.params = {{"x0", corners[i][0]}, {"x1", corners[i][1]}};
      t.values = {corners[i][2]};
      trials.push_back(t);
    }
    ImportanceOptions options;
    options.forest = oneExactTree();
    for (const auto &p : paramImportances(unitSpace(2), trials, options)) QCOMPARE(p.importance, 0.0);
  }

  void oneParameterAloneMatters() {
    const auto trials = randomStudy(unitSpace(4), 120, [](const Params &p) { return std::sin(6 * p.at("x2")); });
    const auto importances = paramImportances(unitSpace(4), trials);
    QCOMPARE(importances.size(), size_t(4));
    QCOMPARE(QString::fromStdString(importances.front().key), QString("x2"));
    QVERIFY2(importances.front().importance > 0.9, qPrintable(QString::number(importances.front().importance)));
    double sum = 0;
    for (const auto &p : importances) sum += p.importance;
    QVERIFY(std::abs(sum - 1.0) < 1e-9);
  }

  void twoEqualParametersShareHalf() {
    const auto trials = randomStudy(unitSpace(4), 150, [](const Params &p) { return p.at("x0") + p.at("x3"); });
    const auto importances = paramImportances(unitSpace(4), trials);
    const double a = importanceOf(importances, "x0"), b = importanceOf(importances, "x3");
    QVERIFY2(std::abs(a - 0.5) < 0.1 && std::abs(b - 0.5) < 0.1, qPrintable(QString("%1 %2").arg(a).arg(b)));
    QVERIFY(importanceOf(importances, "x1") < 0.05 && importanceOf(importances, "x2") < 0.05);
  }

  void seededForestIsReproducible() {
    const auto trials = randomStudy(unitSpace(3), 40, [](const Params &p) { return p.at("x0") * p.at("x1"); });
    ImportanceOptions options;
    options.forest.seed = 3;
    const auto a = paramImportances(unitSpace(3), trials, options);
    const auto b = paramImportances(unitSpace(3), trials, options);
    for (size_t i = 0; i < a.size(); ++i) QCOMPARE(a[i].importance, b[i].importance);
  }

  // A conditional parameter: inactive rows go below 0 in a band as wide as their share.
  void conditionalParameters() {
    SearchSpace space = unitSpace(2);
    ParamSpec opt{"opt", ParamType::Categorical};
    opt.choices = {"sgd", "adam"};
    space.params.push_back(opt);
    ParamSpec momentum{"momentum", ParamType::Float, 0.0, 1.0};
    momentum.when = {{"opt", {"sgd"}}};
    space.params.push_back(momentum);
    ParamSpec never{"never", ParamType::Float, 0.0, 1.0};
    never.when = {{"opt", {"sgd"}}, {"x0", {"2"}}};  // x0 is never 2: never active
    space.params.push_back(never);

    const auto trials = randomStudy(space, 120, [](const Params &p) {
      return p.count("momentum") ? 4 * p.at("momentum") : 2.0;
    });
    const AnalysisTable table = analysisTable(space, trials);
    QCOMPARE(table.column("never"), -1);
    const int m = table.column("momentum");
    QVERIFY(m >= 0);
    size_t inactive = 0;
    for (const auto &row : table.rows) inactive += row[static_cast<size_t>(m)] < 0;
    QVERIFY(inactive > 0 && inactive < table.rows.size());
    QCOMPARE(table.domain[static_cast<size_t>(m)].low,
             -double(inactive) / double(table.rows.size() - inactive));

    const auto importances = paramImportances(space, trials);
    QCOMPARE(importances.size(), size_t(4));
    // Between them momentum and the optimizer that switches it on explain nearly everything.
    QVERIFY(importanceOf(importances, "momentum") > 0.5);
    QVERIFY(importanceOf(importances, "momentum") + importanceOf(importances, "opt") > 0.9);
  }

  void tooFewTrials() {
    const auto trials = randomStudy(unitSpace(2), 1, [](const Params &p) { return p.at("x0"); });
    QVERIFY(paramImportances(unitSpace(2), trials).empty());
  }
};

QTEST_APPLESS_MAIN(TestImportance)
#include "test_importance.moc"
