#include "core/search/cmaes.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tw::search {

Cmaes::Cmaes(Eigen::VectorXd mean, double sigma, int popsize)
    : m_n(static_cast<int>(mean.size())), m_popsize(std::max(2, popsize)), m_mean(std::move(mean)), m_sigma(sigma) {
  m_C = Eigen::MatrixXd::Identity(m_n, m_n);
  m_B = Eigen::MatrixXd::Identity(m_n, m_n);
  m_D = Eigen::VectorXd::Ones(m_n);
  m_pc = Eigen::VectorXd::Zero(m_n);
  m_ps = Eigen::VectorXd::Zero(m_n);
}

int Cmaes::defaultPopsize(int dimension) {
  return 4 + static_cast<int>(std::floor(3.0 * std::log(std::max(1, dimension))));
}

Eigen::VectorXd Cmaes::sample(Rng &rng) const {
  Eigen::VectorXd z(m_n);
  for (int i = 0; i < m_n; ++i) z[i] = rng.normal();
  return m_mean + m_sigma * (m_B * m_D.cwiseProduct(z));
}

void Cmaes::tell(const std::vector<Eigen::VectorXd> &points, const std::vector<double> &values) {
  const int lambda = static_cast<int>(points.size());
  if (lambda < 2) return;
  const int mu = lambda / 2;
  const double n = m_n;
  // Strategy parameters (the tutorial's Table 1, positive weights only).
  Eigen::VectorXd w(mu);
  for (int i = 0; i < mu; ++i) w[i] = std::log(mu + 0.5) - std::log(i + 1.0);
  w /= w.sum();
  const double muEff = 1.0 / w.squaredNorm();
  const double cc = (4.0 + muEff / n) / (n + 4.0 + 2.0 * muEff / n);
  const double cs = (muEff + 2.0) / (n + muEff + 5.0);
  const double c1 = 2.0 / ((n + 1.3) * (n + 1.3) + muEff);
  const double cmu = std::min(1.0 - c1, 2.0 * (muEff - 2.0 + 1.0 / muEff) / ((n + 2.0) * (n + 2.0) + muEff));
  const double damps = 1.0 + 2.0 * std::max(0.0, std::sqrt((muEff - 1.0) / (n + 1.0)) - 1.0) + cs;
  const double chiN = std::sqrt(n) * (1.0 - 1.0 / (4.0 * n) + 1.0 / (21.0 * n * n));

  std::vector<int> order(static_cast<size_t>(lambda));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return values[size_t(a)] < values[size_t(b)]; });
  Eigen::MatrixXd Y(m_n, mu);  // the better half's steps, in units of sigma
  for (int i = 0; i < mu; ++i) Y.col(i) = (points[size_t(order[size_t(i)])] - m_mean) / m_sigma;
  const Eigen::VectorXd yw = Y * w;

  m_mean += m_sigma * yw;
  const Eigen::VectorXd invSqrtCyw = m_B * (m_B.transpose() * yw).cwiseQuotient(m_D);
  m_ps = (1.0 - cs) * m_ps + std::sqrt(cs * (2.0 - cs) * muEff) * invSqrtCyw;
  ++m_generation;
  const double psNorm = m_ps.norm() / std::sqrt(1.0 - std::pow(1.0 - cs, 2.0 * m_generation));
  const bool hsig = psNorm / chiN < 1.4 + 2.0 / (n + 1.0);
  m_pc = (1.0 - cc) * m_pc + (hsig ? std::sqrt(cc * (2.0 - cc) * muEff) : 0.0) * yw;
  const double deltaH = hsig ? 0.0 : cc * (2.0 - cc);
  m_C = (1.0 - c1 - cmu + c1 * deltaH) * m_C + c1 * m_pc * m_pc.transpose() + cmu * Y * w.asDiagonal() * Y.transpose();
  m_sigma *= std::exp(cs / damps * (m_ps.norm() / chiN - 1.0));
  // The unit cube is the whole search region: a step far beyond it only produces clipped points.
  m_sigma = std::min(m_sigma, 10.0);
  decompose();
}

void Cmaes::decompose() {
  m_C = 0.5 * (m_C + m_C.transpose());
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(m_C);
  if (eig.info() != Eigen::Success) return;  // keep the previous factors
  // Round-off can leave tiny negative eigenvalues; bound the condition number at 1e14.
  const Eigen::VectorXd ev = eig.eigenvalues().cwiseMax(eig.eigenvalues().maxCoeff() * 1e-14).cwiseMax(1e-300);
  m_B = eig.eigenvectors();
  m_D = ev.cwiseSqrt();
  m_C = m_B * ev.asDiagonal() * m_B.transpose();
}

}  // namespace tw::search
