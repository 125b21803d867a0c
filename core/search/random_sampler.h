#pragma once
// Independent uniform draws (log-uniform for log parameters) over the active parameters: the
// baseline every other sampler must beat, and the start-up phase of TPE, GP and CMA-ES.

#include "core/search/rng.h"
#include "core/search/sampler.h"

namespace tw::search {

class RandomSampler : public Sampler {
 public:
  Params sample(const SampleContext &ctx) const override;
};

// One draw of every active parameter of `space`, in declared order, from `rng`; the other
// samplers use it for their random phases and for parameters they do not model.
Params sampleRandom(const SearchSpace &space, Rng &rng);
// One parameter: uniform in its unit cube image, mapped back (so steps and logs are honoured).
double sampleRandomValue(const ParamSpec &spec, Rng &rng);

}  // namespace tw::search
