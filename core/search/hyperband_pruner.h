#pragma once
// Hyperband as Optuna's HyperbandPruner: several ASHA brackets, bracket b skipping its first b
// rungs, each trial assigned to one bracket from its number and judged only against the trials
// of its own bracket.
//
//   pruner: {type: hyperband, min_resource: 1, max_resource: 27, reduction_factor: 3}
//
// There are floor(log_rf(max_resource / min_resource)) + 1 brackets; bracket b gets a share of
// the trials proportional to ceil(n_brackets * rf^s / (s + 1)), s = n_brackets - 1 - b (the
// paper's number of configurations per bracket), by a hash of the trial number weighted by
// those shares. Optuna hashes the study name too; the pruner is not told the study, so every
// study splits its trial numbers the same way.
//
// max_resource 0 means "auto", Optuna's default: the most epochs any COMPLETE trial reported;
// nothing is pruned before a trial completes. Optuna fixes the value at that moment; this
// pruner keeps no state and recomputes it, which is the same while every trial trains for the
// same number of epochs. A rung at or past max_resource is never judged: trials there have
// finished (with Optuna's zero-based steps such a rung is never reached).

#include "core/search/asha_pruner.h"

#include <vector>

namespace tw::search {

struct HyperbandPrunerOptions {
  int minResource = 1;
  int maxResource = 0;       // epochs of a full trial; 0: the most any COMPLETE trial reported
  int reductionFactor = 3;
  int bootstrapCount = 0;
};

class HyperbandPruner : public Pruner {
 public:
  explicit HyperbandPruner(HyperbandPrunerOptions options) : m_options(options) {}
  bool shouldPrune(const PruneContext &ctx) const override;
  const HyperbandPrunerOptions &options() const { return m_options; }

 private:
  HyperbandPrunerOptions m_options;
};

// Each bracket's share of the trials, bracket 0 (the most aggressive) first; empty when
// max_resource < min_resource. For 1, 27, 3: {27, 12, 6, 4}.
std::vector<int64_t> hyperbandBudgets(int minResource, int maxResource, int reductionFactor);

// The bracket of trial `number` given the budgets.
int hyperbandBracket(int number, const std::vector<int64_t> &budgets);

}  // namespace tw::search
