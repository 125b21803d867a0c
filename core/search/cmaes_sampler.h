#pragma once
// CMA-ES over the numeric parameters in unit-cube coordinates, as Optuna's CmaEsSampler.
//
//   sampler: {type: cmaes, popsize: 0, sigma0: 0, n_startup_trials: 0}
//
// Stateless: each ask rebuilds the search distribution by replaying the COMPLETE trials in
// number order, popsize at a time, one CMA-ES update per full generation (trials before
// n_startup_trials, PRUNED and FAILED ones take no part). Trials in flight belong to the
// generation being filled; the new trial is drawn from the distribution the finished
// generations give, with the trial's own seed, so a resumed study asks exactly what an
// uninterrupted one would have. A draw outside the cube is redrawn (up to 100 times, then
// clipped), as Optuna does.
//
// Modelled: float and int parameters without a `when` condition; ints are told at their grid
// value (no integer margin as in CMA-ES with margin). Categorical and conditional parameters
// are drawn at random.

#include "core/search/sampler.h"

namespace tw::search {

struct CmaesSamplerOptions {
  int popsize = 0;       // 0: 4 + floor(3 ln n)
  double sigma0 = 0.0;   // initial step size in unit-cube coordinates; 0: 1/6 of the cube
  int nStartupTrials = 0;
};

class CmaesSampler : public Sampler {
 public:
  explicit CmaesSampler(CmaesSamplerOptions options = {}) : m_options(options) {}
  Params sample(const SampleContext &ctx) const override;

 private:
  CmaesSamplerOptions m_options;
};

}  // namespace tw::search
