#include "core/config/metric_keys.h"

namespace tw::config::metrics {

std::string topKName(int64_t k) { return "top" + std::to_string(k) + "_accuracy"; }

std::string key(const std::string &split, const std::string &name) { return split + "/" + name; }

std::vector<std::string> evaluationNames(bool regression, int64_t topK) {
  if (regression) return {kLoss, kMse, kMae, kR2};
  return {kLoss, kAccuracy, topKName(topK), kPrecisionMacro, kRecallMacro, kF1Macro,
          kPrecisionWeighted, kRecallWeighted, kF1Weighted};
}

}  // namespace tw::config::metrics
