#pragma once
// Slice plots: for each parameter, the (parameter value, objective) of every COMPLETE trial in
// which it was active.

#include "core/search/analysis_axis.h"
#include "core/search/trial.h"

#include <vector>

namespace tw::search {

struct SlicePoint {
  int number = 0;
  double value = 0.0;      // the parameter's value (a categorical's index)
  double unit = 0.0;       // where it sits on the axis
  double objective = 0.0;
};

struct ParamSlice {
  std::string key;
  AnalysisAxis axis;
  std::vector<SlicePoint> points;  // in trial number order; empty when never active
};

// One slice per parameter of `space`, in declared order.
std::vector<ParamSlice> paramSlices(const SearchSpace &space, const std::vector<Trial> &trials, size_t objective = 0);

}  // namespace tw::search
