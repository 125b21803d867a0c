// NSGA-II and the Pareto tools it shares with the analysis: non-dominated ranks on known
// examples, and on ZDT1 a hypervolume above random search's.
#include "core/search/nsga2_sampler.h"
#include "core/search/pareto.h"
#include "test_objectives.h"

#include <QtTest>

using namespace tw::search;
using namespace tw::search::testing;

namespace {

SearchSpace zdtSpace() {
  SearchSpace space;
  for (int k = 0; k < 3; ++k) space.params.push_back({"x" + std::to_string(k), ParamType::Float, 0.0, 1.0});
  return space;
}

// ZDT1 with 3 variables: front f2 = 1 - sqrt(f1) where x1 = x2 = 0.
std::vector<double> zdt1(const Params &p) {
  const double f1 = p.at("x0");
  const double g = 1.0 + 9.0 / 2.0 * (p.at("x1") + p.at("x2"));
  return {f1, g * (1.0 - std::sqrt(f1 / g))};
}

// The area dominated by the front (both minimised) below the reference point.
double hypervolume(std::vector<std::vector<double>> points, double r1, double r2) {
  std::sort(points.begin(), points.end());
  double area = 0, lastF2 = r2;
  for (const auto &p : points) {
    if (p[0] >= r1 || p[1] >= lastF2) continue;
    area += (r1 - p[0]) * (lastF2 - p[1]);
    lastF2 = p[1];
  }
  return area;
}

double zdtHypervolume(const std::string &sampler, const OptionValues &options, uint64_t seed) {
  const std::vector<Direction> dirs = {Direction::Minimize, Direction::Minimize};
  Study study(zdtSpace(), dirs, findSampler(sampler)->make(options), nullptr, seed);
  for (int i = 0; i < 500; ++i) {
    const Trial &t = study.ask();
    const int number = t.number;
    study.tell(number, zdt1(t.params));
  }
  std::vector<std::vector<double>> front;
  for (const Trial *t : paretoFront(study.trials(), dirs)) front.push_back(t->values);
  return hypervolume(front, 1.1, 1.1);
}

}  // namespace

class TestNsga2Sampler : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void ranksKnownExamples() {
    const std::vector<Direction> minMin = {Direction::Minimize, Direction::Minimize};
    QCOMPARE(nonDominatedRanks({{0.1, 5}, {0.2, 3}, {0.3, 6}, {0.4, 7}, {0.1, 5}}, minMin),
             (std::vector<int>{0, 0, 1, 2, 0}));
    // Maximising the second objective turns the order of the fronts around.
    QCOMPARE(nonDominatedRanks({{1, 1}, {2, 2}, {3, 3}}, {Direction::Minimize, Direction::Maximize}),
             (std::vector<int>{0, 0, 0}));
    QCOMPARE(nonDominatedRanks({{1, 1}, {2, 2}, {3, 3}}, minMin), (std::vector<int>{0, 1, 2}));
    QVERIFY(dominates({1, 1}, {1, 2}, minMin));
    QVERIFY(!dominates({1, 2}, {1, 2}, minMin));
    QVERIFY(nonDominatedRanks({}, minMin).empty());
  }

  void paretoFrontKeepsCompleteNonDominatedTrials() {
    const std::vector<Direction> dirs = {Direction::Maximize, Direction::Minimize};  // accuracy, parameters
    std::vector<Trial> trials(5);
    const std::vector<std::vector<double>> values = {{0.90, 1e5}, {0.92, 3e5}, {0.91, 4e5}, {0.95, 9e5}, {0.99, 1e4}};
    for (int i = 0; i < 5; ++i) {
      trials[size_t(i)].number = i;
      trials[size_t(i)].state = TrialState::Complete;
      trials[size_t(i)].values = values[size_t(i)];
    }
    trials[4].state = TrialState::Pruned;  // would dominate everything, but never finished
    const auto front = paretoFront(trials, dirs);
    QCOMPARE(front.size(), size_t(3));
    QCOMPARE(front[0]->number, 0);
    QCOMPARE(front[1]->number, 1);
    QCOMPARE(front[2]->number, 3);
  }

  void beatsRandomOnZdt1_data() {
    QTest::addColumn<QString>("crossover");
    QTest::newRow("uniform") << "uniform";
    QTest::newRow("sbx") << "sbx";
  }
  void beatsRandomOnZdt1() {
    QFETCH(QString, crossover);
    std::vector<double> nsga, random;
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      nsga.push_back(zdtHypervolume("nsga2", {{"crossover", crossover.toStdString()}}, seed));
      random.push_back(zdtHypervolume("random", {}, seed));
    }
    // The true front's hypervolume with this reference point: (0.1 + 2/3) + 0.1 * 1.1 = 0.877.
    qInfo("ZDT1 (3 variables) hypervolume after 500 trials, median: nsga2 (%s) %.4f, random %.4f",
          qPrintable(crossover), median(nsga), median(random));
    QVERIFY(median(nsga) > median(random) + 0.1);
  }

  void generationsComeFromTrialNumbers() {
    // Generation 0 is random; trial 10 of a population of 10 breeds from the first ten, and the
    // same history and seed give the same child.
    const SearchSpace space = zdtSpace();
    const std::vector<Direction> dirs = {Direction::Minimize, Direction::Minimize};
    Nsga2SamplerOptions options;
    options.populationSize = 10;
    options.mutationProb = 1e-9;  // no mutation: every value is inherited
    const Nsga2Sampler sampler(options);
    std::vector<Trial> trials;
    for (int i = 0; i < 10; ++i) {
      Trial t;
      t.number = i;
      t.state = TrialState::Complete;
      t.params = nextTrialParams(sampler, space, dirs, trials, i, 3);
      t.values = zdt1(t.params);
      trials.push_back(t);
    }
    const Params child = nextTrialParams(sampler, space, dirs, trials, 10, 3);
    QCOMPARE(nextTrialParams(sampler, space, dirs, trials, 10, 3), child);
    for (const auto &[key, value] : child) {
      bool inherited = false;
      for (const Trial &t : trials) inherited = inherited || t.params.at(key) == value;
      QVERIFY2(inherited, key.c_str());
    }
  }

  void catalogEntry() {
    const SamplerEntry *e = findSampler("nsga2");
    QVERIFY(e && e->multiObjective);
    QVERIFY(checkOptions(e->options, {{"population_size", "20"}, {"crossover", "sbx"}}).empty());
    QCOMPARE(checkOptions(e->options, {{"crossover", "blend"}}).size(), size_t(1));
  }
};

QTEST_APPLESS_MAIN(TestNsga2Sampler)
#include "test_nsga2_sampler.moc"
