#include "core/config/metric_direction.h"

#include "core/config/metric_keys.h"

namespace tw::config::metrics {

namespace {

bool endsWith(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

bool lowerIsBetter(const std::string &metric) {
  return endsWith(metric, "loss") || endsWith(metric, "mse") || endsWith(metric, "mae") ||
         endsWith(metric, kPerplexity);
}

bool improves(double value, double best, bool lowerIsBetter, double minDelta) {
  return lowerIsBetter ? value < best - minDelta : value > best + minDelta;
}

}  // namespace tw::config::metrics
