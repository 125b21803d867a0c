// The Gaussian-process sampler: its numerics (log EI, the marginal likelihood's gradient, the
// posterior's gradients) checked against direct forms and finite differences, and its search
// against random search on Branin.
#include "core/search/acquisition.h"
#include "core/search/gp_sampler.h"
#include "core/search/random_sampler.h"
#include "test_objectives.h"

#include <QtTest>

#include <cmath>
#include <set>

using namespace tw::search;
using namespace tw::search::testing;

namespace {

GpData smallData(bool withCategorical) {
  Rng rng(11);
  GpData data;
  const int n = 12;
  data.categorical = {false, false};
  if (withCategorical) data.categorical.push_back(true);
  data.X.resize(static_cast<Eigen::Index>(data.categorical.size()), n);
  data.y.resize(n);
  for (int i = 0; i < n; ++i) {
    data.X(0, i) = rng.uniform();
    data.X(1, i) = rng.uniform();
    if (withCategorical) data.X(2, i) = static_cast<double>(rng.below(3));
    data.y[i] = std::sin(6 * data.X(0, i)) + data.X(1, i) * data.X(1, i) + (withCategorical ? 0.3 * data.X(2, i) : 0.0);
  }
  data.y = (data.y.array() - data.y.mean()) / std::sqrt((data.y.array() - data.y.mean()).square().mean());
  return data;
}

SearchSpace mixedSpace() {
  SearchSpace space;
  space.params.push_back({"lr", ParamType::Float, 1e-5, 1.0, true});
  ParamSpec opt{"opt", ParamType::Categorical};
  opt.choices = {"sgd", "adam", "rmsprop"};
  space.params.push_back(opt);
  ParamSpec momentum{"momentum", ParamType::Float, 0.0, 0.9, false, 0.1};
  momentum.when = {{"opt", {"sgd"}}};
  space.params.push_back(momentum);
  space.params.push_back({"n", ParamType::Int, 1, 100});
  return space;
}

double mixedObjective(const Params &p) {
  const double off[] = {0.3, 0.0, 0.1}, c[] = {-1.5, -3.0, -3.5};
  const int o = static_cast<int>(p.at("opt"));
  const double l = std::log10(p.at("lr")) - c[o], n = (p.at("n") - 37) / 25;
  return off[o] + 0.5 * l * l + n * n + (o == 0 ? std::fabs(p.at("momentum") - 0.9) : 0.0);
}

}  // namespace

class TestGpSampler : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void logHMatchesItsDefinition() {
    for (double z : {-20.0, -5.0, -1.0, 0.0, 0.7, 3.0, 8.0}) {
      const double cdf = 0.5 * std::erfc(-z / std::sqrt(2.0));
      const double pdf = std::exp(-0.5 * z * z) / std::sqrt(2 * M_PI);
      QVERIFY2(std::fabs(logH(z) - std::log(z * cdf + pdf)) < 1e-9 * std::max(1.0, std::fabs(logH(z))),
               qPrintable(QString::number(z)));
    }
    // Far below the incumbent EI underflows, its log must not: finite, increasing, and the
    // asymptotic branch joins the direct one.
    double previous = -std::numeric_limits<double>::infinity();
    for (double z = -60.0; z < 0.0; z += 0.5) {
      QVERIFY(std::isfinite(logH(z)));
      QVERIFY(logH(z) > previous);
      previous = logH(z);
    }
    QVERIFY(std::fabs(logH(-25.0 - 1e-9) - logH(-25.0 + 1e-9)) < 1e-6);
    for (double z : {-40.0, -24.0, -3.0, 0.5, 4.0}) {
      const double h = 1e-5 * std::max(1.0, std::fabs(z));
      const double numeric = (logH(z + h) - logH(z - h)) / (2 * h);
      QVERIFY2(std::fabs(logHSlope(z) - numeric) < 1e-5 * std::max(1.0, std::fabs(numeric)),
               qPrintable(QString("z %1: %2 vs %3").arg(z).arg(logHSlope(z)).arg(numeric)));
    }
  }

  void kernelLossGradientMatchesDifferences_data() {
    QTest::addColumn<bool>("categorical");
    QTest::addColumn<bool>("deterministic");
    QTest::newRow("numeric") << false << false;
    QTest::newRow("with a categorical") << true << false;
    QTest::newRow("deterministic") << true << true;
  }
  void kernelLossGradientMatchesDifferences() {
    QFETCH(bool, categorical);
    QFETCH(bool, deterministic);
    const GpData data = smallData(categorical);
    GpKernel k;
    k.inverseSquaredLengthscales = Eigen::VectorXd::LinSpaced(data.X.rows(), 0.7, 3.0);
    k.scale = 1.3;
    k.noise = 0.05;
    const Eigen::VectorXd theta = kernelToVector(k, deterministic);
    Eigen::VectorXd grad;
    kernelLoss(data, theta, deterministic, &grad);
    for (Eigen::Index i = 0; i < theta.size(); ++i) {
      Eigen::VectorXd up = theta, down = theta;
      up[i] += 1e-5;
      down[i] -= 1e-5;
      const double numeric =
          (kernelLoss(data, up, deterministic, nullptr) - kernelLoss(data, down, deterministic, nullptr)) / 2e-5;
      QVERIFY2(std::fabs(grad[i] - numeric) < 1e-4 * std::max(1.0, std::fabs(numeric)),
               qPrintable(QString("theta %1: %2 vs %3").arg(i).arg(grad[i]).arg(numeric)));
    }
  }

  void fitExplainsTheData() {
    const GpData data = smallData(false);
    const GpKernel fitted = fitKernel(data, false);
    const Eigen::VectorXd start = kernelToVector(GpKernel{Eigen::VectorXd::Ones(2), 1.0, 1e-2}, false);
    QVERIFY(kernelLoss(data, kernelToVector(fitted, false), false, nullptr) <
            kernelLoss(data, start, false, nullptr));
    // A smooth noiseless function: the posterior mean nearly interpolates it.
    GpPosterior post(data, fitted);
    QVERIFY(post.ok());
    Eigen::VectorXd mean, variance;
    post.predict(data.X, &mean, &variance);
    QVERIFY2((mean - data.y).cwiseAbs().maxCoeff() < 0.2, qPrintable(QString::number((mean - data.y).cwiseAbs().maxCoeff())));
  }

  void posteriorAndAcquisitionGradientsMatchDifferences() {
    const GpData data = smallData(true);
    GpKernel k;
    k.inverseSquaredLengthscales = Eigen::Vector3d(2.0, 5.0, 1.0);
    k.noise = 1e-3;
    GpPosterior post(data, k);
    QVERIFY(post.ok());
    Eigen::VectorXd x(3);
    x << 0.31, 0.77, 1.0;
    double m, v;
    Eigen::VectorXd dm, dv, g;
    post.predict(x, &m, &v, &dm, &dv);
    const double best = data.y.maxCoeff();
    logExpectedImprovement(m, v, best, &dm, &dv, &g);
    QCOMPARE(dm[2], 0.0);  // no gradient along a categorical input
    for (int j = 0; j < 2; ++j) {
      Eigen::VectorXd up = x, down = x;
      up[j] += 1e-6;
      down[j] -= 1e-6;
      double mu, vu, md, vd;
      post.predict(up, &mu, &vu, nullptr, nullptr);
      post.predict(down, &md, &vd, nullptr, nullptr);
      QVERIFY(std::fabs(dm[j] - (mu - md) / 2e-6) < 1e-5 * std::max(1.0, std::fabs(dm[j])));
      QVERIFY(std::fabs(dv[j] - (vu - vd) / 2e-6) < 1e-5 * std::max(1.0, std::fabs(dv[j])));
      const double numeric = (logExpectedImprovement(mu, vu, best) - logExpectedImprovement(md, vd, best)) / 2e-6;
      QVERIFY(std::fabs(g[j] - numeric) < 1e-4 * std::max(1.0, std::fabs(numeric)));
    }
    // The batch and the single-point predictions agree.
    Eigen::VectorXd mb, vb;
    post.predict(Eigen::MatrixXd(x), &mb, &vb);
    QVERIFY(std::fabs(mb[0] - m) < 1e-12 && std::fabs(vb[0] - v) < 1e-12);
  }

  void beatsRandomOnBranin() {
    std::vector<double> gp, random;
    for (uint64_t seed = 1; seed <= 5; ++seed) {
      gp.push_back(bestAfter("gp", {}, braninSpace(), branin, 30, seed) - kBraninMinimum);
      random.push_back(bestAfter("random", {}, braninSpace(), branin, 30, seed) - kBraninMinimum);
    }
    qInfo("median best regret on Branin after 30 trials: gp %.4f, random %.4f", median(gp), median(random));
    QVERIFY(median(gp) < 0.05);
    QVERIFY(median(gp) < 0.25 * median(random));
  }

  void maximisesWhenAskedTo() {
    const auto negated = [](const Params &p) { return -branin(p); };
    std::vector<double> regret;
    for (uint64_t seed = 1; seed <= 3; ++seed)
      regret.push_back(-bestAfter("gp", {}, braninSpace(), negated, 30, seed, Direction::Maximize) - kBraninMinimum);
    QVERIFY2(median(regret) < 0.05, qPrintable(QString::number(median(regret))));
  }

  void startsRandomlyThenIsDeterministicAndValid() {
    const SearchSpace space = mixedSpace();
    Study a(space, {Direction::Minimize}, findSampler("gp")->make({{"n_startup_trials", "5"}}), nullptr, 7);
    Study b(space, {Direction::Minimize}, findSampler("gp")->make({{"n_startup_trials", "5"}}), nullptr, 7);
    Study random(space, {Direction::Minimize}, findSampler("random")->make({}), nullptr, 7);
    for (int i = 0; i < 20; ++i) {
      const Trial &ta = a.ask();
      const Trial &tb = b.ask();
      const Trial &tr = random.ask();
      QCOMPARE(ta.params, tb.params);
      if (i < 5) QCOMPARE(ta.params, tr.params);  // the start-up trials are the random sampler's
      for (const auto &[key, value] : ta.params) {
        const ParamSpec &spec = *space.find(key);
        QCOMPARE(snap(spec, value), value);
      }
      QCOMPARE(ta.params.count("momentum") == 1, ta.params.at("opt") == 0.0);
      const int number = ta.number;
      a.tell(number, {mixedObjective(ta.params)});
      b.tell(number, {mixedObjective(tb.params)});
      random.tell(number, {mixedObjective(tr.params)});
    }
  }

  // On a grid of 5 integers by 3 choices the acquisition's optimum snaps onto points already
  // tried; the sampler proposes each of the 15 points once before any again (issue 25: the GP
  // sampler could propose the same point twice).
  void neverProposesAPointTwiceWhileTheSpaceHasAnother() {
    SearchSpace space;
    space.params.push_back({"n", ParamType::Int, 0, 4});
    ParamSpec c{"c", ParamType::Categorical};
    c.choices = {"a", "b", "c"};
    space.params.push_back(c);
    Study study(space, {Direction::Minimize},
                findSampler("gp")->make({{"n_startup_trials", "3"}, {"deterministic_objective", "true"}}), nullptr, 4);
    std::set<std::pair<double, double>> seen;
    for (int i = 0; i < 15; ++i) {
      const Trial &t = study.ask();
      const auto point = std::make_pair(t.params.at("n"), t.params.at("c"));
      QVERIFY2(seen.insert(point).second, qPrintable(QStringLiteral("trial %1 repeats n=%2 c=%3")
                                                         .arg(i).arg(point.first).arg(point.second)));
      const int number = t.number;
      study.tell(number, {std::pow(point.first - 2.0, 2) + point.second});
    }
  }

  void trialsInFlightSpreadTheProposals() {
    // Two asks with the same history and seed differ only by the first being in flight when the
    // second is asked: the believer shrinks the variance there, so the second goes elsewhere.
    const SearchSpace space = braninSpace();
    std::vector<Trial> trials;
    Rng rng(5);
    for (int i = 0; i < 12; ++i) {
      Trial t;
      t.number = i;
      t.state = TrialState::Complete;
      t.params = sampleRandom(space, rng);
      t.values = {branin(t.params)};
      trials.push_back(t);
    }
    const std::vector<Direction> dirs = {Direction::Minimize};
    GpSampler sampler;
    Trial running;
    running.number = 12;
    running.state = TrialState::Running;
    running.params = nextTrialParams(sampler, space, dirs, trials, 12, 3);
    trials.push_back(running);
    const Params next = nextTrialParams(sampler, space, dirs, trials, 13, 3);
    const double dx = (next.at("x1") - running.params.at("x1")) / 15, dy = (next.at("x2") - running.params.at("x2")) / 15;
    QVERIFY2(std::sqrt(dx * dx + dy * dy) > 0.02, qPrintable(QString::number(std::sqrt(dx * dx + dy * dy))));
  }

  void catalogEntry() {
    const SamplerEntry *e = findSampler("gp");
    QVERIFY(e);
    QVERIFY(!e->multiObjective);
    QVERIFY(checkOptions(e->options, {{"n_startup_trials", "3"}, {"deterministic_objective", "true"}}).empty());
    QCOMPARE(checkOptions(e->options, {{"n_startup", "3"}}).size(), size_t(1));
  }
};

QTEST_APPLESS_MAIN(TestGpSampler)
#include "test_gp_sampler.moc"
