#pragma once
// Which way a metric improves, and when a new value counts as better. Early stopping, the best
// checkpoint, the plateau schedule, samplers and Studio all ask the same question, so they share
// this one answer. No LibTorch, no Qt.
//
//   lowerIsBetter("val/loss");                         // true
//   lowerIsBetter("accuracy");                         // false
//   improves(0.30, 0.31, /*lowerIsBetter=*/true, 0.005);  // true: better by more than min_delta

#include <string>

namespace tw::config::metrics {

// Whether a smaller value of the metric is better: losses and errors ("loss", "mse", "mae" and
// any key ending in them, with or without a split prefix). Everything else (accuracy, F1, R²,
// precision, recall) is better when larger.
bool lowerIsBetter(const std::string &metric);

// Whether `value` improves on `best` by more than `minDelta` in the metric's direction.
bool improves(double value, double best, bool lowerIsBetter, double minDelta);

}  // namespace tw::config::metrics
