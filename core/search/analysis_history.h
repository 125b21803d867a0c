#pragma once
// The optimisation history: each COMPLETE trial's value and the best value up to it, in trial
// number order, for the history plot.

#include "core/search/trial.h"

#include <vector>

namespace tw::search {

struct HistoryPoint {
  int number = 0;
  double value = 0.0;
  double best = 0.0;     // best of this and every earlier COMPLETE trial
  bool improved = false; // this trial set a new best
};

std::vector<HistoryPoint> optimizationHistory(const std::vector<Trial> &trials, Direction direction,
                                              size_t objective = 0);

}  // namespace tw::search
