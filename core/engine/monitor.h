#pragma once
// The monitored metric (train.monitor): its direction and when a value counts as better. Early
// stopping, the best checkpoint and the plateau schedule all ask the same question, so they
// share this one answer. No LibTorch.

#include <string>

namespace tw::engine {

// Whether a smaller value of the metric is better ("loss", "mse", "mae" and anything ending in them).
bool lowerIsBetter(const std::string &metric);

// Whether `value` improves on `best` by more than `minDelta` in the metric's direction.
bool improves(double value, double best, bool lowerIsBetter, double minDelta);

}  // namespace tw::engine
