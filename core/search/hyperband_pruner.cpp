#include "core/search/hyperband_pruner.h"

#include "core/search/catalog.h"
#include "core/search/rng.h"

#include <algorithm>
#include <numeric>

namespace tw::search {

std::vector<int64_t> hyperbandBudgets(int minResource, int maxResource, int reductionFactor) {
  if (minResource < 1 || reductionFactor < 2 || maxResource < minResource) return {};
  // floor(log_rf(max / min)) counted in integers: a floating-point log of 27 / 1 in base 3 can
  // land on either side of 3.
  int brackets = 1;
  for (int64_t r = static_cast<int64_t>(minResource) * reductionFactor; r <= maxResource; r *= reductionFactor)
    ++brackets;
  std::vector<int64_t> budgets;
  for (int b = 0; b < brackets; ++b) {
    const int s = brackets - 1 - b;
    int64_t power = 1;
    for (int i = 0; i < s; ++i) power *= reductionFactor;
    const int64_t numerator = static_cast<int64_t>(brackets) * power;
    budgets.push_back((numerator + s) / (s + 1));  // ceil(numerator / (s + 1))
  }
  return budgets;
}

int hyperbandBracket(int number, const std::vector<int64_t> &budgets) {
  const int64_t total = std::accumulate(budgets.begin(), budgets.end(), int64_t{0});
  if (total <= 0) return 0;
  int64_t n = static_cast<int64_t>(Rng::trialSeed(0, number) % static_cast<uint64_t>(total));
  for (size_t b = 0; b < budgets.size(); ++b) {
    n -= budgets[b];
    if (n < 0) return static_cast<int>(b);
  }
  return static_cast<int>(budgets.size()) - 1;
}

bool HyperbandPruner::shouldPrune(const PruneContext &ctx) const {
  int64_t maxResource = m_options.maxResource;
  if (maxResource <= 0) {
    for (const Trial &t : ctx.trials)
      if (t.state == TrialState::Complete && !t.intermediate.empty())
        maxResource = std::max(maxResource, t.intermediate.rbegin()->first);
    if (maxResource <= 0) return false;  // no trial has completed yet
  }
  const auto budgets = hyperbandBudgets(m_options.minResource, static_cast<int>(maxResource), m_options.reductionFactor);
  if (budgets.empty()) return false;

  const int bracket = hyperbandBracket(ctx.trial.number, budgets);
  AshaPrunerOptions asha;
  asha.minResource = m_options.minResource;
  asha.reductionFactor = m_options.reductionFactor;
  asha.minEarlyStoppingRate = bracket;
  asha.bootstrapCount = m_options.bootstrapCount;
  return ashaShouldPrune(
      asha, ctx, [&](const Trial &other) { return hyperbandBracket(other.number, budgets) == bracket; }, maxResource);
}

PrunerEntry hyperbandPrunerEntry() {
  PrunerEntry e;
  e.name = "hyperband";
  e.doc = "Hyperband: successive-halving brackets of different aggressiveness, each trial in one bracket "
          "(Optuna's HyperbandPruner).";
  e.options = {
      {"min_resource", OptionKind::Int, "1", 1.0, std::nullopt, {}, "Epochs before the first rung of bracket 0."},
      {"max_resource", OptionKind::Int, "0", 0.0, std::nullopt, {},
       "Epochs of a full trial; 0: the most epochs any COMPLETE trial reported (Optuna's \"auto\")."},
      {"reduction_factor", OptionKind::Int, "3", 2.0, std::nullopt, {},
       "Each rung keeps the best 1/reduction_factor; rungs lie this factor apart."},
      {"bootstrap_count", OptionKind::Int, "0", 0.0, std::nullopt, {},
       "Trials that must reach a rung before any trial goes on past it."},
  };
  const auto specs = e.options;
  e.make = [specs](const OptionValues &values) {
    const OptionReader read(specs, values);
    HyperbandPrunerOptions o;
    o.minResource = static_cast<int>(read.integer("min_resource"));
    o.maxResource = static_cast<int>(read.integer("max_resource"));
    o.reductionFactor = static_cast<int>(read.integer("reduction_factor"));
    o.bootstrapCount = static_cast<int>(read.integer("bootstrap_count"));
    return std::make_unique<HyperbandPruner>(o);
  };
  return e;
}

}  // namespace tw::search
