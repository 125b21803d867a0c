#include "ui/studio_log.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <mutex>

namespace tw::ui {

std::shared_ptr<spdlog::logger> studioLog() {
  // The poller thread and the UI thread may ask first at the same time.
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto logger = spdlog::get("studio")) return logger;
  return spdlog::stderr_color_mt("studio");
}

}  // namespace tw::ui
