// The grid sampler: every active combination exactly once, in-flight trials holding theirs, and a
// seeded repeat once the grid is spent.
#include "core/search/catalog.h"
#include "core/search/grid_sampler.h"
#include "core/search/study.h"

#include <QtTest>

#include <set>

using namespace tw::search;

namespace {

// 3 ints x (opt = a: 3 lr points x 2 momenta | opt = b: nothing more) x 3 stepped widths.
SearchSpace conditionalSpace() {
  SearchSpace space;
  space.params.push_back({"n", ParamType::Int, 1, 3});
  ParamSpec opt{"opt", ParamType::Categorical};
  opt.choices = {"a", "b"};
  space.params.push_back(opt);
  ParamSpec lr{"lr", ParamType::Float, 1e-3, 1e-1, true};
  lr.when = {{"opt", {"a"}}};
  space.params.push_back(lr);
  ParamSpec momentum{"momentum", ParamType::Float, 0.0, 0.5, false, 0.5};
  momentum.when = {{"opt", {"a"}}};
  space.params.push_back(momentum);
  space.params.push_back({"width", ParamType::Float, 0.0, 1.0, false, 0.5});
  return space;
}

std::string text(const SearchSpace &space, const Params &params) {
  std::string out;
  for (const auto &[k, v] : params) out += k + "=" + valueText(*space.find(k), v) + ";";
  return out;
}

std::unique_ptr<Sampler> grid(int points) {
  return findSampler("grid")->make({{"points_per_float", std::to_string(points)}});
}

}  // namespace

class TestGridSampler : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void axisValues() {
    ParamSpec lr{"lr", ParamType::Float, 1e-3, 1e-1, true};
    const auto v = gridValues(lr, 3);
    QCOMPARE(v.size(), size_t(3));
    QCOMPARE(v[0], 1e-3);
    QVERIFY(std::fabs(v[1] - 1e-2) < 1e-12);
    QCOMPARE(v[2], 1e-1);
    const auto w = gridValues({"w", ParamType::Int, 32, 512, false, 32}, 5);
    QCOMPARE(w.size(), size_t(16));
    QCOMPARE(w.back(), 512.0);
  }

  void everyCombinationExactlyOnce() {
    const SearchSpace space = conditionalSpace();
    QVERIFY(checkSpace(space).empty());
    const size_t expected = 3 * (3 * 2 + 1) * 3;
    Study study(space, {Direction::Minimize}, grid(3), nullptr, 7);
    std::set<std::string> seen;
    for (size_t i = 0; i < expected; ++i) {
      const Trial &t = study.ask();
      QVERIFY2(seen.insert(text(space, t.params)).second, text(space, t.params).c_str());
      // Inactive parameters never appear.
      QCOMPARE(t.params.count("lr") == 1, valueText(*space.find("opt"), t.params.at("opt")) == "a");
      if (i % 3 == 0) study.tellFailed(t.number, "a failed trial keeps its combination");
      else study.tell(t.number, {double(i)});
    }
    QCOMPARE(seen.size(), expected);
    // The grid is spent: further trials repeat combinations from it, seeded.
    const Trial extra = study.ask();
    QVERIFY(seen.count(text(space, extra.params)));
  }

  void runningTrialsHoldTheirCombinations() {
    const SearchSpace space = conditionalSpace();
    Study study(space, {Direction::Minimize}, grid(2), nullptr, 1);
    std::set<std::string> seen;
    for (int i = 0; i < 12; ++i) QVERIFY(seen.insert(text(space, study.ask().params)).second);  // none told
  }

  void exhaustedRepeatsAreSeeded() {
    SearchSpace space;
    space.params.push_back({"n", ParamType::Int, 0, 1});
    std::vector<Trial> trials(2);
    trials[0].number = 0, trials[0].params = {{"n", 0}};
    trials[1].number = 1, trials[1].params = {{"n", 1}};
    const std::vector<Direction> dirs{Direction::Minimize};
    auto sampler = grid(5);
    const Params a = nextTrialParams(*sampler, space, dirs, trials, 2, 5);
    const Params b = nextTrialParams(*sampler, space, dirs, trials, 2, 5);
    QCOMPARE(a, b);
  }
};

QTEST_APPLESS_MAIN(TestGridSampler)
#include "test_grid_sampler.moc"
