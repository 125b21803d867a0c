#pragma once
// NSGA-II (Deb et al. 2002) for several objectives, as Optuna's NSGAIISampler: each child is a
// crossover of two parents chosen by binary tournament on (non-domination rank, crowding
// distance), then each parameter is redrawn at random with the mutation probability.
//
//   sampler: {type: nsga2, population_size: 50, crossover: uniform, mutation_prob: 0}
//
// Stateless: trial n belongs to generation n / population_size. Generation 0 is random. The
// parents of generation g are the elite of the parents of generation g - 1 together with the
// COMPLETE trials of generation g - 1 (population_size of them, by rank, then crowding
// distance), rebuilt from the trials on each ask; trials still in flight or FAILED take no part.
// Conditional parameters are inherited when the chosen parent has them and drawn otherwise.

#include "core/search/sampler.h"

namespace tw::search {

enum class Crossover { Uniform, Sbx };

struct Nsga2SamplerOptions {
  int populationSize = 50;
  double crossoverProb = 0.9;  // otherwise the child copies its first parent
  double swappingProb = 0.5;   // uniform crossover: chance of each parameter coming from the second parent
  double mutationProb = 0.0;   // per parameter; 0 takes 1 / (number of parameters)
  Crossover crossover = Crossover::Uniform;  // Sbx: simulated binary crossover on numeric parameters
  double sbxEta = 20.0;        // SBX distribution index: larger keeps children nearer their parents
};

class Nsga2Sampler : public Sampler {
 public:
  explicit Nsga2Sampler(Nsga2SamplerOptions options = {}) : m_options(options) {}
  Params sample(const SampleContext &ctx) const override;

 private:
  Nsga2SamplerOptions m_options;
};

}  // namespace tw::search
