#include "core/search/catalog.h"

namespace tw::search {

// One line per sampler and per pruner; their files define the entries.
const std::vector<SamplerEntry> &samplerCatalog() {
  static const std::vector<SamplerEntry> entries = {
      randomSamplerEntry(),
      gridSamplerEntry(),
      quasiRandomSamplerEntry(),
      tpeSamplerEntry(),
      gpSamplerEntry(),
      cmaesSamplerEntry(),
      nsga2SamplerEntry(),
  };
  return entries;
}

const std::vector<PrunerEntry> &prunerCatalog() {
  static const std::vector<PrunerEntry> entries = {
      nopPrunerEntry(),
      medianPrunerEntry(),
      percentilePrunerEntry(),
      ashaPrunerEntry(),
      hyperbandPrunerEntry(),
  };
  return entries;
}

const SamplerEntry *findSampler(const std::string &name) {
  for (const auto &e : samplerCatalog())
    if (e.name == name) return &e;
  return nullptr;
}

const PrunerEntry *findPruner(const std::string &name) {
  for (const auto &e : prunerCatalog())
    if (e.name == name) return &e;
  return nullptr;
}

}  // namespace tw::search
