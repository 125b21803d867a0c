#pragma once
// One number per run and metric for the views that place a run at a point (parallel
// coordinates, scatter): its final value, or its lowest or highest over all recorded points.
// Min and max rather than "best": the store does not know whether a metric is to be minimised,
// and a guess (loss down, accuracy up) would be wrong for some metric; the user says which.
//
//   double v = summaryValue(run.summary, Statistic::Min);   // NaN when the run has no points

#include <cstdint>
#include <limits>

namespace tw::ui {

enum class Statistic { Final, Min, Max };

struct MetricSummary {
  int64_t count = 0;     // points read, finite or not
  int64_t lastStep = 0;  // step of `last`
  double last = std::numeric_limits<double>::quiet_NaN();
  double min = std::numeric_limits<double>::quiet_NaN();  // over finite values only
  double max = std::numeric_limits<double>::quiet_NaN();
};

inline double summaryValue(const MetricSummary &summary, Statistic statistic) {
  switch (statistic) {
    case Statistic::Final: return summary.last;
    case Statistic::Min: return summary.min;
    case Statistic::Max: return summary.max;
  }
  return summary.last;
}

}  // namespace tw::ui
