#include "core/search/grid_sampler.h"

#include "core/search/catalog.h"
#include "core/search/rng.h"

#include <set>
#include <string>

namespace tw::search {

namespace {

// A combination as text ("key=value" per active parameter), so values read back from the
// database compare equal to the ones enumerated here.
std::string combinationKey(const SearchSpace &space, const Params &params) {
  std::string key;
  for (const auto &spec : space.params) {
    auto found = params.find(spec.key);
    if (found == params.end()) continue;
    key += spec.key + '=' + valueText(spec, snap(spec, found->second)) + '\n';
  }
  return key;
}

bool walk(const SearchSpace &space, const std::vector<std::vector<double>> &values, size_t index, Params &params,
          const std::function<bool(const Params &)> &visit) {
  if (index == space.params.size()) return visit(params);
  const ParamSpec &spec = space.params[index];
  if (!isActive(spec, space, params)) return walk(space, values, index + 1, params, visit);
  for (double v : values[index]) {
    params[spec.key] = v;
    if (!walk(space, values, index + 1, params, visit)) {
      params.erase(spec.key);
      return false;
    }
  }
  params.erase(spec.key);
  return true;
}

}  // namespace

std::vector<double> gridValues(const ParamSpec &spec, int pointsPerFloat) {
  std::vector<double> values;
  if (spec.type == ParamType::Categorical) {
    for (size_t i = 0; i < spec.choices.size(); ++i) values.push_back(static_cast<double>(i));
    return values;
  }
  const long long n = cardinality(spec);
  if (n > 0) {
    const double step = spec.type == ParamType::Int && spec.step <= 0 ? 1.0 : spec.step;
    for (long long i = 0; i < n; ++i) values.push_back(snap(spec, spec.low + static_cast<double>(i) * step));
    return values;
  }
  if (pointsPerFloat <= 1 || spec.high <= spec.low) {
    values.push_back(pointsPerFloat <= 1 ? fromUnit(spec, 0.5) : spec.low);
    return values;
  }
  for (int i = 0; i < pointsPerFloat; ++i) {
    // fromUnit would widen nothing for a continuous float, so i / (k - 1) lands on low and high.
    const double value = fromUnit(spec, static_cast<double>(i) / (pointsPerFloat - 1));
    if (values.empty() || value != values.back()) values.push_back(value);
  }
  return values;
}

bool forEachGridPoint(const SearchSpace &space, int pointsPerFloat, const std::function<bool(const Params &)> &visit) {
  std::vector<std::vector<double>> values;
  for (const auto &spec : space.params) values.push_back(gridValues(spec, pointsPerFloat));
  Params params;
  return walk(space, values, 0, params, visit);
}

Params GridSampler::sample(const SampleContext &ctx) const {
  std::set<std::string> taken;
  for (const auto &trial : ctx.trials)
    if (trial.number < ctx.number) taken.insert(combinationKey(ctx.space, trial.params));

  // The walk stops at the first free combination, so trial n looks at no more than n + 1 of them.
  Params chosen;
  const bool exhausted = forEachGridPoint(ctx.space, m_options.pointsPerFloat, [&](const Params &p) {
    if (taken.count(combinationKey(ctx.space, p))) return true;
    chosen = p;
    return false;
  });
  if (!exhausted) return chosen;

  // Every combination is taken; there are no more of them than earlier trials, so listing them
  // all costs no more than reading the history did.
  std::vector<Params> all;
  forEachGridPoint(ctx.space, m_options.pointsPerFloat, [&](const Params &p) {
    all.push_back(p);
    return true;
  });
  Rng rng(Rng::trialSeed(ctx.seed, ctx.number));
  return all.empty() ? Params{} : all[static_cast<size_t>(rng.below(static_cast<int64_t>(all.size())))];
}

SamplerEntry gridSamplerEntry() {
  SamplerEntry e;
  e.name = "grid";
  e.doc = "Every combination once, in order: ints, stepped floats and choices at each value, continuous floats at "
          "points_per_float evenly spaced points (log-spaced where log: true); conditional parameters only where "
          "active. After the last combination, trials repeat combinations drawn at random.";
  e.options = {{"points_per_float", OptionKind::Int, "5", 1.0, 1000.0, {}, "Points on each continuous float axis."}};
  e.multiObjective = true;
  e.make = [specs = e.options](const OptionValues &values) {
    OptionReader read(specs, values);
    GridOptions options;
    options.pointsPerFloat = static_cast<int>(read.integer("points_per_float"));
    return std::make_unique<GridSampler>(options);
  };
  return e;
}

}  // namespace tw::search
