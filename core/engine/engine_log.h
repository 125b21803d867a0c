#pragma once
// The "engine" spdlog logger: the worker registers it with its own sinks; elsewhere (tests,
// tools) it is created on first use with a stderr sink.

#include <spdlog/spdlog.h>

#include <memory>

namespace tw::engine {

std::shared_ptr<spdlog::logger> engineLog();

}  // namespace tw::engine
