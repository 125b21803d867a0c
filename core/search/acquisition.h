#pragma once
// Log expected improvement and its maximisation over the unit cube, for the GP sampler.
// logEI rather than EI: far from the incumbent EI underflows to exactly 0 and its gradient
// with it, while its logarithm stays finite and informative (Ament et al., "Unexpected
// Improvements to Expected Improvement for Bayesian Optimization", 2023; Optuna's GPSampler
// uses the same form).

#include "core/search/gp_model.h"
#include "core/search/rng.h"

#include <vector>

namespace tw::search {

// log(z Phi(z) + phi(z)), the log expected improvement of a standard normal over -z, accurate for
// every finite z (an asymptotic series below -25, where the direct form would cancel).
double logH(double z);
// d logH / dz = Phi(z) / (z Phi(z) + phi(z)).
double logHSlope(double z);

// log E[max(f - best, 0)] for f ~ N(mean, variance), and its gradient through the mean's and the
// variance's gradients when `grad` is not null.
double logExpectedImprovement(double mean, double variance, double best, const Eigen::VectorXd *meanGrad = nullptr,
                              const Eigen::VectorXd *varianceGrad = nullptr, Eigen::VectorXd *grad = nullptr);

struct AcquisitionOptions {
  int candidates = 2000;   // space-filling (Latin hypercube) draws scored in one batch
  int refined = 5;         // best candidates refined by L-BFGS, with the best observed point
  int refineIterations = 40;
};

// The point of the unit cube (categorical inputs: a choice index, `choices[k]` of them; 0 for a
// numeric input) with the highest log expected improvement over `best` found by scoring the
// candidates and refining the best few: the numeric inputs by gradient, each categorical input by
// trying all its choices.
Eigen::VectorXd maximizeLogEi(const GpPosterior &posterior, double best, const std::vector<int> &choices, Rng &rng,
                              const AcquisitionOptions &options);

}  // namespace tw::search
