#pragma once
// Gaussian-process Bayesian optimisation, as Optuna's GPSampler and MATLAB's bayesopt: after
// `n_startup_trials` random trials, each proposal maximises the log expected improvement of a
// GP fitted to the COMPLETE trials.
//
//   sampler: {type: gp, n_startup_trials: 10, deterministic_objective: false}
//
// Inputs: the parameters without a `when` condition (active in every trial), in unit-cube
// coordinates (toUnit; categoricals as a choice index with a Hamming kernel term). Conditional
// parameters are drawn at random, as Optuna's GPSampler does for parameters outside the
// intersection of the trials' spaces. Output: the unmodelled parameters drawn, the modelled ones
// mapped back with fromUnit, which snaps ints and stepped floats to their grid.
//
// Objective: the first one, standardised and sign-flipped so the GP maximises. Trials in
// flight (RUNNING, WAITING) enter as "kriging believers": at the posterior mean, with the
// hyperparameters fitted to the finished trials, so they shrink the variance where they stand
// and parallel asks spread out instead of proposing the same point.

#include "core/search/acquisition.h"
#include "core/search/sampler.h"

namespace tw::search {

struct GpSamplerOptions {
  int nStartupTrials = 10;
  bool deterministicObjective = false;  // noise fixed at its floor instead of fitted
  AcquisitionOptions acquisition;
};

class GpSampler : public Sampler {
 public:
  explicit GpSampler(GpSamplerOptions options = {}) : m_options(options) {}
  Params sample(const SampleContext &ctx) const override;

 private:
  GpSamplerOptions m_options;
};

}  // namespace tw::search
