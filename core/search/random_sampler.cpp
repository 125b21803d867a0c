#include "core/search/random_sampler.h"

#include "core/search/catalog.h"

namespace tw::search {

double sampleRandomValue(const ParamSpec &spec, Rng &rng) {
  if (spec.type == ParamType::Categorical)
    return static_cast<double>(rng.below(static_cast<int64_t>(spec.choices.size())));
  return fromUnit(spec, rng.uniform());
}

Params sampleRandom(const SearchSpace &space, Rng &rng) {
  Params params;
  for (const auto &spec : space.params) {
    // Draw even for inactive parameters, so that each parameter's value does not depend on
    // which others happen to be active.
    const double value = sampleRandomValue(spec, rng);
    if (isActive(spec, space, params)) params[spec.key] = value;
  }
  return params;
}

Params RandomSampler::sample(const SampleContext &ctx) const {
  Rng rng(Rng::trialSeed(ctx.seed, ctx.number));
  return sampleRandom(ctx.space, rng);
}

SamplerEntry randomSamplerEntry() {
  SamplerEntry e;
  e.name = "random";
  e.doc = "Independent uniform draws (log-uniform where log: true).";
  e.multiObjective = true;
  e.make = [](const OptionValues &) { return std::make_unique<RandomSampler>(); };
  return e;
}

}  // namespace tw::search
