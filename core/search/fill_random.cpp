#include "core/search/fill_random.h"

#include "core/search/random_sampler.h"

namespace tw::search {

Params fillRandom(const SearchSpace &space, const Params &fixed, Rng &rng) {
  Params params;
  for (const auto &spec : space.params) {
    double value = sampleRandomValue(spec, rng);
    auto found = fixed.find(spec.key);
    if (found != fixed.end()) value = snap(spec, found->second);
    if (isActive(spec, space, params)) params[spec.key] = value;
  }
  return params;
}

}  // namespace tw::search
