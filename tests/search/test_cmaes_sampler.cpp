// CMA-ES: the update itself on a sphere, and the sampler rebuilt from the trials on each ask:
// it converges, it is a pure function of the history, and it leaves categoricals to chance.
#include "core/search/cmaes.h"
#include "core/search/cmaes_sampler.h"
#include "test_objectives.h"

#include <QtTest>

#include <set>

using namespace tw::search;
using namespace tw::search::testing;

namespace {

SearchSpace sphereSpace(int n) {
  SearchSpace space;
  for (int k = 0; k < n; ++k) space.params.push_back({"x" + std::to_string(k), ParamType::Float, -5.0, 5.0});
  return space;
}

// Off-centre, so that the start (the middle of the cube) is not the answer.
double sphere(const Params &p) {
  double s = 0;
  for (const auto &[key, v] : p)
    if (key[0] == 'x') s += (v - 1.5) * (v - 1.5);
  return s;
}

}  // namespace

class TestCmaesSampler : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void updateConvergesOnASphere() {
    Rng rng(1);
    Cmaes cma(Eigen::VectorXd::Constant(4, 3.0), 1.0, Cmaes::defaultPopsize(4));
    QCOMPARE(cma.popsize(), 8);
    for (int g = 0; g < 150; ++g) {
      std::vector<Eigen::VectorXd> xs;
      std::vector<double> fs;
      for (int i = 0; i < cma.popsize(); ++i) {
        xs.push_back(cma.sample(rng));
        fs.push_back(xs.back().squaredNorm());
      }
      cma.tell(xs, fs);
    }
    QVERIFY2(cma.mean().norm() < 1e-6, qPrintable(QString::number(cma.mean().norm())));
    QCOMPARE(cma.generation(), 150);
  }

  void reachesTheSphereMinimumFarBelowRandom() {
    std::vector<double> cma, random;
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      cma.push_back(bestAfter("cmaes", {}, sphereSpace(6), sphere, 300, seed));
      random.push_back(bestAfter("random", {}, sphereSpace(6), sphere, 300, seed));
    }
    qInfo("6-D sphere after 300 trials, median best: cmaes %.2e, random %.3f", median(cma), median(random));
    QVERIFY(median(cma) < 0.05);
    QVERIFY(median(cma) < 0.01 * median(random));
  }

  void isAPureFunctionOfTheHistory() {
    // Two studies with the same seed ask the same; replaying the history of one into a fresh
    // ask (as a resumed sweep does) gives what the uninterrupted study asked next.
    const SearchSpace space = sphereSpace(3);
    Study a(space, {Direction::Minimize}, findSampler("cmaes")->make({}), nullptr, 4);
    Study b(space, {Direction::Minimize}, findSampler("cmaes")->make({}), nullptr, 4);
    for (int i = 0; i < 40; ++i) {
      const Trial &ta = a.ask();
      const Trial &tb = b.ask();
      QCOMPARE(ta.params, tb.params);
      const int number = ta.number;
      a.tell(number, {sphere(ta.params)});
      b.tell(number, {sphere(tb.params)});
    }
    const CmaesSampler sampler;
    const Params resumed = nextTrialParams(sampler, space, a.directions(), a.trials(), 40, 4);
    QCOMPARE(a.ask().params, resumed);
    // A different seed asks differently.
    QVERIFY(nextTrialParams(sampler, space, a.directions(), a.trials(), 40, 5) != resumed);
  }

  void generationsFollowToldTrials() {
    // popsize 4 on 2 params: the distribution moves only when a generation of four is complete,
    // and a trial in flight neither moves it nor counts.
    const SearchSpace space = sphereSpace(2);
    const CmaesSampler sampler(CmaesSamplerOptions{4, 0.0, 0});
    const std::vector<Direction> dirs = {Direction::Minimize};
    std::vector<Trial> trials;
    for (int i = 0; i < 3; ++i) {
      Trial t;
      t.number = i;
      t.state = TrialState::Complete;
      t.params = nextTrialParams(sampler, space, dirs, trials, i, 9);
      t.values = {sphere(t.params)};
      trials.push_back(t);
    }
    Trial running;
    running.number = 3;
    running.state = TrialState::Running;
    running.params = nextTrialParams(sampler, space, dirs, trials, 3, 9);
    trials.push_back(running);
    // Trial 4 comes from the first distribution still: the same as with no history at all.
    QCOMPARE(nextTrialParams(sampler, space, dirs, trials, 4, 9), nextTrialParams(sampler, space, dirs, {}, 4, 9));
    trials[3].state = TrialState::Complete;
    trials[3].values = {sphere(trials[3].params)};
    QVERIFY(nextTrialParams(sampler, space, dirs, trials, 4, 9) != nextTrialParams(sampler, space, dirs, {}, 4, 9));
  }

  void categoricalsAreDrawnAtRandom() {
    SearchSpace space = sphereSpace(2);
    ParamSpec choice{"act", ParamType::Categorical};
    choice.choices = {"relu", "tanh", "gelu"};
    space.params.push_back(choice);
    Study study(space, {Direction::Minimize}, findSampler("cmaes")->make({}), nullptr, 2);
    std::set<double> seen;
    for (int i = 0; i < 60; ++i) {
      const Trial &t = study.ask();
      seen.insert(t.params.at("act"));
      const int number = t.number;
      study.tell(number, {sphere(t.params) + t.params.at("act")});
    }
    QCOMPARE(seen.size(), size_t(3));
    QVERIFY(!findSampler("cmaes")->categorical);
  }
};

QTEST_APPLESS_MAIN(TestCmaesSampler)
#include "test_cmaes_sampler.moc"
