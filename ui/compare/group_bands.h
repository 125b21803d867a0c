#pragma once
// Group by: runs that share a parameter's value form a group, drawn as the mean of their curves
// with a band from the lowest to the highest of them.
//
// Runs need not log the same steps (another logging interval, a shorter or a resumed run), so
// the band is computed per step over the runs that have a point at that step: a step where one
// run of three logged is that run's value, not an average with absent values or with values
// interpolated between steps. Where a group's runs log at different steps altogether, the
// loader's StepGrid puts them into common bins first (step_grid.h).
//
//   auto groups = groupRuns(column);                 // column.categories order
//   auto band = bandOf({&runA.binned, &runB.binned});   // step, mean, min, max, runs

#include "ui/compare/param_columns.h"
#include "ui/compare/step_grid.h"

#include <string>
#include <vector>

namespace tw::ui {

struct RunGroup {
  std::string value;         // the parameter's value shared by the group
  std::vector<size_t> runs;  // indices into the compared runs
};

// One group per category of the column, in the column's order (by number for numbers).
std::vector<RunGroup> groupRuns(const ParamColumn &column);

struct BandPoint {
  double step = 0.0;
  double mean = 0.0;
  double min = 0.0;
  double max = 0.0;
  int runs = 0;  // how many runs had a point at this step
};

// Each series sorted by step; null series are skipped. Steps in ascending order.
std::vector<BandPoint> bandOf(const std::vector<const std::vector<StepValue> *> &series);

}  // namespace tw::ui
