#pragma once
// The common step axis on which the curves of several runs are lined up for group bands. Runs
// of up to maxBins steps keep every step (bin width 1); longer ones are cut into maxBins bins of
// equal width, so that runs logging at different steps still meet in the same bins and the
// aggregation stays a fixed size however long the runs are.
//
//   StepGrid grid = StepGrid::spanning(1, 1'000'000, 1000);   // width 1000
//   int bin = grid.binOf(4711);                               // 4
//   double x = grid.binStep(bin);                             // 4500.5, the bin's centre

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace tw::ui {

// A point of a curve at a (possibly fractional: a bin centre) step.
struct StepValue {
  double step = 0.0;
  double value = 0.0;
};

struct StepGrid {
  int64_t first = 0;
  int64_t width = 1;
  int bins = 0;  // 0: no run has the metric

  static StepGrid spanning(int64_t firstStep, int64_t lastStep, int maxBins) {
    StepGrid grid;
    if (lastStep < firstStep) return grid;
    const double span = static_cast<double>(lastStep - firstStep) + 1.0;
    grid.first = firstStep;
    grid.width = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(span / std::max(1, maxBins))));
    grid.bins = static_cast<int>(std::ceil(span / static_cast<double>(grid.width)));
    return grid;
  }
  // -1 for a step outside the grid (written after the grid was laid out).
  int binOf(int64_t step) const {
    if (step < first) return -1;
    const int64_t bin = (step - first) / width;
    return bin < bins ? static_cast<int>(bin) : -1;
  }
  double binStep(int bin) const {
    return static_cast<double>(first) + static_cast<double>(bin) * static_cast<double>(width) +
           static_cast<double>(width - 1) / 2.0;
  }
};

}  // namespace tw::ui
