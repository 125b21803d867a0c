#include "core/search/analysis_slices.h"

namespace tw::search {

std::vector<ParamSlice> paramSlices(const SearchSpace &space, const std::vector<Trial> &trials, size_t objective) {
  const std::vector<const Trial *> complete = completeTrials(trials);
  std::vector<ParamSlice> out;
  for (const auto &spec : space.params) {
    ParamSlice slice;
    slice.key = spec.key;
    slice.axis = paramAxis(spec);
    for (const Trial *t : complete) {
      auto found = t->params.find(spec.key);
      if (found == t->params.end() || objective >= t->values.size()) continue;
      slice.points.push_back({t->number, found->second, toUnit(spec, found->second), t->values[objective]});
    }
    out.push_back(std::move(slice));
  }
  return out;
}

}  // namespace tw::search
