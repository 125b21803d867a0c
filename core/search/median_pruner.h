#pragma once
// Optuna's PercentilePruner, and MedianPruner as its 50th percentile: stop a trial whose best
// report so far is worse than the given percentile of the COMPLETE trials' reports at the same
// step.
//
//   pruner: {type: median, n_startup_trials: 5, n_warmup_steps: 0, interval_steps: 1}
//   pruner: {type: percentile, percentile: 25}
//
// As in Optuna only COMPLETE trials are the reference (PRUNED ones are not: they were the worse
// ones, and counting them would lower the bar as a study goes on), and `n_startup_trials` counts
// COMPLETE trials. Steps are epochs counted from 1, so `n_warmup_steps: 2` judges a trial first
// at epoch 3 -- the same number of finished epochs as Optuna's zero-based steps give.

#include "core/search/pruner.h"

namespace tw::search {

struct PercentilePrunerOptions {
  double percentile = 50.0;   // 0..100; 25 keeps the best quarter
  int nStartupTrials = 5;     // no pruning until this many trials are COMPLETE
  int nWarmupSteps = 0;       // no pruning within a trial's first this many epochs
  int intervalSteps = 1;      // judge every this many epochs after the warm-up
  int nMinTrials = 1;         // reports at the step needed before judging
};

class PercentilePruner : public Pruner {
 public:
  explicit PercentilePruner(PercentilePrunerOptions options) : m_options(options) {}
  bool shouldPrune(const PruneContext &ctx) const override;
  const PercentilePrunerOptions &options() const { return m_options; }

 private:
  PercentilePrunerOptions m_options;
};

// Linear interpolation between order statistics (numpy's default); NaNs are left out and the
// result is NaN when nothing is left.
double percentileOf(std::vector<double> values, double percentile);

}  // namespace tw::search
