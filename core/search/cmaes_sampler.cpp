#include "core/search/cmaes_sampler.h"

#include "core/search/catalog.h"
#include "core/search/cmaes.h"
#include "core/search/fill_random.h"
#include "core/search/random_sampler.h"

namespace tw::search {

namespace {

// Stream 0 of a trial's seed draws the parameters CMA-ES does not model (and the start-up trials,
// which are then the random sampler's); stream 1 the CMA-ES draw.
constexpr uint64_t kCmaStream = 1;
constexpr int kMaxRedraws = 100;

}  // namespace

Params CmaesSampler::sample(const SampleContext &ctx) const {
  Rng rng(Rng::trialSeed(ctx.seed, ctx.number));
  std::vector<const ParamSpec *> modelled;
  for (const auto &spec : ctx.space.params)
    if (spec.type != ParamType::Categorical && spec.when.empty()) modelled.push_back(&spec);
  if (modelled.empty() || ctx.number < m_options.nStartupTrials) return sampleRandom(ctx.space, rng);

  const int n = static_cast<int>(modelled.size());
  const int popsize = m_options.popsize > 0 ? std::max(2, m_options.popsize) : Cmaes::defaultPopsize(n);
  const double sigma0 = m_options.sigma0 > 0 ? m_options.sigma0 : 1.0 / 6.0;
  Cmaes cma(Eigen::VectorXd::Constant(n, 0.5), sigma0, popsize);

  const double sign = ctx.directions.front() == Direction::Minimize ? 1.0 : -1.0;
  std::vector<Eigen::VectorXd> points;
  std::vector<double> values;
  for (const Trial *t : completeTrials(ctx.trials)) {
    if (t->number < m_options.nStartupTrials || t->number >= ctx.number) continue;
    Eigen::VectorXd x(n);
    bool all = true;
    for (int k = 0; k < n && all; ++k) {
      auto found = t->params.find(modelled[size_t(k)]->key);
      all = found != t->params.end();
      if (all) x[k] = toUnit(*modelled[size_t(k)], found->second);
    }
    if (!all) continue;
    points.push_back(std::move(x));
    values.push_back(sign * t->values.front());
    if (static_cast<int>(points.size()) == popsize) {
      cma.tell(points, values);
      points.clear();
      values.clear();
    }
  }

  Rng cmaRng(Rng::trialSeed(ctx.seed, ctx.number, kCmaStream));
  Eigen::VectorXd x = cma.sample(cmaRng);
  for (int i = 0; i < kMaxRedraws && ((x.array() < 0.0).any() || (x.array() > 1.0).any()); ++i) x = cma.sample(cmaRng);
  Params fixed;
  for (int k = 0; k < n; ++k) fixed[modelled[size_t(k)]->key] = fromUnit(*modelled[size_t(k)], x[k]);
  return fillRandom(ctx.space, fixed, rng);
}

SamplerEntry cmaesSamplerEntry() {
  SamplerEntry e;
  e.name = "cmaes";
  e.doc = "CMA-ES over the numeric parameters (unit-cube coordinates), as Optuna's CmaEsSampler; categorical and "
          "conditional parameters are drawn at random.";
  e.categorical = false;
  e.options = {
      {"popsize", OptionKind::Int, "0", 0.0, std::nullopt, {}, "trials per generation (at least 2); 0 takes 4 + floor(3 ln n)"},
      {"sigma0", OptionKind::Float, "0", 0.0, 1.0, {}, "initial step size as a fraction of each range; 0 takes 1/6"},
      {"n_startup_trials", OptionKind::Int, "0", 0.0, std::nullopt, {}, "random trials before CMA-ES starts"},
  };
  e.make = [specs = e.options](const OptionValues &values) {
    const OptionReader read(specs, values);
    CmaesSamplerOptions options;
    options.popsize = static_cast<int>(read.integer("popsize"));
    options.sigma0 = read.number("sigma0");
    options.nStartupTrials = static_cast<int>(read.integer("n_startup_trials"));
    return std::make_unique<CmaesSampler>(options);
  };
  return e;
}

}  // namespace tw::search
