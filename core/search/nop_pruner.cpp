#include "core/search/catalog.h"

namespace tw::search {

namespace {
class NopPruner : public Pruner {
 public:
  bool shouldPrune(const PruneContext &) const override { return false; }
};
}  // namespace

PrunerEntry nopPrunerEntry() {
  PrunerEntry e;
  e.name = "none";
  e.doc = "Never stops a trial early.";
  e.make = [](const OptionValues &) { return std::make_unique<NopPruner>(); };
  return e;
}

}  // namespace tw::search
