#include "ui/compare/default_metric.h"

#include "core/config/metric_keys.h"

#include <algorithm>

namespace tw::ui {

std::string defaultMetric(const std::vector<const std::map<std::string, std::string> *> &runParams,
                          const std::vector<std::string> &recordedKeys) {
  auto recorded = [&](const std::string &key) {
    return std::find(recordedKeys.begin(), recordedKeys.end(), key) != recordedKeys.end();
  };
  // Runs of one comparison usually share their monitor; where they do not, the one most of them
  // watch (the first in key order on a tie, so the choice does not depend on the run order).
  std::map<std::string, int> monitors;
  for (const auto *params : runParams) {
    auto found = params->find("train.monitor");
    if (found != params->end() && !found->second.empty()) ++monitors[found->second];
  }
  const std::string *best = nullptr;
  int most = 0;
  for (const auto &[monitor, count] : monitors)
    if (count > most && recorded(monitor)) {
      best = &monitor;
      most = count;
    }
  if (best) return *best;
  if (recorded(config::metrics::kValLoss)) return config::metrics::kValLoss;
  return config::metrics::kTrainLoss;
}

}  // namespace tw::ui
