// TPE: its Parzen densities are densities, its split ranks trials as Optuna's does, it beats
// random search on a simple bowl, it samples only active parameters, and it is a pure function of
// (history, seed).
#include "core/search/catalog.h"
#include "core/search/parzen_estimator.h"
#include "core/search/study.h"
#include "core/search/pareto.h"
#include "core/search/tpe_sampler.h"
#include "core/search/tpe_split.h"
#include "core/search/truncated_normal.h"

#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace tw::search;

namespace {

SearchSpace bowlSpace() {
  SearchSpace space;
  space.params.push_back({"x", ParamType::Float, -5.0, 5.0});
  space.params.push_back({"y", ParamType::Float, -5.0, 5.0});
  return space;
}

double bowl(const Params &p) { return std::pow(p.at("x") - 1.3, 2) + std::pow(p.at("y") + 0.7, 2); }

SearchSpace conditionalSpace() {
  SearchSpace space;
  ParamSpec opt{"opt", ParamType::Categorical};
  opt.choices = {"sgd", "adam"};
  space.params.push_back(opt);
  space.params.push_back({"lr", ParamType::Float, 1e-4, 0.3, true});
  ParamSpec momentum{"momentum", ParamType::Float, 0.0, 0.95};
  momentum.when = {{"opt", {"sgd"}}};
  space.params.push_back(momentum);
  ParamSpec beta{"beta", ParamType::Int, 1, 9, false, 2};
  beta.when = {{"opt", {"adam"}}};
  space.params.push_back(beta);
  return space;
}

double conditionalObjective(const Params &p) {
  const double lr = std::log10(p.at("lr")) + 2;
  return p.count("momentum") ? lr * lr + std::pow(p.at("momentum") - 0.9, 2) : lr * lr + 0.1 * p.at("beta");
}

double medianBest(const std::string &sampler, const OptionValues &options, int trials) {
  std::vector<double> best;
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    Study study(bowlSpace(), {Direction::Minimize}, findSampler(sampler)->make(options), nullptr, seed);
    for (int i = 0; i < trials; ++i) {
      const Trial &t = study.ask();
      study.tell(t.number, {bowl(t.params)});
    }
    best.push_back(study.best()->values[0]);
  }
  std::sort(best.begin(), best.end());
  return 0.5 * (best[4] + best[5]);
}

Trial finished(int number, TrialState state, double value, Params params = {}) {
  Trial t;
  t.number = number;
  t.state = state;
  t.params = std::move(params);
  if (state == TrialState::Complete) t.values = {value};
  return t;
}

}  // namespace

class TestTpeSampler : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void normalPieces() {
    for (double p : {1e-12, 0.001, 0.2, 0.5, 0.9, 0.999999}) QVERIFY(std::fabs(normalCdf(normalQuantile(p)) - p) < 1e-12 * std::max(1.0, p / 1e-3));
    QVERIFY(std::fabs(std::exp(logGaussMass(-1, 2)) - (normalCdf(2) - normalCdf(-1))) < 1e-14);
    // Far in a tail, where the plain difference is 0: log mass stays finite and near the
    // asymptote log phi(a) - log(a) for a = 40.
    const double tail = logGaussMass(40, 41);
    QVERIFY(std::isfinite(tail));
    QVERIFY(std::fabs(tail - (-800 - 0.9189385 - std::log(40.0))) < 0.01);
  }

  // Known answers: Optuna 3.1's _ParzenEstimator.log_pdf on the same observations, printed by
  // /usr/bin/python3. The first four keep parameters on [0, 1], where its space and our unit cube
  // coincide; the mixed rows give Optuna raw values (log float, int, log int widened to
  // [log(low - 0.5), log(high + 0.5)], a categorical counted in the joint bandwidth's d), so they
  // pin our unit-cube transforms to Optuna's, jointly and alone.
  void parzenMatchesOptuna31_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<QVector<double>>("expected");
    QTest::newRow("float") << 0 << QVector<double>{-0.75116873, -0.63216636, -0.60677959, -1.07183843};
    QTest::newRow("float joint") << 1 << QVector<double>{-1.25521518, -1.24485715, -1.21313179, -1.53205324};
    QTest::newRow("stepped int") << 2 << QVector<double>{-1.482321912684, -1.761236143705, -2.253332076583};
    QTest::newRow("float and categorical joint") << 3 << QVector<double>{-1.692091570806, -2.221787171179, -1.764822676002};
    QTest::newRow("mixed joint") << 4
                                 << QVector<double>{-6.848990237454, -7.996751173214, -7.779365696230, -6.937427115569};
    QTest::newRow("log int") << 5 << QVector<double>{-0.787042389565, -1.063132722343, -0.990110245825, -0.943227730433};
  }
  void parzenMatchesOptuna31() {
    QFETCH(int, kind);
    QFETCH(QVector<double>, expected);
    ParamSpec a{"a", ParamType::Float, 0.0, 1.0}, b{"b", ParamType::Float, 0.0, 1.0};
    ParamSpec n{"n", ParamType::Int, 0, 20, false, 4};
    ParamSpec c{"c", ParamType::Categorical};
    c.choices = {"x", "y", "z"};
    ParamSpec opt{"opt", ParamType::Categorical};
    opt.choices = {"sgd", "adam", "rmsprop", "adagrad"};
    ParamSpec lr{"lr", ParamType::Float, 1e-5, 1.0, true}, m{"n", ParamType::Int, 1, 100};
    ParamSpec k{"k", ParamType::Int, 2, 64, true};
    // (opt, lr, n, k) in raw values, as Optuna takes them.
    auto mixed = [&](const std::vector<std::vector<double>> &raw, bool kOnly) {
      std::vector<std::vector<double>> rows;
      for (const auto &r : raw)
        rows.push_back(kOnly ? std::vector<double>{toUnit(k, r[3])}
                             : std::vector<double>{r[0], toUnit(lr, r[1]), toUnit(m, r[2]), toUnit(k, r[3])});
      return rows;
    };
    const std::vector<std::vector<double>> mixedObs{
        {1, 1e-3, 37, 8}, {2, 3e-4, 50, 2}, {0, 0.03, 10, 64}, {1, 1e-4, 40, 16}, {3, 0.5, 99, 5}};
    const std::vector<std::vector<double>> mixedAt{{1, 1e-3, 37, 8}, {0, 1e-5, 1, 2}, {3, 0.2, 70, 30}, {2, 5e-4, 45, 3}};
    ParzenOptions options;
    options.multivariate = kind == 1 || kind == 3 || kind == 4;
    std::vector<const ParamSpec *> specs;
    std::vector<std::vector<double>> obs, at;
    switch (kind) {
      case 0:
        specs = {&a}, obs = {{0.1}, {0.5}, {0.7}}, at = {{0.05}, {0.3}, {0.65}, {0.99}};
        break;
      case 1:
        specs = {&a, &b}, obs = {{0.1, 0.2}, {0.5, 0.9}, {0.7, 0.3}};
        at = {{0.05, 0.1}, {0.3, 0.5}, {0.65, 0.2}, {0.99, 0.99}};
        break;
      case 2:
        specs = {&n}, obs = {{toUnit(n, 0)}, {toUnit(n, 4)}, {toUnit(n, 16)}};
        at = {{toUnit(n, 0)}, {toUnit(n, 8)}, {toUnit(n, 20)}};
        break;
      case 3:
        specs = {&a, &c}, obs = {{0.1, 0}, {0.5, 0}, {0.7, 2}}, at = {{0.05, 0}, {0.3, 1}, {0.65, 2}};
        break;
      case 4:
        specs = {&opt, &lr, &m, &k}, obs = mixed(mixedObs, false), at = mixed(mixedAt, false);
        break;
      case 5:
        specs = {&k}, obs = mixed(mixedObs, true), at = mixed(mixedAt, true);
        break;
    }
    const ParzenEstimator pe(specs, obs, options);
    const auto got = pe.logPdf(at);
    for (int i = 0; i < expected.size(); ++i)
      QVERIFY2(std::fabs(got[size_t(i)] - expected[i]) < 1e-7, qPrintable(QString("%1: %2").arg(i).arg(got[size_t(i)], 0, 'g', 12)));
    // Draws are values the parameters can take.
    Rng rng(3);
    for (const auto &s : pe.sample(rng, 50))
      for (size_t j = 0; j < specs.size(); ++j) QCOMPARE(snapUnit(*specs[j], s[j]), s[j]);
  }

  // A joint draw takes one kernel for all its parameters (Optuna's `active`), so it keeps the
  // observations' pairing: observations at two opposite corners, no prior, and the draws stay near
  // those corners. Drawing each parameter's kernel apart would pair them about a quarter of the time.
  void jointDrawSharesOneKernel() {
    ParamSpec a{"a", ParamType::Float, 0.0, 1.0}, b{"b", ParamType::Float, 0.0, 1.0};
    ParamSpec c{"c", ParamType::Categorical};
    c.choices = {"x", "y"};
    ParzenOptions options;
    options.multivariate = true;
    options.considerPrior = false;
    std::vector<std::vector<double>> obs;
    for (int i = 0; i < 10; ++i) obs.push_back({0.05, 0.05, 0}), obs.push_back({0.95, 0.95, 1});
    // Bandwidth 0.2 * 20^(-1/7) = 0.13; a categorical kernel keeps 1.05 / 1.1 on its own choice.
    const ParzenEstimator pe({&a, &b, &c}, obs, options);
    Rng rng(5);
    int paired = 0;
    for (const auto &s : pe.sample(rng, 400)) {
      const bool low = s[0] < 0.5;
      paired += (low == (s[1] < 0.5) && low == (s[2] == 0)) ? 1 : 0;
    }
    QVERIFY2(paired > 340, qPrintable(QString("%1 of 400 paired").arg(paired)));
  }

  void discreteMassesSumToOne() {
    ParamSpec n{"n", ParamType::Int, 0, 20, false, 4};
    ParamSpec c{"c", ParamType::Categorical};
    c.choices = {"x", "y", "z"};
    for (const ParamSpec *spec : {&n, &c}) {
      std::vector<std::vector<double>> obs, all;
      for (double v : {0.0, 1.0, 1.0}) obs.push_back({spec == &n ? toUnit(n, 4 * v) : v});
      for (int i = 0; i < (spec == &n ? 6 : 3); ++i) all.push_back({spec == &n ? toUnit(n, 4.0 * i) : double(i)});
      double total = 0;
      for (double lp : ParzenEstimator({spec}, obs, ParzenOptions{}).logPdf(all)) total += std::exp(lp);
      QVERIFY(std::fabs(total - 1) < 1e-9);
    }
  }

  void weightsRampAfter25() {
    QCOMPARE(defaultTpeWeights(10), std::vector<double>(10, 1.0));
    const auto w = defaultTpeWeights(30);
    QCOMPARE(w.front(), 1.0 / 30);
    QCOMPARE(w[4], 1.0);
    QVERIFY(w[1] > w[0] && w[3] > w[2]);
  }

  void splitRanksPrunedAndRunningAsOptuna() {
    SearchSpace space = bowlSpace();
    std::vector<Trial> trials;
    trials.push_back(finished(0, TrialState::Complete, 5.0));
    trials.push_back(finished(1, TrialState::Pruned, -100.0));  // pruned at step 1 with a great value
    trials[1].intermediate = {{0, 3.0}, {1, -100.0}};
    trials.push_back(finished(2, TrialState::Complete, 1.0));
    trials.push_back(finished(3, TrialState::Pruned, 0));
    trials[3].intermediate = {{0, -200.0}};  // pruned earlier: ranks after the one pruned at step 1
    trials.push_back(finished(4, TrialState::Running, 0));
    trials.push_back(finished(5, TrialState::Failed, 0));
    const std::vector<Direction> dirs{Direction::Minimize};
    const SampleContext ctx{space, dirs, trials, 6, 1};
    auto obs = tpeObservations(ctx, false);
    QCOMPARE(obs.size(), size_t(4));
    std::vector<size_t> below, above;
    splitObservations(obs, 3, &below, &above);
    QCOMPARE(below, (std::vector<size_t>{0, 1, 2}));  // both COMPLETE, then the later-pruned
    QCOMPARE(above, (std::vector<size_t>{3}));
    obs = tpeObservations(ctx, true);  // constant liar: the running trial counts, as the worst
    QCOMPARE(obs.size(), size_t(5));
    splitObservations(obs, 4, &below, &above);
    QCOMPARE(above, (std::vector<size_t>{4}));
    QCOMPARE(tpeGamma(9), size_t(1));
    QCOMPARE(tpeGamma(100), size_t(10));
    QCOMPARE(tpeGamma(1000), size_t(25));
  }

  void multiObjectiveSplitByFronts() {
    const std::vector<std::vector<double>> losses{{1, 5}, {2, 2}, {5, 1}, {3, 3}, {6, 6}, {2, 4}};
    QCOMPARE(nonDominatedRanks(losses, std::vector<Direction>(2, Direction::Minimize)), (std::vector<int>{0, 0, 0, 1, 2, 1}));
    SearchSpace space = bowlSpace();
    std::vector<Trial> trials;
    for (size_t i = 0; i < losses.size(); ++i) {
      trials.push_back(finished(int(i), TrialState::Complete, 0));
      trials.back().values = {losses[i][0], -losses[i][1]};  // second objective maximised
    }
    const std::vector<Direction> dirs{Direction::Minimize, Direction::Maximize};
    const SampleContext ctx{space, dirs, trials, 6, 1};
    std::vector<size_t> below, above;
    splitObservations(tpeObservations(ctx, false), 3, &below, &above);
    QCOMPARE(below, (std::vector<size_t>{0, 1, 2}));
    // A two-objective study runs end to end.
    Study study(space, dirs, findSampler("tpe")->make({{"n_startup_trials", "5"}}), nullptr, 4);
    for (int i = 0; i < 20; ++i) {
      const Trial &t = study.ask();
      study.tell(t.number, {t.params.at("x"), t.params.at("y")});
    }
    QCOMPARE(study.trials().size(), size_t(20));
  }

  void beatsRandomOnABowl_data() {
    QTest::addColumn<QString>("multivariate");
    QTest::newRow("independent") << "false";
    QTest::newRow("multivariate") << "true";
  }
  void beatsRandomOnABowl() {
    QFETCH(QString, multivariate);
    const double tpe = medianBest("tpe", {{"multivariate", multivariate.toStdString()}}, 40);
    const double random = medianBest("random", {}, 40);
    QVERIFY2(tpe < 0.5 * random, qPrintable(QString("tpe %1, random %2").arg(tpe).arg(random)));
  }

  void samplesOnlyActiveParameters_data() {
    QTest::addColumn<QString>("mode");
    QTest::newRow("independent") << "independent";
    QTest::newRow("multivariate") << "multivariate";
    QTest::newRow("group") << "group";
  }
  void samplesOnlyActiveParameters() {
    QFETCH(QString, mode);
    OptionValues options{{"n_startup_trials", "5"}};
    options["multivariate"] = mode == "independent" ? "false" : "true";
    options["group"] = mode == "group" ? "true" : "false";
    const SearchSpace space = conditionalSpace();
    auto sampler = findSampler("tpe")->make(options);
    Study study(space, {Direction::Minimize}, findSampler("tpe")->make(options), nullptr, 11);
    int sgd = 0;
    for (int i = 0; i < 30; ++i) {
      // Ask the sampler itself, before Study cuts anything: it must propose the active keys only.
      const std::vector<Direction> dirs{Direction::Minimize};
      const SampleContext ctx{space, dirs, study.trials(), i, 11};
      const Params raw = sampler->sample(ctx);
      Params active;
      for (const auto &spec : space.params)
        if (isActive(spec, space, raw) && raw.count(spec.key)) active[spec.key] = raw.at(spec.key);
      QCOMPARE(raw.size(), active.size());
      QCOMPARE(raw.size(), size_t(3));
      const Trial &t = study.ask();
      QCOMPARE(t.params, raw);
      sgd += t.params.count("momentum") ? 1 : 0;
      study.tell(t.number, {conditionalObjective(t.params)});
    }
    QVERIFY(sgd > 0 && sgd < 30);
  }

  void deterministicPerSeed() {
    auto run = [](uint64_t seed, const OptionValues &options) {
      Study study(conditionalSpace(), {Direction::Minimize}, findSampler("tpe")->make(options), nullptr, seed);
      std::vector<Params> asked;
      for (int i = 0; i < 25; ++i) {
        const Trial &t = study.ask();
        asked.push_back(t.params);
        study.tell(t.number, {conditionalObjective(t.params)});
      }
      return asked;
    };
    for (const OptionValues &o : {OptionValues{}, OptionValues{{"multivariate", "false"}}}) {
      QCOMPARE(run(5, o), run(5, o));
      QVERIFY(run(5, o) != run(6, o));
    }
  }

  // The default (catalog.cpp, chosen by tests/bench/bench_samplers.sh) is the multivariate TPE with
  // group; multivariate: false is the independent TPE (a sweep file that also asks for group is
  // refused: test_sweep_file).
  void defaultIsMultivariateWithGroup() {
    QCOMPARE(defaultSamplerName(), std::string("tpe"));
    QCOMPARE(defaultSamplerText(), std::string("tpe {multivariate: true, group: true}"));
    auto options = [](const OptionValues &values) {
      auto sampler = findSampler("tpe")->make(values);
      return dynamic_cast<const TpeSampler &>(*sampler).options();
    };
    QVERIFY(options({}).multivariate && options({}).group);
    QVERIFY(options({{"group", "false"}}).multivariate && !options({{"group", "false"}}).group);
    QVERIFY(!options({{"multivariate", "false"}}).multivariate && !options({{"multivariate", "false"}}).group);
    auto run = [](const OptionValues &values) {
      Study study(conditionalSpace(), {Direction::Minimize}, findSampler("tpe")->make(values), nullptr, 3);
      std::vector<Params> asked;
      for (int i = 0; i < 20; ++i) {
        const Trial &t = study.ask();
        asked.push_back(t.params);
        study.tell(t.number, {conditionalObjective(t.params)});
      }
      return asked;
    };
    QCOMPARE(run({{"multivariate", "false"}, {"group", "true"}}), run({{"multivariate", "false"}, {"group", "false"}}));
    QVERIFY(run({}) != run({{"multivariate", "false"}}));
  }

  void constantLiarCountsTrialsInFlight() {
    // The same seed, trial number and history, with trial 12 either in flight or failed. Without
    // the liar both are ignored, so the proposal is the same; with it, the in-flight trial joins
    // the bad set as the worst and the proposal moves.
    Study study(bowlSpace(), {Direction::Minimize}, findSampler("random")->make({}), nullptr, 2);
    for (int i = 0; i < 12; ++i) {
      const Trial &t = study.ask();
      study.tell(t.number, {bowl(t.params)});
    }
    std::vector<Trial> running = study.trials();
    Trial inFlight;
    inFlight.number = 12;
    inFlight.params = {{"x", 1.3}, {"y", -0.7}};  // at the bowl's bottom, where l would lead
    running.push_back(inFlight);
    std::vector<Trial> failed = running;
    failed.back().state = TrialState::Failed;
    const std::vector<Direction> dirs{Direction::Minimize};
    auto plain = findSampler("tpe")->make({});
    auto liar = findSampler("tpe")->make({{"constant_liar", "true"}});
    QCOMPARE(nextTrialParams(*plain, bowlSpace(), dirs, running, 13, 2),
             nextTrialParams(*plain, bowlSpace(), dirs, failed, 13, 2));
    QVERIFY(nextTrialParams(*liar, bowlSpace(), dirs, running, 13, 2) !=
            nextTrialParams(*liar, bowlSpace(), dirs, failed, 13, 2));
  }
};

QTEST_APPLESS_MAIN(TestTpeSampler)
#include "test_tpe_sampler.moc"
