#include "core/search/gp_kernel.h"

#include "core/search/box_minimize.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace tw::search {

namespace {

const double kSqrt5 = std::sqrt(5.0);

// Box on the log-hyperparameters: wide enough never to bind on a sensible fit, narrow enough to
// keep the kernel matrix away from overflow and from numerically singular extremes.
constexpr double kLogLambdaLow = -9.0, kLogLambdaHigh = 9.0;
constexpr double kLogScaleLow = -7.0, kLogScaleHigh = 5.0;
constexpr double kLogNoiseLow = -16.0, kLogNoiseHigh = 1.0;
constexpr Eigen::Index kTwoStartsUpTo = 100;  // points

// Optuna's priors, and their derivatives with respect to the log-parameters.
double logPrior(const GpKernel &k, bool deterministic) {
  double p = 0.0;
  for (Eigen::Index i = 0; i < k.inverseSquaredLengthscales.size(); ++i) {
    const double l = k.inverseSquaredLengthscales[i];
    p -= 0.1 / l + 0.1 * l;
  }
  p += std::log(k.scale) - k.scale;  // Gamma(2, 1)
  if (!deterministic) p += 0.1 * std::log(k.noise) - 30.0 * k.noise;  // Gamma(1.1, 30)
  return p;
}

}  // namespace

double squaredDistance(const GpKernel &kernel, const std::vector<bool> &categorical, const double *a, const double *b) {
  double d2 = 0.0;
  for (size_t k = 0; k < categorical.size(); ++k) {
    const double diff = a[k] - b[k];
    d2 += kernel.inverseSquaredLengthscales[static_cast<Eigen::Index>(k)] *
          (categorical[k] ? (diff != 0.0 ? 1.0 : 0.0) : diff * diff);
  }
  return d2;
}

double matern52(double d2) {
  const double r = std::sqrt(d2);
  return (1.0 + kSqrt5 * r + 5.0 / 3.0 * d2) * std::exp(-kSqrt5 * r);
}

double matern52Slope(double d2) {
  const double r = std::sqrt(d2);
  return -5.0 / 6.0 * (1.0 + kSqrt5 * r) * std::exp(-kSqrt5 * r);
}

Eigen::MatrixXd kernelMatrix(const GpKernel &kernel, const std::vector<bool> &categorical, const Eigen::MatrixXd &A,
                             const Eigen::MatrixXd &B) {
  Eigen::MatrixXd K(A.cols(), B.cols());
  for (Eigen::Index j = 0; j < B.cols(); ++j)
    for (Eigen::Index i = 0; i < A.cols(); ++i)
      K(i, j) = kernel.scale * matern52(squaredDistance(kernel, categorical, A.col(i).data(), B.col(j).data()));
  return K;
}

Eigen::VectorXd kernelToVector(const GpKernel &kernel, bool deterministic) {
  const Eigen::Index d = kernel.inverseSquaredLengthscales.size();
  Eigen::VectorXd theta(d + (deterministic ? 1 : 2));
  theta.head(d) = kernel.inverseSquaredLengthscales.array().log().matrix();
  theta[d] = std::log(kernel.scale);
  if (!deterministic) theta[d + 1] = std::log(std::max(kernel.noise - kMinNoise, 1e-300));
  return theta;
}

GpKernel kernelFromVector(const Eigen::VectorXd &theta, bool deterministic) {
  const Eigen::Index d = theta.size() - (deterministic ? 1 : 2);
  GpKernel k;
  k.inverseSquaredLengthscales = theta.head(d).array().exp().matrix();
  k.scale = std::exp(theta[d]);
  k.noise = deterministic ? kMinNoise : kMinNoise + std::exp(theta[d + 1]);
  return k;
}

double kernelLoss(const GpData &data, const Eigen::VectorXd &theta, bool deterministic, Eigen::VectorXd *grad,
                  KernelLossWorkspace *workspace) {
  KernelLossWorkspace local;
  KernelLossWorkspace &ws = workspace ? *workspace : local;
  const GpKernel kernel = kernelFromVector(theta, deterministic);
  const Eigen::Index n = data.X.cols(), d = data.X.rows();
  // M holds the Matérn correlations, S their slopes (needed only for the gradient).
  Eigen::MatrixXd &M = ws.M, &S = ws.S, &K = ws.K, &W = ws.W;
  M.resize(n, n);
  if (grad) S.resize(n, n);
  for (Eigen::Index j = 0; j < n; ++j) {
    M(j, j) = 1.0;
    if (grad) S(j, j) = matern52Slope(0.0);
    for (Eigen::Index i = j + 1; i < n; ++i) {
      const double d2 = squaredDistance(kernel, data.categorical, data.X.col(i).data(), data.X.col(j).data());
      M(i, j) = M(j, i) = matern52(d2);
      if (grad) S(i, j) = matern52Slope(d2);
    }
  }
  K = kernel.scale * M;
  K.diagonal().array() += kernel.noise;
  Eigen::LLT<Eigen::MatrixXd> &llt = ws.llt;
  llt.compute(K);
  if (llt.info() != Eigen::Success) return std::numeric_limits<double>::infinity();
  const Eigen::VectorXd alpha = llt.solve(data.y);
  const Eigen::MatrixXd &L = llt.matrixLLT();
  double loss = 0.5 * data.y.dot(alpha) + L.diagonal().array().log().sum() - logPrior(kernel, deterministic);
  if (!std::isfinite(loss)) return std::numeric_limits<double>::infinity();
  if (!grad) return loss;

  // d loss / d theta = 0.5 tr(W dK/dtheta) - d logPrior / d theta, W = K^-1 - alpha alpha^T.
  W.setIdentity(n, n);
  llt.solveInPlace(W);
  W.noalias() -= alpha * alpha.transpose();
  grad->setZero(theta.size());
  Eigen::VectorXd &g = *grad;
  double gScale = 0.0;
  for (Eigen::Index j = 0; j < n; ++j) {
    gScale += 0.5 * W(j, j);  // M(j, j) = 1; the lambdas do not move the diagonal
    const double *xj = data.X.col(j).data();
    for (Eigen::Index i = j + 1; i < n; ++i) {
      // Both (i, j) and (j, i) contribute: the 0.5 cancels.
      const double w = W(i, j);
      gScale += w * M(i, j);
      const double ws = w * kernel.scale * S(i, j);
      const double *xi = data.X.col(i).data();
      for (Eigen::Index k = 0; k < d; ++k) {
        const double diff = xi[k] - xj[k];
        const double dk = data.categorical[static_cast<size_t>(k)] ? (diff != 0.0 ? 1.0 : 0.0) : diff * diff;
        g[k] += ws * dk;
      }
    }
  }
  for (Eigen::Index k = 0; k < d; ++k) {
    const double l = kernel.inverseSquaredLengthscales[k];
    g[k] = g[k] * l - (0.1 / l - 0.1 * l);
  }
  g[d] = gScale * kernel.scale - (1.0 - kernel.scale);
  if (!deterministic) {
    const double e = kernel.noise - kMinNoise;
    g[d + 1] = 0.5 * W.trace() * e - (0.1 / kernel.noise - 30.0) * e;
  }
  return loss;
}

GpKernel fitKernel(const GpData &data, bool deterministic) {
  const Eigen::Index d = data.X.rows();
  const Eigen::Index dim = d + (deterministic ? 1 : 2);
  Eigen::VectorXd lower(dim), upper(dim);
  lower.head(d).setConstant(kLogLambdaLow);
  upper.head(d).setConstant(kLogLambdaHigh);
  lower[d] = kLogScaleLow;
  upper[d] = kLogScaleHigh;
  if (!deterministic) {
    lower[d + 1] = kLogNoiseLow;
    upper[d + 1] = kLogNoiseHigh;
  }
  // Starting points: length scales from the whole cube down to a fifth of it, low and moderate
  // noise. Screening them by value costs one factorisation each. Refining costs a gradient
  // (the kernel matrix's inverse, O(n^3)) per iteration: the best two are refined while the
  // trials are few, when the likelihood is flattest and most often has several modes, and the
  // best one beyond, which keeps an ask at 200 trials well under the 200 ms target.
  KernelLossWorkspace workspace;
  std::vector<std::pair<double, Eigen::VectorXd>> starts;
  for (double lambda : {0.5, 2.0, 8.0, 25.0})
    for (double noise : {1e-4, 1e-2}) {
      GpKernel k;
      k.inverseSquaredLengthscales = Eigen::VectorXd::Constant(d, lambda);
      k.scale = 1.0;
      k.noise = deterministic ? kMinNoise : noise;
      Eigen::VectorXd theta = kernelToVector(k, deterministic).cwiseMax(lower).cwiseMin(upper);
      starts.emplace_back(kernelLoss(data, theta, deterministic, nullptr, &workspace), theta);
      if (deterministic) break;
    }
  std::stable_sort(starts.begin(), starts.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
  const BoxObjective loss = [&](const Eigen::VectorXd &theta, Eigen::VectorXd *grad) {
    return kernelLoss(data, theta, deterministic, grad, &workspace);
  };
  BoxMinimizeOptions options;
  options.maxIterations = 60;
  options.gradientTolerance = 1e-3;
  options.relativeTolerance = 1e-7;
  BoxMinimum best;
  best.value = std::numeric_limits<double>::infinity();
  best.x = starts.front().second;
  const size_t refined = data.X.cols() <= kTwoStartsUpTo ? 2 : 1;
  for (size_t s = 0; s < std::min(refined, starts.size()); ++s) {
    if (!std::isfinite(starts[s].first)) continue;
    BoxMinimum m = minimizeInBox(loss, starts[s].second, lower, upper, options);
    if (m.value < best.value) best = std::move(m);
  }
  return kernelFromVector(best.x, deterministic);
}

}  // namespace tw::search
