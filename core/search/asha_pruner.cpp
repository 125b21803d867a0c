#include "core/search/asha_pruner.h"

#include "core/search/catalog.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace tw::search {

int64_t ashaRungStep(const AshaPrunerOptions &options, int rung) {
  const int64_t cap = std::numeric_limits<int64_t>::max() / 2;
  int64_t step = options.minResource;
  for (int i = 0; i < options.minEarlyStoppingRate + rung && step < cap; ++i) step *= options.reductionFactor;
  return std::min(step, cap);
}

namespace {

// The step at which `trial` reached the rung at `rungStep`: its first report at or after it,
// looking no further than `upTo`.
std::optional<int64_t> reachedAt(const Trial &trial, int64_t rungStep, int64_t upTo) {
  auto found = trial.intermediate.lower_bound(rungStep);
  if (found == trial.intermediate.end() || found->first > upTo) return std::nullopt;
  return found->first;
}

// Optuna's _is_trial_promotable_to_next_rung: `value` goes on when it is no worse than the
// (k / reduction_factor)th best of the k competing values, or the best while k < factor.
bool promotable(double value, std::vector<double> competing, int reductionFactor, Direction direction) {
  int64_t index = static_cast<int64_t>(competing.size()) / reductionFactor - 1;
  if (index < 0) index = 0;
  std::sort(competing.begin(), competing.end());
  if (direction == Direction::Maximize) return value >= competing[competing.size() - 1 - static_cast<size_t>(index)];
  return value <= competing[static_cast<size_t>(index)];
}

}  // namespace

bool ashaShouldPrune(const AshaPrunerOptions &options, const PruneContext &ctx,
                     const std::function<bool(const Trial &)> &competes, int64_t lastStep) {
  auto reported = ctx.trial.intermediate.find(ctx.step);
  if (reported == ctx.trial.intermediate.end()) return false;
  const double value = reported->second;

  for (int rung = 0;; ++rung) {
    const int64_t rungStep = ashaRungStep(options, rung);
    if (ctx.step < rungStep) return false;
    if (lastStep > 0 && rungStep >= lastStep) return false;
    // A rung reached at an earlier report was judged then (and passed, or the trial would
    // have stopped); only the rungs reached by this report are judged now.
    if (reachedAt(ctx.trial, rungStep, ctx.step) != ctx.step) continue;
    if (std::isnan(value)) return true;

    std::vector<double> competing{value};
    for (const Trial &other : ctx.trials) {
      if (other.number == ctx.trial.number || !competes(other)) continue;
      const auto at = reachedAt(other, rungStep, std::numeric_limits<int64_t>::max());
      if (!at) continue;
      const double v = other.intermediate.at(*at);
      if (!std::isnan(v)) competing.push_back(v);  // Optuna never records a NaN at a rung
    }
    if (static_cast<int>(competing.size()) <= options.bootstrapCount) return true;
    if (!promotable(value, competing, options.reductionFactor, ctx.direction)) return true;
  }
}

bool AshaPruner::shouldPrune(const PruneContext &ctx) const {
  return ashaShouldPrune(m_options, ctx, [](const Trial &) { return true; });
}

PrunerEntry ashaPrunerEntry() {
  PrunerEntry e;
  e.name = "asha";
  e.doc = "Asynchronous successive halving: at epochs min_resource * reduction_factor^k only the best "
          "1/reduction_factor of the trials that got there go on (Optuna's SuccessiveHalvingPruner).";
  e.options = {
      {"min_resource", OptionKind::Int, "1", 1.0, std::nullopt, {}, "Epochs before the first rung."},
      {"reduction_factor", OptionKind::Int, "3", 2.0, std::nullopt, {},
       "Each rung keeps the best 1/reduction_factor; rungs lie this factor apart (Optuna's own default is 4)."},
      {"min_early_stopping_rate", OptionKind::Int, "0", 0.0, std::nullopt, {},
       "Rungs to skip: the first rung is at min_resource * reduction_factor^rate."},
      {"bootstrap_count", OptionKind::Int, "0", 0.0, std::nullopt, {},
       "Trials that must reach a rung before any trial goes on past it."},
  };
  const auto specs = e.options;
  e.make = [specs](const OptionValues &values) {
    const OptionReader read(specs, values);
    AshaPrunerOptions o;
    o.minResource = static_cast<int>(read.integer("min_resource"));
    o.reductionFactor = static_cast<int>(read.integer("reduction_factor"));
    o.minEarlyStoppingRate = static_cast<int>(read.integer("min_early_stopping_rate"));
    o.bootstrapCount = static_cast<int>(read.integer("bootstrap_count"));
    return std::make_unique<AshaPruner>(o);
  };
  return e;
}

}  // namespace tw::search
