#pragma once
// A sampler proposes the parameters of the next trial from the history. Samplers keep no state
// between calls: a proposal is a function of (space, directions, trials, number, seed), so a
// sweep killed and resumed asks exactly what it would have asked, and any process (the sweep
// driver, `study ask`, Studio) can sample from what the database holds.

#include "core/search/space.h"
#include "core/search/trial.h"

#include <cstdint>
#include <vector>

namespace tw::search {

struct SampleContext {
  const SearchSpace &space;
  const std::vector<Direction> &directions;  // one per objective
  // Every trial so far in number order, RUNNING and WAITING ones included (constant liar and
  // grid samplers need to know what is in flight), FAILED ones included.
  const std::vector<Trial> &trials;
  int number;      // the number the new trial will get
  uint64_t seed;   // the study's seed; draw from Rng(Rng::trialSeed(seed, number))
};

class Sampler {
 public:
  virtual ~Sampler() = default;
  // The active parameters of trial `ctx.number`, each a value the parameter can take.
  virtual Params sample(const SampleContext &ctx) const = 0;
};

}  // namespace tw::search
