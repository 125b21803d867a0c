#pragma once
// The Gaussian process's kernel and the fit of its hyperparameters, as Optuna's GPSampler has
// them: a Matérn 5/2 kernel with one length scale per input (ARD), a signal variance and an
// observation noise, over inputs in the unit cube. A categorical input holds its choice index and
// contributes a Hamming term (0 when two points agree, 1 when not) instead of a squared difference:
//
//   d2(a, b) = sum_k lambda_k * (numeric k ? (a_k - b_k)^2 : [a_k != b_k])   lambda_k = 1 / l_k^2
//   k(a, b)  = scale * (1 + sqrt5 r + 5 r^2 / 3) * exp(-sqrt5 r)           r = sqrt(d2)
//
// The hyperparameters maximise the log marginal likelihood of the standardised objective plus
// Optuna's mild priors (a Gamma-like bump on each lambda around 1, Gamma(2, 1) on the scale,
// Gamma(1.1, 30) on the noise), found by L-BFGS on their logarithms from the best of a small
// grid of starting points (the best two while there are at most 100 points).

#include <Eigen/Dense>

#include <vector>

namespace tw::search {

struct GpKernel {
  Eigen::VectorXd inverseSquaredLengthscales;  // lambda, one per input
  double scale = 1.0;                          // signal variance
  double noise = 1e-2;                         // noise variance, added on the diagonal
};

// The smallest noise variance: a deterministic objective gets exactly this (it keeps the
// Cholesky factorisation of near-duplicate points stable).
constexpr double kMinNoise = 1e-6;

struct GpData {
  Eigen::MatrixXd X;              // inputs, one column per point (d x n)
  Eigen::VectorXd y;              // standardised objective (to maximise), one per point
  std::vector<bool> categorical;  // per input: a choice index compared by equality
};

double squaredDistance(const GpKernel &kernel, const std::vector<bool> &categorical, const double *a, const double *b);
double matern52(double squaredDistance);
// d matern52 / d squaredDistance
double matern52Slope(double squaredDistance);

// Kernel between the columns of A (d x n) and of B (d x m), noise excluded.
Eigen::MatrixXd kernelMatrix(const GpKernel &kernel, const std::vector<bool> &categorical, const Eigen::MatrixXd &A,
                             const Eigen::MatrixXd &B);

// The hyperparameters as the fit sees them: log lambda (d), log scale, and, unless the objective
// is deterministic, log(noise - kMinNoise).
Eigen::VectorXd kernelToVector(const GpKernel &kernel, bool deterministic);
GpKernel kernelFromVector(const Eigen::VectorXd &theta, bool deterministic);

// Buffers one fit reuses across its evaluations: fresh n x n matrices on every evaluation cost
// more in page faults than the arithmetic (large blocks come straight from mmap).
struct KernelLossWorkspace {
  Eigen::MatrixXd M, S, K, W;
  Eigen::LLT<Eigen::MatrixXd> llt;
};

// The negative log posterior of theta (negative log marginal likelihood minus the log priors,
// constants dropped) and its gradient when `grad` is not null; +inf where the kernel matrix is not
// positive definite.
double kernelLoss(const GpData &data, const Eigen::VectorXd &theta, bool deterministic, Eigen::VectorXd *grad,
                  KernelLossWorkspace *workspace = nullptr);

// The fitted hyperparameters for `data` (at least one point).
GpKernel fitKernel(const GpData &data, bool deterministic);

}  // namespace tw::search
