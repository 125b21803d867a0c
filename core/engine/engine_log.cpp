#include "core/engine/engine_log.h"

#include <spdlog/sinks/stdout_color_sinks.h>

#include <mutex>

namespace tw::engine {

std::shared_ptr<spdlog::logger> engineLog() {
  // Two trainers in one process (tests, a future in-process sweep) may ask first together.
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto logger = spdlog::get("engine")) return logger;
  return spdlog::stderr_color_mt("engine");
}

}  // namespace tw::engine
