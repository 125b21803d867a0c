#pragma once
// The per-layer norms a run records once per epoch ("weight_norm/<param>", "grad_norm/<param>",
// config/metric_keys.h) arranged as a grid of parameter tensors against epochs, for the Layer
// Norms tab's heat map. Pure: the panel reads the points on a worker thread and calls this there.

#include "tracking/run_record.h"

#include <QStringList>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tw::ui {

struct LayerNormGrid {
  QStringList layers;   // parameter names without the prefix, by name: a layer's weight and bias adjoin
  QStringList epochs;   // column labels: 1-based epoch numbers
  std::vector<double> values;  // layers x epochs, row-major; NaN where nothing was recorded
};

// series: metric key -> its points, for every key of the run (others are ignored); epochPoints:
// the "epoch" metric, which says which epoch a step ended. A step without an epoch (a run from
// before the "epoch" metric) counts as the next column.
LayerNormGrid layerNormGrid(const std::string &prefix,
                            const std::map<std::string, std::vector<tracking::MetricPoint>> &series,
                            const std::vector<tracking::MetricPoint> &epochPoints);

}  // namespace tw::ui
