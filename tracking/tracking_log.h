#pragma once
// The "tracking" spdlog logger. The worker registers it with its own sinks; until something
// registers one, a private stderr logger answers, so using it never blocks a later registration.

#include <spdlog/spdlog.h>

#include <memory>

namespace tw::tracking {

std::shared_ptr<spdlog::logger> trackingLog();

}  // namespace tw::tracking
