#pragma once
// A pruner decides, after a trial reports its objective at a step (an epoch), whether to stop it.
// Like samplers, pruners keep no state: a decision is a function of the trials' reports.

#include "core/search/trial.h"

#include <cstdint>
#include <vector>

namespace tw::search {

struct PruneContext {
  const std::vector<Trial> &trials;  // every trial, in number order, the one asked about included
  const Trial &trial;                // its intermediate values hold the report at `step`
  int64_t step;                      // the step just reported (epochs count from 1)
  Direction direction;               // of the (first) objective
};

class Pruner {
 public:
  virtual ~Pruner() = default;
  virtual bool shouldPrune(const PruneContext &ctx) const = 0;
};

}  // namespace tw::search
