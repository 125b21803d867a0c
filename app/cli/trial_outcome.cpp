#include "app/cli/trial_outcome.h"

#include "core/config/metric_keys.h"

#include <cmath>
#include <cstdlib>
#include <map>

namespace tw::cli {

std::vector<EpochReport> newEpochReports(const tracking::Store &store, int64_t runId, const std::string &metric,
                                         int64_t afterStep) {
  std::vector<EpochReport> out;
  if (metric == kParamsObjective) return out;
  const auto points = store.metricPoints(runId, metric, afterStep);
  if (points.empty()) return out;
  // The trainer logs the epoch number at the same step as the epoch's validation metrics.
  std::map<int64_t, int64_t> epochAt;
  for (const auto &p : store.metricPoints(runId, config::metrics::kEpoch, afterStep))
    epochAt[p.step] = std::llround(p.value);
  int64_t counted = 0;
  if (afterStep != INT64_MIN)
    for (const auto &p : store.metricPoints(runId, config::metrics::kEpoch))
      if (p.step <= afterStep) counted = std::max<int64_t>(counted, std::llround(p.value));
  for (const auto &p : points) {
    auto found = epochAt.find(p.step);
    // Written together, but committed by a batching writer: an epoch not yet visible is the next.
    const int64_t epoch = found != epochAt.end() ? found->second : counted + 1;
    counted = epoch;
    out.push_back({p.step, epoch, p.value});
  }
  return out;
}

TrialOutcome outcomeOfRun(const tracking::Store &store, const tracking::RunRecord &run,
                          const std::vector<std::string> &metrics) {
  TrialOutcome out;
  switch (run.status) {
    case tracking::RunStatus::Created:
    case tracking::RunStatus::Running:
      return out;
    case tracking::RunStatus::Failed:
      out.state = "FAILED";
      out.message = run.statusMessage.empty() ? "its run failed" : run.statusMessage;
      return out;
    case tracking::RunStatus::Killed:
      out.state = "FAILED";
      out.message = "its run was stopped before it finished" +
                    (run.statusMessage.empty() ? std::string() : " (" + run.statusMessage + ")");
      return out;
    case tracking::RunStatus::Finished:
      break;
  }
  const auto latest = store.latestMetrics(run.id);
  const auto params = store.params(run.id);
  for (const auto &metric : metrics) {
    double value = NAN;
    if (metric == kParamsObjective) {
      auto found = params.find("model.parameters");
      if (found != params.end()) value = std::strtod(found->second.c_str(), nullptr);
    } else {
      for (const auto &m : latest)
        if (m.key == metric) value = m.value;
    }
    if (!std::isfinite(value)) {
      out.state = "FAILED";
      out.message = "its run finished without recording the objective '" + metric + "'";
      return out;
    }
    out.values.push_back(value);
  }
  out.state = "COMPLETE";
  return out;
}

}  // namespace tw::cli
