#include "tracking/tracking_log.h"

#include <spdlog/sinks/stdout_color_sinks.h>

namespace tw::tracking {

std::shared_ptr<spdlog::logger> trackingLog() {
  if (auto registered = spdlog::get("tracking")) return registered;
  // Not registered: the worker opens the store before it sets up its loggers, and
  // spdlog::register_logger throws on a name that is already taken.
  static const auto fallback = std::make_shared<spdlog::logger>(
      "tracking", std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
  return fallback;
}

}  // namespace tw::tracking
