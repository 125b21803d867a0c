#pragma once
// Compares the metric histories of two runs point by point: `torchwright reproduce` asks whether
// a re-run recorded exactly what the original did, and Studio's comparison can say where two
// runs part. Timing metrics (throughput, data wait) differ between any two runs and are skipped.
//
//   HistoryComparison c = compareHistories(store, original.id, rerun.id);
//   if (!c.identical) std::puts(c.firstDifference.c_str());

#include "tracking/store.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tw::tracking {

struct HistoryComparison {
  bool identical = false;
  int64_t seriesCompared = 0;
  int64_t pointsCompared = 0;
  // "train/loss at step 17: 0.41230000000000001 vs 0.41250000000000003", or a missing series or
  // step; empty when identical.
  std::string firstDifference;
  std::vector<std::string> skipped;  // keys left out as timing metrics
};

// Whether a metric measures time rather than what was learned (samples_per_sec, data_wait,
// anything under "time/" or "system/").
bool isTimingMetric(const std::string &key);

// Values must be bit-identical: a reproduction on the same hardware and threads is exact.
HistoryComparison compareHistories(const Store &store, int64_t runA, int64_t runB);

}  // namespace tw::tracking
