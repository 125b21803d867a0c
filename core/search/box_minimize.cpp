#include "core/search/box_minimize.h"

#include <cmath>
#include <deque>
#include <limits>

namespace tw::search {

namespace {

// A variable at a bound whose gradient pushes it further out stays put this iteration.
Eigen::VectorXd freeMask(const Eigen::VectorXd &x, const Eigen::VectorXd &g, const Eigen::VectorXd &lower,
                         const Eigen::VectorXd &upper) {
  Eigen::VectorXd mask = Eigen::VectorXd::Ones(x.size());
  for (Eigen::Index i = 0; i < x.size(); ++i)
    if ((x[i] <= lower[i] && g[i] > 0) || (x[i] >= upper[i] && g[i] < 0)) mask[i] = 0.0;
  return mask;
}

struct Pair {
  Eigen::VectorXd s, y;
  double rho;
};

// The L-BFGS two-loop recursion on the free variables.
Eigen::VectorXd direction(const Eigen::VectorXd &g, const Eigen::VectorXd &mask, const std::deque<Pair> &history) {
  Eigen::VectorXd q = g.cwiseProduct(mask);
  std::vector<double> alpha(history.size());
  for (size_t i = history.size(); i-- > 0;) {
    alpha[i] = history[i].rho * history[i].s.cwiseProduct(mask).dot(q);
    q -= alpha[i] * history[i].y.cwiseProduct(mask);
  }
  if (!history.empty()) {
    const Pair &last = history.back();
    const double yy = last.y.cwiseProduct(mask).squaredNorm();
    if (yy > 0) q *= last.s.cwiseProduct(mask).dot(last.y.cwiseProduct(mask)) / yy;
  }
  for (size_t i = 0; i < history.size(); ++i) {
    const double beta = history[i].rho * history[i].y.cwiseProduct(mask).dot(q);
    q += (alpha[i] - beta) * history[i].s.cwiseProduct(mask);
  }
  return -q.cwiseProduct(mask);
}

}  // namespace

BoxMinimum minimizeInBox(const BoxObjective &f, const Eigen::VectorXd &x0, const Eigen::VectorXd &lower,
                         const Eigen::VectorXd &upper, const BoxMinimizeOptions &options) {
  const auto project = [&](const Eigen::VectorXd &v) { return v.cwiseMax(lower).cwiseMin(upper).eval(); };
  const auto value = [&](const Eigen::VectorXd &v, Eigen::VectorXd *g) {
    const double fv = f(v, g);
    return std::isfinite(fv) ? fv : std::numeric_limits<double>::infinity();
  };
  BoxMinimum best;
  best.x = project(x0);
  Eigen::VectorXd g(best.x.size());
  best.value = value(best.x, &g);
  if (!std::isfinite(best.value) || !g.allFinite()) return best;

  std::deque<Pair> history;
  for (int it = 0; it < options.maxIterations; ++it) {
    best.iterations = it;
    const Eigen::VectorXd mask = freeMask(best.x, g, lower, upper);
    if (g.cwiseProduct(mask).lpNorm<Eigen::Infinity>() < options.gradientTolerance) break;
    Eigen::VectorXd d = direction(g, mask, history);
    if (!(d.dot(g) < 0)) {  // not a descent direction: fall back to steepest descent
      history.clear();
      d = -g.cwiseProduct(mask);
    }
    // Without curvature information a unit step has no scale; start with a step of length ~1.
    double t = history.empty() ? std::min(1.0, 1.0 / std::max(d.norm(), 1e-12)) : 1.0;
    Eigen::VectorXd next;
    double fNext = std::numeric_limits<double>::infinity();
    bool accepted = false;
    for (int k = 0; k < 40; ++k, t *= 0.5) {
      next = project(best.x + t * d);
      const double decrease = g.dot(next - best.x);
      if (decrease >= 0) continue;  // projection bent the step uphill; shorten it
      fNext = value(next, nullptr);
      if (fNext <= best.value + 1e-4 * decrease) {
        accepted = true;
        break;
      }
    }
    if (!accepted) {
      if (history.empty()) break;
      history.clear();  // stale curvature; retry once from steepest descent
      continue;
    }
    Eigen::VectorXd gNext(g.size());
    fNext = value(next, &gNext);
    if (!std::isfinite(fNext) || !gNext.allFinite()) break;
    Pair pair{next - best.x, gNext - g, 0.0};
    const double sy = pair.s.dot(pair.y);
    if (sy > 1e-12 * pair.y.squaredNorm() && sy > 0) {
      pair.rho = 1.0 / sy;
      history.push_back(std::move(pair));
      if (static_cast<int>(history.size()) > options.memory) history.pop_front();
    }
    const double improvement = best.value - fNext;
    best.x = next;
    best.value = fNext;
    g = gNext;
    if (improvement <= options.relativeTolerance * std::max(1.0, std::fabs(fNext))) break;
  }
  return best;
}

}  // namespace tw::search
