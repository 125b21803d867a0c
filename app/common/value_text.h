#pragma once
// Recorded values as the CLI's tables and the HTML report write them, in one place, so that both
// say the same digits.

#include <cstdint>
#include <string>

namespace tw::app {

std::string formatDuration(int64_t ms);        // "1h02m", "3m07s", "12.4s"; "-" for none
std::string formatTimestamp(int64_t epochMs);  // local "2026-12-02 18:44:30"; "-" for none
std::string formatMetric(double value);        // "0.8831": config/number_text.h, as Studio shows it

}  // namespace tw::app
