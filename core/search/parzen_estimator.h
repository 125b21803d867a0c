#pragma once
// Optuna's Parzen estimator (3.1), the density model inside TPE: a weighted mixture with one
// kernel per observation plus an optional prior kernel, over one parameter (independent TPE) or
// several jointly (multivariate TPE). Numeric parameters live in their unit-cube image (toUnit):
// truncated normal kernels on [0, 1], whose widths come from the neighbours' distances (one
// parameter) or Scott's rule (several); an int or stepped float is scored by the kernel's mass on
// its value's cell, as Optuna does for a step. A categorical kernel puts weight 1 on the observed
// choice plus prior_weight / (n + 1) on every choice.
// As in Optuna 3.1, a continuous kernel's log density omits the -log(sigma) of the normal, so
// logPdf is a density only up to kernel-dependent factors: wide kernels (the prior among them)
// weigh more in l(x) / g(x). TPE's measured quality depends on it (see parzen_estimator.cpp).

#include "core/search/rng.h"
#include "core/search/space.h"

#include <vector>

namespace tw::search {

struct ParzenOptions {
  bool considerPrior = true;
  double priorWeight = 1.0;
  bool considerMagicClip = true;
  bool considerEndpoints = false;
  bool multivariate = false;
};

// Optuna's default_weights: flat below 25 observations, else a linear ramp from 1/n for the oldest
// n - 25 and 1 for the newest 25 (observations in trial order).
std::vector<double> defaultTpeWeights(size_t n);

class ParzenEstimator {
 public:
  // `observations[i][j]` is observation i of parameter j: its unit value (toUnit) for a numeric
  // parameter, its choice index for a categorical. `weights` (one per observation, >= 0) default
  // to defaultTpeWeights.
  ParzenEstimator(std::vector<const ParamSpec *> params, const std::vector<std::vector<double>> &observations,
                  const ParzenOptions &options, std::vector<double> weights = {});

  // `size` draws; numeric values snapped to a value the parameter can take (in unit form).
  std::vector<std::vector<double>> sample(Rng &rng, int size) const;
  // The log density (log mass for a discrete parameter) of each sample, Optuna 3.1's way (above).
  std::vector<double> logPdf(const std::vector<std::vector<double>> &samples) const;

 private:
  double kernelLogPdf(size_t component, size_t param, double x) const;

  std::vector<const ParamSpec *> m_params;
  std::vector<double> m_logWeights;  // per component
  std::vector<double> m_weights;
  size_t m_components = 0;
  // Per parameter: numeric kernels (mu, sigma, log of the mass on [0, 1]) or categorical rows.
  std::vector<std::vector<double>> m_mus, m_sigmas, m_logMass;
  std::vector<std::vector<std::vector<double>>> m_categorical;  // [param][component][choice]
  std::vector<double> m_cell;  // unit-cell width of a stepped parameter, 0 if continuous
};

// A unit value snapped to the nearest value the parameter can take, in unit form.
double snapUnit(const ParamSpec &spec, double unit);

}  // namespace tw::search
