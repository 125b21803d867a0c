#pragma once
// CMA-ES, the update of Hansen's tutorial ("The CMA Evolution Strategy: A Tutorial", 2016,
// with positive recombination weights): a Gaussian search distribution N(mean, sigma^2 C) moved
// towards each generation's better half, its step size controlled by the cumulated path length.
// Minimises. The CMA-ES sampler replays trials through this; it keeps no history itself.
//
//   Cmaes cma(Eigen::VectorXd::Constant(n, 0.5), 1.0 / 6, Cmaes::defaultPopsize(n));
//   for (;;) {
//     std::vector<Eigen::VectorXd> xs; std::vector<double> fs;
//     for (int i = 0; i < cma.popsize(); ++i) { xs.push_back(cma.sample(rng)); fs.push_back(f(xs.back())); }
//     cma.tell(xs, fs);
//   }

#include "core/search/rng.h"

#include <Eigen/Dense>

#include <vector>

namespace tw::search {

class Cmaes {
 public:
  Cmaes(Eigen::VectorXd mean, double sigma, int popsize);
  static int defaultPopsize(int dimension);  // 4 + floor(3 ln n)

  int popsize() const { return m_popsize; }
  int generation() const { return m_generation; }
  const Eigen::VectorXd &mean() const { return m_mean; }
  double sigma() const { return m_sigma; }
  const Eigen::MatrixXd &covariance() const { return m_C; }

  // One draw from N(mean, sigma^2 C), taking dimension() normals from `rng`.
  Eigen::VectorXd sample(Rng &rng) const;
  // One generation's points (any number >= 2; popsize() is the design) and their values.
  void tell(const std::vector<Eigen::VectorXd> &points, const std::vector<double> &values);

 private:
  void decompose();
  int m_n, m_popsize, m_generation = 0;
  Eigen::VectorXd m_mean;
  double m_sigma;
  Eigen::MatrixXd m_C, m_B;  // C = B diag(m_D^2) B^T
  Eigen::VectorXd m_D, m_pc, m_ps;
};

}  // namespace tw::search
