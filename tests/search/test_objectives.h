#pragma once
// Test functions with known optima and a helper that drives a sampler through Study's ask/tell,
// shared by the sampler tests.

#include "core/search/catalog.h"
#include "core/search/study.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace tw::search::testing {

// Branin-Hoo on x1 in [-5, 10], x2 in [0, 15]; minimum 0.397887 at three points.
constexpr double kBraninMinimum = 0.397887;

inline SearchSpace braninSpace() {
  SearchSpace space;
  space.params.push_back({"x1", ParamType::Float, -5.0, 10.0});
  space.params.push_back({"x2", ParamType::Float, 0.0, 15.0});
  return space;
}

inline double branin(const Params &p) {
  const double x1 = p.at("x1"), x2 = p.at("x2");
  const double b = 5.1 / (4 * M_PI * M_PI), c = 5 / M_PI, t = 1 / (8 * M_PI);
  const double u = x2 - b * x1 * x1 + c * x1 - 6;
  return u * u + 10 * (1 - t) * std::cos(x1) + 10;
}

// The best value after `trials` trials of `sampler` (made from the catalog with `options`),
// minimising `objective`.
inline double bestAfter(const std::string &sampler, const OptionValues &options, const SearchSpace &space,
                        const std::function<double(const Params &)> &objective, int trials, uint64_t seed,
                        Direction direction = Direction::Minimize) {
  Study study(space, {direction}, findSampler(sampler)->make(options), nullptr, seed);
  for (int i = 0; i < trials; ++i) {
    const Trial &trial = study.ask();
    const int number = trial.number;
    study.tell(number, {objective(trial.params)});
  }
  return study.best()->values[0];
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace tw::search::testing
