#include "core/config/run_task.h"

#include "core/config/metric_keys.h"

namespace tw::config {

bool isRegression(const DataOptions &data) { return data.dataset == "csv" && data.task == "regression"; }

std::vector<std::string> monitorKeys(const DataOptions &data, int64_t topK) {
  std::vector<std::string> keys;
  for (const std::string &name : metrics::evaluationNames(isRegression(data), topK))
    keys.push_back(metrics::kValPrefix + name);
  return keys;
}

}  // namespace tw::config
