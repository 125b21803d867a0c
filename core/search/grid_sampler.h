#pragma once
// Grid search: every combination of the space's values, each once, in a fixed order.
//
//   sampler: {type: grid, points_per_float: 5}
//
// Ints and stepped floats take every value of their range, categoricals every choice, and
// continuous floats `points_per_float` evenly spaced points (in log space where log: true), ends
// included. A conditional parameter is enumerated only under the values of its parents that make
// it active, so the grid holds active combinations only. Trial n takes the first combination, in
// declared-parameter order (the last parameter varying fastest), that no earlier trial of any state
// has taken (RUNNING and WAITING ones hold theirs, and a FAILED one is not retried). Once every
// combination has been taken, each further trial is a combination drawn at random, seeded by
// (study seed, trial number).

#include "core/search/sampler.h"

#include <functional>

namespace tw::search {

struct GridOptions {
  int pointsPerFloat = 5;  // points on each continuous float axis
};

class GridSampler : public Sampler {
 public:
  explicit GridSampler(GridOptions options = {}) : m_options(options) {}
  Params sample(const SampleContext &ctx) const override;

 private:
  GridOptions m_options;
};

// The values the grid takes for one parameter, in order.
std::vector<double> gridValues(const ParamSpec &spec, int pointsPerFloat);

// Calls `visit` with each active combination of `space`, in grid order, until it returns false.
// Returns false when stopped early.
bool forEachGridPoint(const SearchSpace &space, int pointsPerFloat, const std::function<bool(const Params &)> &visit);

}  // namespace tw::search
