#include "core/search/gp_model.h"

#include <algorithm>

namespace tw::search {

GpPosterior::GpPosterior(GpData data, GpKernel kernel) : m_data(std::move(data)), m_kernel(std::move(kernel)) {
  Eigen::MatrixXd K = kernelMatrix(m_kernel, m_data.categorical, m_data.X, m_data.X);
  K.diagonal().array() += m_kernel.noise;
  // Duplicate inputs with a tiny noise can leave K singular in floating point; more jitter costs
  // a little fidelity, a failed factorisation the whole proposal.
  for (double jitter = 0.0; jitter <= 1e-2; jitter = jitter == 0.0 ? 1e-8 : jitter * 100.0) {
    if (jitter > 0.0) K.diagonal().array() += jitter;
    m_llt.compute(K);
    if (m_llt.info() == Eigen::Success) {
      m_ok = true;
      break;
    }
  }
  if (m_ok) m_alpha = m_llt.solve(m_data.y);
}

void GpPosterior::predict(const Eigen::MatrixXd &X, Eigen::VectorXd *mean, Eigen::VectorXd *variance) const {
  mean->resize(X.cols());
  variance->resize(X.cols());
  // In blocks of columns, one n x block buffer reused: the whole n x m cross-kernel at once would
  // be megabytes of freshly mapped memory per call, whose page faults cost more than the solve.
  constexpr Eigen::Index kBlock = 128;
  Eigen::MatrixXd Ks;
  for (Eigen::Index start = 0; start < X.cols(); start += kBlock) {
    const Eigen::Index cols = std::min(kBlock, X.cols() - start);
    Ks = kernelMatrix(m_kernel, m_data.categorical, m_data.X, X.middleCols(start, cols));  // n x cols
    mean->segment(start, cols).noalias() = Ks.transpose() * m_alpha;
    m_llt.matrixL().solveInPlace(Ks);
    variance->segment(start, cols) =
        (m_kernel.scale - Ks.colwise().squaredNorm().transpose().array()).cwiseMax(0.0).matrix();
  }
}

void GpPosterior::predict(const Eigen::VectorXd &x, double *mean, double *variance, Eigen::VectorXd *meanGrad,
                          Eigen::VectorXd *varianceGrad) const {
  const Eigen::Index n = m_data.X.cols(), d = m_data.X.rows();
  Eigen::VectorXd k(n), slope(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double d2 = squaredDistance(m_kernel, m_data.categorical, m_data.X.col(i).data(), x.data());
    k[i] = m_kernel.scale * matern52(d2);
    slope[i] = m_kernel.scale * matern52Slope(d2);
  }
  const Eigen::VectorXd v = m_llt.solve(k);  // K^-1 k
  *mean = k.dot(m_alpha);
  *variance = std::max(0.0, m_kernel.scale - k.dot(v));
  if (!meanGrad && !varianceGrad) return;
  // dk_i/dx_j = slope_i * lambda_j * 2 (x_j - X_ji) for a numeric input j.
  Eigen::VectorXd dm = Eigen::VectorXd::Zero(d), dv = Eigen::VectorXd::Zero(d);
  for (Eigen::Index j = 0; j < d; ++j) {
    if (m_data.categorical[static_cast<size_t>(j)]) continue;
    const double twoLambda = 2.0 * m_kernel.inverseSquaredLengthscales[j];
    double sm = 0.0, sv = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) {
      const double dk = slope[i] * twoLambda * (x[j] - m_data.X(j, i));
      sm += dk * m_alpha[i];
      sv += dk * v[i];
    }
    dm[j] = sm;
    dv[j] = -2.0 * sv;
  }
  if (meanGrad) *meanGrad = dm;
  if (varianceGrad) *varianceGrad = dv;
}

}  // namespace tw::search
