#pragma once
// What the run page says when a run waits for its data: the share of training time spent waiting
// for batches, and the settings that would help, read from the run's own record (its latest
// train/data_wait and train/cache_hit_rate, its data.* parameters).
//
//   hint->setText(dataBoundHint(snapshot));   // empty when the run is not data-bound

#include "ui/workspace/poll_results.h"

#include <QString>

namespace tw::ui {

// A run counts as data-bound from this share of its training time spent waiting for batches.
inline constexpr double kDataBoundShare = 0.2;

QString dataBoundHint(const RunSnapshot &snapshot);

}  // namespace tw::ui
