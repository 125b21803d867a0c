#include "core/search/acquisition.h"

#include "core/search/box_minimize.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace tw::search {

namespace {

const double kLogSqrt2Pi = 0.5 * std::log(2.0 * M_PI);
// Keeps sigma away from 0 at observed points of a near-noiseless model, where logEI would be
// -inf and its gradient undefined.
constexpr double kVarianceFloor = 1e-12;
constexpr double kAsymptotic = -25.0;

double normalCdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }
double normalPdf(double z) { return std::exp(-0.5 * z * z - kLogSqrt2Pi); }

// Scores of a set of points, packed as columns.
Eigen::VectorXd scoreAll(const GpPosterior &posterior, const Eigen::MatrixXd &X, double best) {
  Eigen::VectorXd mean, variance;
  posterior.predict(X, &mean, &variance);
  Eigen::VectorXd out(X.cols());
  for (Eigen::Index i = 0; i < X.cols(); ++i) out[i] = logExpectedImprovement(mean[i], variance[i], best);
  return out;
}

double scoreOne(const GpPosterior &posterior, const Eigen::VectorXd &x, double best) {
  double mean, variance;
  posterior.predict(x, &mean, &variance, nullptr, nullptr);
  return logExpectedImprovement(mean, variance, best);
}

// Gradient refinement of the numeric inputs of x, the categorical ones held.
void refineNumeric(const GpPosterior &posterior, double best, const std::vector<Eigen::Index> &numeric, int iterations,
                   Eigen::VectorXd *x, double *score) {
  if (numeric.empty()) return;
  const auto n = static_cast<Eigen::Index>(numeric.size());
  Eigen::VectorXd full = *x, start(n);
  for (Eigen::Index i = 0; i < n; ++i) start[i] = full[numeric[static_cast<size_t>(i)]];
  const BoxObjective negLogEi = [&](const Eigen::VectorXd &z, Eigen::VectorXd *grad) {
    for (Eigen::Index i = 0; i < n; ++i) full[numeric[static_cast<size_t>(i)]] = z[i];
    double mean, variance;
    Eigen::VectorXd dm, dv, g;
    posterior.predict(full, &mean, &variance, grad ? &dm : nullptr, grad ? &dv : nullptr);
    const double value = logExpectedImprovement(mean, variance, best, grad ? &dm : nullptr, grad ? &dv : nullptr,
                                                grad ? &g : nullptr);
    if (grad) {
      grad->resize(n);
      for (Eigen::Index i = 0; i < n; ++i) (*grad)[i] = -g[numeric[static_cast<size_t>(i)]];
    }
    return -value;
  };
  BoxMinimizeOptions options;
  options.maxIterations = iterations;
  options.gradientTolerance = 1e-6;
  const BoxMinimum m = minimizeInBox(negLogEi, start, Eigen::VectorXd::Zero(n), Eigen::VectorXd::Ones(n), options);
  if (-m.value > *score) {
    for (Eigen::Index i = 0; i < n; ++i) (*x)[numeric[static_cast<size_t>(i)]] = m.x[i];
    *score = -m.value;
  }
}

// One pass over the categorical inputs, each set to its best choice with the others held.
bool sweepCategorical(const GpPosterior &posterior, double best, const std::vector<int> &choices, Eigen::VectorXd *x,
                      double *score) {
  bool changed = false;
  for (size_t k = 0; k < choices.size(); ++k) {
    if (choices[k] <= 0) continue;
    const auto j = static_cast<Eigen::Index>(k);
    const double current = (*x)[j];
    Eigen::VectorXd trial = *x;
    for (int c = 0; c < choices[k]; ++c) {
      if (c == current) continue;
      trial[j] = c;
      const double s = scoreOne(posterior, trial, best);
      if (s > *score) {
        *score = s;
        (*x)[j] = c;
        changed = true;
      }
    }
  }
  return changed;
}

}  // namespace

double logH(double z) {
  if (z > kAsymptotic) return std::log(z * normalCdf(z) + normalPdf(z));
  // h(z) = phi(z) / z^2 * (1 - 3/z^2 + 15/z^4 - 105/z^6 + ...): Mills' ratio's expansion.
  const double w = 1.0 / (z * z);
  return -0.5 * z * z - kLogSqrt2Pi + std::log(w) + std::log1p(w * (-3.0 + w * (15.0 - 105.0 * w)));
}

double logHSlope(double z) {
  if (z > kAsymptotic) {
    const double cdf = normalCdf(z);
    return cdf / (z * cdf + normalPdf(z));
  }
  const double w = 1.0 / (z * z);
  const double millsOverZ = 1.0 + w * (-1.0 + w * (3.0 - 15.0 * w));  // Phi/phi * |z|
  const double hOverPhiZ2 = 1.0 + w * (-3.0 + w * (15.0 - 105.0 * w));  // h/phi * z^2
  return -z * millsOverZ / hOverPhiZ2;
}

double logExpectedImprovement(double mean, double variance, double best, const Eigen::VectorXd *meanGrad,
                              const Eigen::VectorXd *varianceGrad, Eigen::VectorXd *grad) {
  const double v = std::max(variance, 0.0) + kVarianceFloor;
  const double sigma = std::sqrt(v);
  const double z = (mean - best) / sigma;
  const double value = std::log(sigma) + logH(z);
  if (grad && meanGrad && varianceGrad) {
    const double slope = logHSlope(z);
    // d/dx [log sigma + logH(z)], z = (mean - best) / sigma, d sigma = d v / (2 sigma).
    *grad = (*varianceGrad) * (0.5 / v) + slope * ((*meanGrad) / sigma - (z * 0.5 / v) * (*varianceGrad));
  }
  return value;
}

Eigen::VectorXd maximizeLogEi(const GpPosterior &posterior, double best, const std::vector<int> &choices, Rng &rng,
                              const AcquisitionOptions &options) {
  const auto d = static_cast<Eigen::Index>(choices.size());
  const Eigen::Index m = std::max(1, options.candidates);
  std::vector<Eigen::Index> numeric;
  for (Eigen::Index k = 0; k < d; ++k)
    if (choices[static_cast<size_t>(k)] <= 0) numeric.push_back(k);

  // Latin hypercube over the numeric inputs (each one's range cut into m strata, one draw per
  // stratum, strata paired at random): as cheap as uniform draws, with no empty slab.
  Eigen::MatrixXd X(d, m);
  std::vector<int64_t> order(static_cast<size_t>(m));
  for (Eigen::Index k = 0; k < d; ++k) {
    const int c = choices[static_cast<size_t>(k)];
    if (c > 0) {
      for (Eigen::Index i = 0; i < m; ++i) X(k, i) = static_cast<double>(rng.below(c));
      continue;
    }
    std::iota(order.begin(), order.end(), int64_t{0});
    rng.shuffle(order);
    for (Eigen::Index i = 0; i < m; ++i) X(k, i) = (static_cast<double>(order[static_cast<size_t>(i)]) + rng.uniform()) / m;
  }
  const Eigen::VectorXd scores = scoreAll(posterior, X, best);

  std::vector<Eigen::Index> ranked(static_cast<size_t>(m));
  std::iota(ranked.begin(), ranked.end(), Eigen::Index{0});
  const size_t keep = std::min<size_t>(static_cast<size_t>(std::max(1, options.refined)), ranked.size());
  std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(keep), ranked.end(),
                    [&](Eigen::Index a, Eigen::Index b) { return scores[a] > scores[b]; });

  std::vector<Eigen::VectorXd> starts;
  for (size_t i = 0; i < keep; ++i) starts.push_back(X.col(ranked[i]));
  // The best observed point: the incumbent's neighbourhood is where a refinement pays most often.
  const GpData &data = posterior.data();
  if (data.y.size() > 0) {
    Eigen::Index arg;
    data.y.maxCoeff(&arg);
    starts.push_back(data.X.col(arg));
  }

  Eigen::VectorXd bestX = X.col(ranked.front());
  double bestScore = scores[ranked.front()];
  for (Eigen::VectorXd x : starts) {
    double score = scoreOne(posterior, x, best);
    refineNumeric(posterior, best, numeric, options.refineIterations, &x, &score);
    if (sweepCategorical(posterior, best, choices, &x, &score))
      refineNumeric(posterior, best, numeric, options.refineIterations, &x, &score);
    if (score > bestScore) {
      bestScore = score;
      bestX = x;
    }
  }
  return bestX;
}

}  // namespace tw::search
