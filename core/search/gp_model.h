#pragma once
// The Gaussian process's posterior over the objective given fitted hyperparameters: mean and
// variance of the latent function at new inputs, and their gradients for the local refinement
// of the acquisition function.
//
//   GpPosterior post(data, fitKernel(data, false));
//   post.predict(candidates, &mean, &variance);

#include "core/search/gp_kernel.h"

namespace tw::search {

class GpPosterior {
 public:
  // Factorises the kernel matrix; when that fails even with added jitter, ok() is false.
  GpPosterior(GpData data, GpKernel kernel);
  bool ok() const { return m_ok; }

  const GpData &data() const { return m_data; }
  const GpKernel &kernel() const { return m_kernel; }

  // Mean and variance (of the latent function, noise excluded) at each column of X (d x m).
  void predict(const Eigen::MatrixXd &X, Eigen::VectorXd *mean, Eigen::VectorXd *variance) const;
  // At one point, with the gradients with respect to its numeric inputs (zero for categorical
  // ones) when the gradient pointers are not null.
  void predict(const Eigen::VectorXd &x, double *mean, double *variance, Eigen::VectorXd *meanGrad,
               Eigen::VectorXd *varianceGrad) const;

 private:
  GpData m_data;
  GpKernel m_kernel;
  Eigen::LLT<Eigen::MatrixXd> m_llt;
  Eigen::VectorXd m_alpha;  // K^-1 y
  bool m_ok = false;
};

}  // namespace tw::search
