#include "ui/runs/layer_norms.h"

#include <cmath>
#include <limits>
#include <set>

namespace tw::ui {

LayerNormGrid layerNormGrid(const std::string &prefix,
                            const std::map<std::string, std::vector<tracking::MetricPoint>> &series,
                            const std::vector<tracking::MetricPoint> &epochPoints) {
  std::map<int64_t, int64_t> epochAtStep;
  for (const auto &point : epochPoints) epochAtStep[point.step] = std::llround(point.value);
  // Columns: the epochs any norm was recorded at, in order.
  std::map<int64_t, int64_t> columnEpoch;  // step -> epoch
  for (const auto &[key, points] : series) {
    if (key.rfind(prefix, 0) != 0) continue;
    for (const auto &point : points) {
      auto it = epochAtStep.find(point.step);
      columnEpoch.emplace(point.step, it != epochAtStep.end() ? it->second : -1);
    }
  }
  std::set<int64_t> epochs;
  int64_t ordinal = 0;
  std::map<int64_t, int64_t> stepColumnEpoch;
  for (auto &[step, epoch] : columnEpoch) {
    ++ordinal;
    stepColumnEpoch[step] = epoch >= 0 ? epoch : ordinal;
    epochs.insert(stepColumnEpoch[step]);
  }
  std::map<int64_t, int> column;
  LayerNormGrid grid;
  for (int64_t epoch : epochs) {
    column[epoch] = static_cast<int>(grid.epochs.size());
    grid.epochs << QString::number(epoch);
  }
  for (const auto &[key, points] : series)
    if (key.rfind(prefix, 0) == 0 && !points.empty()) grid.layers << QString::fromStdString(key.substr(prefix.size()));
  grid.values.assign(static_cast<size_t>(grid.layers.size()) * static_cast<size_t>(grid.epochs.size()),
                     std::numeric_limits<double>::quiet_NaN());
  int row = 0;
  for (const auto &[key, points] : series) {
    if (key.rfind(prefix, 0) != 0 || points.empty()) continue;
    for (const auto &point : points) {
      const int c = column[stepColumnEpoch[point.step]];
      grid.values[static_cast<size_t>(row) * grid.epochs.size() + static_cast<size_t>(c)] = point.value;
    }
    ++row;
  }
  return grid;
}

}  // namespace tw::ui
