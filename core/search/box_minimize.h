#pragma once
// A small bound-constrained quasi-Newton minimiser (projected L-BFGS with a backtracking line
// search along the projected path), for the smooth problems of the model-based samplers: the
// Gaussian process's hyperparameters and the acquisition function over the unit cube.
//
//   BoxObjective f = [](const Eigen::VectorXd &x, Eigen::VectorXd *grad) {
//     if (grad) *grad = 2 * x;
//     return x.squaredNorm();
//   };
//   BoxMinimum m = minimizeInBox(f, x0, lower, upper, {});

#include <Eigen/Dense>

#include <functional>

namespace tw::search {

// The value at x; fills *grad (same size as x) when grad is not null. The line search asks for
// values only, so an objective whose gradient costs more than its value should skip it then.
using BoxObjective = std::function<double(const Eigen::VectorXd &x, Eigen::VectorXd *grad)>;

struct BoxMinimizeOptions {
  int maxIterations = 100;         // each takes one gradient and one or more values
  double gradientTolerance = 1e-5; // stop when the projected gradient's largest entry is below
  double relativeTolerance = 1e-9; // stop when an iteration improves f by less than this, relatively
  int memory = 10;                 // (s, y) pairs kept
};

struct BoxMinimum {
  Eigen::VectorXd x;
  double value = 0.0;
  int iterations = 0;
};

// Starts from x0 clamped into [lower, upper]. A non-finite value is treated as worse than any
// finite one, so the line search backs away from regions where the objective breaks down.
BoxMinimum minimizeInBox(const BoxObjective &f, const Eigen::VectorXd &x0, const Eigen::VectorXd &lower,
                         const Eigen::VectorXd &upper, const BoxMinimizeOptions &options);

}  // namespace tw::search
