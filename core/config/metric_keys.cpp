#include "core/config/metric_keys.h"

namespace tw::config::metrics {

std::string topKName(int64_t k) { return "top" + std::to_string(k) + "_accuracy"; }

std::string key(const std::string &split, const std::string &name) { return split + "/" + name; }

std::vector<std::string> evaluationNames(RunTask task, int64_t topK) {
  if (task == RunTask::Regression) return {kLoss, kMse, kMae, kR2};
  if (task == RunTask::NextToken) return {kLoss, kAccuracy, kPerplexity};
  return {kLoss, kAccuracy, topKName(topK), kPrecisionMacro, kRecallMacro, kF1Macro,
          kPrecisionWeighted, kRecallWeighted, kF1Weighted};
}

}  // namespace tw::config::metrics
