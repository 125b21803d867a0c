#pragma once
// Reads one metric series of one run in chunks of a bounded size and reduces it while reading:
// a min/max-decimated curve to draw, the mean per bin of a StepGrid to group by, and a summary
// (final, min, max). No series is ever cut off and none is ever whole in memory, so a hundred
// runs of a million steps read in a few megabytes.
//
//   SeriesScanOptions options;
//   options.maxPoints = 4000;
//   options.grid = &grid;
//   SeriesScan scan = scanSeries(store, run.id, "train/loss", first, last, options);

#include "tracking/run_record.h"
#include "ui/compare/metric_summary.h"
#include "ui/compare/step_grid.h"

#include <string>
#include <vector>

namespace tw::tracking {
class Store;
}

namespace tw::ui {

struct SeriesScanOptions {
  int maxPoints = 0;              // points of the decimated curve; 0: no curve
  const StepGrid *grid = nullptr; // null: no bin means
  int chunkPoints = 50000;        // rows per query
};

struct SeriesScan {
  std::vector<tracking::MetricPoint> points;  // decimated, in step order
  std::vector<StepValue> bins;                // mean of the finite values per bin, bins with none left out
  MetricSummary summary;
};

// firstStep and lastStep are the series' range as known before reading (for the decimator's
// buckets); points past lastStep are still read. Throws tracking::TrackingError.
SeriesScan scanSeries(const tracking::Store &store, int64_t runId, const std::string &key, int64_t firstStep,
                      int64_t lastStep, const SeriesScanOptions &options);

}  // namespace tw::ui
