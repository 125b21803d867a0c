#pragma once
// Asynchronous successive halving (ASHA), as Optuna's SuccessiveHalvingPruner: rung k sits at
// epoch min_resource * reduction_factor^(min_early_stopping_rate + k); a trial reaching a rung
// goes on only when its value there is among the best 1/reduction_factor of the values every
// trial has recorded at that rung so far (itself included), and stops otherwise.
//
//   pruner: {type: asha, min_resource: 1, reduction_factor: 3, min_early_stopping_rate: 0}
//
// reduction_factor defaults to 3, the factor of the ASHA and Hyperband papers (and of Optuna's
// HyperbandPruner); Optuna's SuccessiveHalvingPruner alone defaults to 4. min_resource is a
// number of epochs (Optuna's "auto" guess, a hundredth of the longest trial, is 1 for any run
// under 200 epochs). Until reduction_factor trials have reached a rung, only the best so far
// goes on, as in Optuna.
//
// The pruner keeps no state: a trial's value at a rung is its report at the first epoch at or
// after the rung, which is exactly what Optuna records when it judges the trial there.

#include "core/search/pruner.h"

#include <functional>

namespace tw::search {

struct AshaPrunerOptions {
  int minResource = 1;            // epochs before the first rung
  int reductionFactor = 3;        // keep the best 1/reduction_factor at each rung (>= 2)
  int minEarlyStoppingRate = 0;   // skip this many rungs at the start
  int bootstrapCount = 0;         // trials that must reach a rung before any goes on past it
};

class AshaPruner : public Pruner {
 public:
  explicit AshaPruner(AshaPrunerOptions options) : m_options(options) {}
  bool shouldPrune(const PruneContext &ctx) const override;
  const AshaPrunerOptions &options() const { return m_options; }

 private:
  AshaPrunerOptions m_options;
};

// The epoch of rung `rung` (saturating instead of overflowing).
int64_t ashaRungStep(const AshaPrunerOptions &options, int rung);

// The ASHA decision over the trials `competes` accepts (Hyperband passes those of one bracket).
// Rungs at or past `lastStep` (when > 0) are not judged: a trial there has finished, and
// there is no higher rung to promote it to.
bool ashaShouldPrune(const AshaPrunerOptions &options, const PruneContext &ctx,
                     const std::function<bool(const Trial &)> &competes, int64_t lastStep = 0);

}  // namespace tw::search
