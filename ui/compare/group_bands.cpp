#include "ui/compare/group_bands.h"

#include <algorithm>

namespace tw::ui {

std::vector<RunGroup> groupRuns(const ParamColumn &column) {
  std::vector<RunGroup> groups(column.categories.size());
  for (size_t category = 0; category < groups.size(); ++category) groups[category].value = column.categories[category];
  for (size_t run = 0; run < column.categoryOf.size(); ++run)
    groups[static_cast<size_t>(column.categoryOf[run])].runs.push_back(run);
  groups.erase(std::remove_if(groups.begin(), groups.end(), [](const RunGroup &g) { return g.runs.empty(); }),
               groups.end());
  return groups;
}

std::vector<BandPoint> bandOf(const std::vector<const std::vector<StepValue> *> &series) {
  // One sort over all points instead of a map per step: 200 runs of 1000 bins sort in a few
  // milliseconds on the UI thread.
  std::vector<StepValue> all;
  size_t total = 0;
  for (const auto *points : series) total += points ? points->size() : 0;
  all.reserve(total);
  for (const auto *points : series)
    if (points) all.insert(all.end(), points->begin(), points->end());
  std::stable_sort(all.begin(), all.end(), [](const StepValue &a, const StepValue &b) { return a.step < b.step; });

  std::vector<BandPoint> band;
  for (size_t begin = 0; begin < all.size();) {
    BandPoint point;
    point.step = all[begin].step;
    point.min = point.max = all[begin].value;
    double sum = 0.0;
    size_t end = begin;
    // Equal steps are bitwise equal: they are either integers or centres of the same grid bin.
    for (; end < all.size() && all[end].step == point.step; ++end) {
      sum += all[end].value;
      point.min = std::min(point.min, all[end].value);
      point.max = std::max(point.max, all[end].value);
    }
    point.runs = static_cast<int>(end - begin);
    point.mean = sum / point.runs;
    band.push_back(point);
    begin = end;
  }
  return band;
}

}  // namespace tw::ui
