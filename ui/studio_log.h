#pragma once
// Studio's spdlog logger ("studio"). Studio's main() configures it; library code and tests that
// run without that set-up still get a working logger instead of a null pointer.

#include <spdlog/logger.h>

#include <memory>

namespace tw::ui {

std::shared_ptr<spdlog::logger> studioLog();

}  // namespace tw::ui
