#pragma once
// Parallel coordinates: one axis per parameter and a last one for the objective; one line per
// COMPLETE trial through its unit positions.

#include "core/search/analysis_axis.h"
#include "core/search/trial.h"

#include <vector>

namespace tw::search {

struct ParallelLine {
  int number = 0;
  std::vector<double> units;  // one per axis, the objective's last; NaN where the parameter was inactive
  double objective = 0.0;
};

struct ParallelCoordinates {
  std::vector<AnalysisAxis> axes;  // the space's parameters in declared order, then the objective
  std::vector<ParallelLine> lines; // in trial number order
};

// `objectiveLabel` names the last axis ("val/accuracy").
ParallelCoordinates parallelCoordinates(const SearchSpace &space, const std::vector<Trial> &trials,
                                        const std::string &objectiveLabel = "objective", size_t objective = 0);

}  // namespace tw::search
