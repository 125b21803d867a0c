#include "core/search/median_pruner.h"

#include "core/search/catalog.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tw::search {

double percentileOf(std::vector<double> values, double percentile) {
  values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return std::isnan(v); }), values.end());
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(values.begin(), values.end());
  const double position = percentile / 100.0 * static_cast<double>(values.size() - 1);
  const size_t below = static_cast<size_t>(std::floor(position));
  const size_t above = std::min(below + 1, values.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return values[below] + fraction * (values[above] - values[below]);
}

namespace {

// Optuna's _is_first_in_interval_step, on zero-based steps: true when no earlier report of the
// trial falls at or after the latest judging step, so a trial that skips a judging step is
// judged at its next report instead.
bool firstInInterval(const Trial &trial, int64_t step0, int64_t warmup, int64_t interval) {
  const int64_t nearestJudging = (step0 - warmup) / interval * interval + warmup;
  int64_t secondLast = -1;
  for (const auto &[s, v] : trial.intermediate) {
    const int64_t s0 = s - 1;
    if (s0 != step0 && s0 > secondLast) secondLast = s0;
  }
  return secondLast < nearestJudging;
}

}  // namespace

bool PercentilePruner::shouldPrune(const PruneContext &ctx) const {
  std::vector<const Trial *> complete;
  for (const Trial &t : ctx.trials)
    if (t.state == TrialState::Complete && t.number != ctx.trial.number) complete.push_back(&t);
  if (complete.empty() || static_cast<int>(complete.size()) < m_options.nStartupTrials) return false;

  const int64_t step0 = ctx.step - 1;  // Optuna's zero-based step
  if (step0 < m_options.nWarmupSteps) return false;
  if (!firstInInterval(ctx.trial, step0, m_options.nWarmupSteps, m_options.intervalSteps)) return false;

  const bool maximize = ctx.direction == Direction::Maximize;
  double best = std::numeric_limits<double>::quiet_NaN();
  for (const auto &[s, v] : ctx.trial.intermediate) {
    if (s > ctx.step || std::isnan(v)) continue;
    if (std::isnan(best) || better(ctx.direction, v, best)) best = v;
  }
  if (std::isnan(best)) return true;  // nothing but NaN reported: a diverged trial

  std::vector<double> atStep;
  for (const Trial *t : complete) {
    auto found = t->intermediate.find(ctx.step);
    if (found != t->intermediate.end()) atStep.push_back(found->second);
  }
  if (static_cast<int>(atStep.size()) < m_options.nMinTrials) return false;
  // For a maximised objective "the worst p percent" are at the bottom, so the bar is the
  // (100 - p)th percentile.
  const double bar = percentileOf(atStep, maximize ? 100.0 - m_options.percentile : m_options.percentile);
  if (std::isnan(bar)) return false;
  return maximize ? best < bar : best > bar;
}

namespace {

std::vector<OptionSpec> commonSpecs() {
  return {
      {"n_startup_trials", OptionKind::Int, "5", 0.0, std::nullopt, {},
       "No pruning until this many trials are COMPLETE."},
      {"n_warmup_steps", OptionKind::Int, "0", 0.0, std::nullopt, {},
       "No pruning within a trial's first this many epochs."},
      {"interval_steps", OptionKind::Int, "1", 1.0, std::nullopt, {},
       "Judge a trial every this many epochs after the warm-up."},
      {"n_min_trials", OptionKind::Int, "1", 1.0, std::nullopt, {},
       "COMPLETE trials that must have reported at an epoch before a trial is judged there."},
  };
}

PrunerEntry percentileEntry(std::string name, std::string doc, std::vector<OptionSpec> specs, double fixedPercentile) {
  PrunerEntry e;
  e.name = std::move(name);
  e.doc = std::move(doc);
  e.options = specs;
  e.make = [specs, fixedPercentile](const OptionValues &values) {
    const OptionReader read(specs, values);
    PercentilePrunerOptions o;
    o.percentile = std::isnan(fixedPercentile) ? read.number("percentile") : fixedPercentile;
    o.nStartupTrials = static_cast<int>(read.integer("n_startup_trials"));
    o.nWarmupSteps = static_cast<int>(read.integer("n_warmup_steps"));
    o.intervalSteps = static_cast<int>(read.integer("interval_steps"));
    o.nMinTrials = static_cast<int>(read.integer("n_min_trials"));
    return std::make_unique<PercentilePruner>(o);
  };
  return e;
}

}  // namespace

PrunerEntry medianPrunerEntry() {
  return percentileEntry("median",
                         "Stops a trial whose best value so far is worse than the median of the COMPLETE "
                         "trials at the same epoch (Optuna's MedianPruner).",
                         commonSpecs(), 50.0);
}

PrunerEntry percentilePrunerEntry() {
  auto specs = commonSpecs();
  specs.insert(specs.begin(), {"percentile", OptionKind::Float, "25", 0.0, 100.0, {},
                               "Keep trials within this best percentile at each epoch (25: the best quarter)."});
  return percentileEntry("percentile",
                         "Stops a trial whose best value so far falls outside the best `percentile` percent "
                         "of the COMPLETE trials at the same epoch (Optuna's PercentilePruner).",
                         specs, std::numeric_limits<double>::quiet_NaN());
}

}  // namespace tw::search
