#pragma once
// How Torchwright writes a number for a person to read, in one place: the CLI's tables, the HTML
// report and Studio (which passes its locale's decimal point and group separator) show the same
// digits. No Qt.
//
//   formatNumber(0.002915586427666988)  // "0.002916"
//   formatNumber(60000)                 // "60,000"
//   formatNumber(3e-7)                  // "3E-07"
//   formatNumber(12345.678)             // "12,346": past the shown digits a fraction is noise
//   formatPercent(0.8735)               // "87.35%"
//   formatBytes(1536)                   // "1.5 KiB"

#include <charconv>
#include <string>

namespace tw::config {

// Significant digits shown unless a view asks for more (a value to compare closely).
inline constexpr int kShownDigits = 4;

// A whole number (below 1e15) exactly, its digits grouped; any other finite value with
// `significant` digits, trailing zeros dropped, in exponent form only below 1e-4 (or from 1e15);
// NaN and the infinities as "NaN", "∞" and "-∞"; -0 as "0".
std::string formatNumber(double value, int significant = kShownDigits, const std::string &decimalPoint = ".",
                         const std::string &groupSeparator = ",");

// A share as a percentage with formatNumber's digits: 0.8735 -> "87.35%", 1 -> "100%".
std::string formatPercent(double share, int significant = kShownDigits);

// The shortest text that reads back as the same double ("0.001", "1e-05"), as Python's repr and
// so MLflow and TensorBoard's tools write it: for files other programs read, not for people.
// Inline so that the tracking library, which links no core library, writes the same. (A run's
// own configuration keeps run_config.cpp's form: its text is what the configuration hash covers.)
inline std::string shortestText(double value) {
  char text[64];
  const auto result = std::to_chars(text, text + sizeof text, value);
  return std::string(text, result.ptr);
}

// A size in binary units, one decimal past the unit: "512 B", "1.5 KiB", "3.0 GiB".
std::string formatBytes(double bytes);

}  // namespace tw::config
