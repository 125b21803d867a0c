#include "app/common/value_text.h"

#include "core/config/number_text.h"

#include <cstdio>
#include <ctime>

namespace tw::app {

std::string formatDuration(int64_t ms) {
  if (ms <= 0) return "-";
  char buf[32];
  int64_t s = ms / 1000;
  if (s >= 3600)
    std::snprintf(buf, sizeof(buf), "%lldh%02lldm", (long long)(s / 3600), (long long)(s % 3600 / 60));
  else if (s >= 60)
    std::snprintf(buf, sizeof(buf), "%lldm%02llds", (long long)(s / 60), (long long)(s % 60));
  else
    std::snprintf(buf, sizeof(buf), "%.1fs", ms / 1000.0);
  return buf;
}

std::string formatTimestamp(int64_t epochMs) {
  if (epochMs <= 0) return "-";
  std::time_t t = static_cast<std::time_t>(epochMs / 1000);
  std::tm local{};
  localtime_r(&t, &local);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", &local);
  return buf;
}

std::string formatMetric(double value) { return config::formatNumber(value); }

}  // namespace tw::app
