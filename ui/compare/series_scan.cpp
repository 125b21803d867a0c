#include "ui/compare/series_scan.h"

#include "tracking/store.h"
#include "ui/charts/stream_decimator.h"

#include <algorithm>
#include <climits>
#include <cmath>

namespace tw::ui {

SeriesScan scanSeries(const tracking::Store &store, int64_t runId, const std::string &key, int64_t firstStep,
                      int64_t lastStep, const SeriesScanOptions &options) {
  SeriesScan scan;
  StreamDecimator decimator(firstStep, lastStep, options.maxPoints);
  std::vector<double> sums;
  std::vector<int64_t> counts;
  if (options.grid) {
    sums.assign(static_cast<size_t>(options.grid->bins), 0.0);
    counts.assign(static_cast<size_t>(options.grid->bins), 0);
  }
  MetricSummary &summary = scan.summary;
  const int chunk = std::max(1, options.chunkPoints);
  int64_t after = INT64_MIN;
  for (;;) {
    // Keyset paging on the (run, key, step) index: each chunk is one range seek, not an OFFSET
    // that would re-walk everything before it.
    const auto points = store.metricPoints(runId, key, after, chunk);
    for (const auto &point : points) {
      ++summary.count;
      summary.last = point.value;
      summary.lastStep = point.step;
      if (options.maxPoints > 0) decimator.add(point);
      // A diverged value would make the mean and the range of the whole run meaningless.
      if (!std::isfinite(point.value)) continue;
      summary.min = std::isnan(summary.min) ? point.value : std::min(summary.min, point.value);
      summary.max = std::isnan(summary.max) ? point.value : std::max(summary.max, point.value);
      if (!options.grid) continue;
      const int bin = options.grid->binOf(point.step);
      if (bin < 0) continue;
      sums[static_cast<size_t>(bin)] += point.value;
      ++counts[static_cast<size_t>(bin)];
    }
    if (static_cast<int>(points.size()) < chunk) break;
    after = points.back().step;
  }
  if (options.maxPoints > 0) scan.points = decimator.take();
  for (size_t bin = 0; bin < counts.size(); ++bin) {
    if (counts[bin] == 0) continue;
    scan.bins.push_back({options.grid->binStep(static_cast<int>(bin)), sums[bin] / static_cast<double>(counts[bin])});
  }
  return scan;
}

}  // namespace tw::ui
