#include "core/search/gp_sampler.h"

#include "core/search/catalog.h"
#include "core/search/fill_random.h"
#include "core/search/random_sampler.h"

#include <algorithm>
#include <cmath>

namespace tw::search {

namespace {

// Random streams of one trial's seed: the random phase and the parameters the GP does not model
// draw from stream 0 (so the start-up trials are the random sampler's), the candidates from 1.
constexpr uint64_t kCandidateStream = 1;

bool inFlight(const Trial &t) { return t.state == TrialState::Running || t.state == TrialState::Waiting; }

// The input vector of a trial's params over the modelled parameters; false when one is missing
// (a trial recorded before the space changed, say).
bool encode(const std::vector<const ParamSpec *> &modelled, const Params &params, double *column) {
  for (size_t k = 0; k < modelled.size(); ++k) {
    auto found = params.find(modelled[k]->key);
    if (found == params.end()) return false;
    const ParamSpec &spec = *modelled[k];
    column[k] = spec.type == ParamType::Categorical ? snap(spec, found->second) : toUnit(spec, found->second);
  }
  return true;
}

constexpr int kFreshPointAttempts = 200;

// The modelled parameters of `params` equal those of a trial that is complete, running or waiting.
bool alreadyTaken(const std::vector<const ParamSpec *> &modelled, const Params &params, const SampleContext &ctx) {
  return std::any_of(ctx.trials.begin(), ctx.trials.end(), [&](const Trial &t) {
    if (t.number == ctx.number || !(t.state == TrialState::Complete || inFlight(t))) return false;
    return std::all_of(modelled.begin(), modelled.end(), [&](const ParamSpec *spec) {
      auto mine = params.find(spec->key), theirs = t.params.find(spec->key);
      return mine != params.end() && theirs != t.params.end() && mine->second == theirs->second;
    });
  });
}

}  // namespace

Params GpSampler::sample(const SampleContext &ctx) const {
  Rng rng(Rng::trialSeed(ctx.seed, ctx.number));
  std::vector<const ParamSpec *> modelled;
  for (const auto &spec : ctx.space.params)
    if (spec.when.empty()) modelled.push_back(&spec);
  const std::vector<const Trial *> complete = completeTrials(ctx.trials);
  if (modelled.empty() || static_cast<int>(complete.size()) < std::max(1, m_options.nStartupTrials))
    return sampleRandom(ctx.space, rng);

  const auto d = static_cast<Eigen::Index>(modelled.size());
  GpData data;
  data.categorical.resize(modelled.size());
  std::vector<int> choices(modelled.size(), 0);
  for (size_t k = 0; k < modelled.size(); ++k) {
    data.categorical[k] = modelled[k]->type == ParamType::Categorical;
    if (data.categorical[k]) choices[k] = static_cast<int>(modelled[k]->choices.size());
  }
  data.X.resize(d, static_cast<Eigen::Index>(complete.size()));
  std::vector<double> values;
  for (const Trial *t : complete)
    if (encode(modelled, t->params, data.X.col(static_cast<Eigen::Index>(values.size())).data()))
      values.push_back(t->values.front());
  if (values.empty()) return sampleRandom(ctx.space, rng);
  const auto n = static_cast<Eigen::Index>(values.size());
  data.X.conservativeResize(d, n);

  // Standardise, flipping the sign of a minimised objective so that larger is better.
  const Eigen::Map<const Eigen::VectorXd> raw(values.data(), n);
  const double mean = raw.mean();
  const double sd = std::sqrt((raw.array() - mean).square().sum() / static_cast<double>(n));
  const double sign = ctx.directions.front() == Direction::Minimize ? -1.0 : 1.0;
  data.y = sign * (raw.array() - mean) / std::max(sd, 1e-10);

  const GpKernel kernel = fitKernel(data, m_options.deterministicObjective);
  GpPosterior posterior(data, kernel);
  const double best = data.y.maxCoeff();

  std::vector<const Trial *> running;
  for (const auto &t : ctx.trials)
    if (inFlight(t) && t.number != ctx.number) running.push_back(&t);
  if (!running.empty() && posterior.ok()) {
    GpData believed = data;
    believed.X.conservativeResize(d, n + static_cast<Eigen::Index>(running.size()));
    Eigen::Index m = n;
    for (const Trial *t : running)
      if (encode(modelled, t->params, believed.X.col(m).data())) ++m;
    believed.X.conservativeResize(d, m);
    Eigen::VectorXd believedMean, believedVariance;
    posterior.predict(believed.X.rightCols(m - n), &believedMean, &believedVariance);
    believed.y.conservativeResize(m);
    believed.y.tail(m - n) = believedMean;
    posterior = GpPosterior(std::move(believed), kernel);
  }
  if (!posterior.ok()) return sampleRandom(ctx.space, rng);

  Rng candidateRng(Rng::trialSeed(ctx.seed, ctx.number, kCandidateStream));
  const Eigen::VectorXd x = maximizeLogEi(posterior, best, choices, candidateRng, m_options.acquisition);
  Params fixed;
  for (size_t k = 0; k < modelled.size(); ++k) {
    const double u = x[static_cast<Eigen::Index>(k)];
    fixed[modelled[k]->key] = data.categorical[k] ? snap(*modelled[k], u) : fromUnit(*modelled[k], u);
  }
  // Integers and choices snap the acquisition's optimum onto a grid, where it can land on a point
  // already tried or in flight; evaluating it again teaches the GP nothing (the posterior there is
  // already sharp), so a fresh point is drawn instead while the space has one.
  if (alreadyTaken(modelled, fixed, ctx)) {
    for (int attempt = 0; attempt < kFreshPointAttempts; ++attempt) {
      Params fresh = sampleRandom(ctx.space, candidateRng);
      if (!alreadyTaken(modelled, fresh, ctx)) return fresh;
    }
  }
  return fillRandom(ctx.space, fixed, rng);
}

SamplerEntry gpSamplerEntry() {
  SamplerEntry e;
  e.name = "gp";
  e.doc = "Gaussian-process Bayesian optimisation (Matérn 5/2 with ARD, log expected improvement), as Optuna's "
          "GPSampler; conditional parameters are drawn at random.";
  e.options = {
      {"n_startup_trials", OptionKind::Int, "10", 0.0, std::nullopt, {}, "random trials before the GP takes over"},
      {"deterministic_objective", OptionKind::Bool, "false", std::nullopt, std::nullopt, {},
       "the objective has no noise: fix the GP's noise at its floor instead of fitting it"},
  };
  e.make = [specs = e.options](const OptionValues &values) {
    const OptionReader read(specs, values);
    GpSamplerOptions options;
    options.nStartupTrials = static_cast<int>(read.integer("n_startup_trials"));
    options.deterministicObjective = read.flag("deterministic_objective");
    return std::make_unique<GpSampler>(options);
  };
  return e;
}

}  // namespace tw::search
