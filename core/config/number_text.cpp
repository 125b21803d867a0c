#include "core/config/number_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tw::config {

namespace {

// "1234567" -> "1,234,567"; a leading minus stays in front.
std::string grouped(const std::string &digits, const std::string &separator) {
  const bool negative = !digits.empty() && digits[0] == '-';
  const std::string plain = negative ? digits.substr(1) : digits;
  std::string out;
  for (size_t i = 0; i < plain.size(); ++i) {
    if (i > 0 && (plain.size() - i) % 3 == 0) out += separator;
    out += plain[i];
  }
  return (negative ? "-" : "") + out;
}

std::string exponentForm(double value, int significant, const std::string &point) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*G", significant, value);  // "3E-07", trailing zeros dropped
  std::string out = text;
  if (const size_t dot = out.find('.'); dot != std::string::npos) out.replace(dot, 1, point);
  return out;
}

}  // namespace

std::string formatNumber(double value, int significant, const std::string &decimalPoint, const std::string &groupSeparator) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "∞" : "-∞";
  if (value == 0.0) return "0";  // also -0.0, which reads as a glitch
  significant = std::max(1, significant);
  const double magnitude = std::fabs(value);
  char text[64];
  if (magnitude < 1e15 && (value == std::round(value) || magnitude >= std::pow(10.0, significant))) {
    std::snprintf(text, sizeof text, "%lld", static_cast<long long>(std::llround(value)));
    return grouped(text, groupSeparator);
  }
  if (magnitude >= 1e15 || magnitude < 1e-4) return exponentForm(value, significant, decimalPoint);
  // Fixed notation with exactly the decimals that `significant` digits need, then no trailing zeros.
  const int integerDigits = static_cast<int>(std::floor(std::log10(magnitude))) + 1;
  const int decimals = std::max(0, significant - integerDigits);
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  std::string fixed = text;
  const size_t point = fixed.find('.');
  std::string whole = point == std::string::npos ? fixed : fixed.substr(0, point);
  std::string fraction = point == std::string::npos ? std::string() : fixed.substr(point + 1);
  while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
  whole = grouped(whole, groupSeparator);
  return fraction.empty() ? whole : whole + decimalPoint + fraction;
}

std::string formatPercent(double share, int significant) {
  if (std::isnan(share)) return "NaN";
  return formatNumber(100.0 * share, significant) + "%";
}

std::string formatBytes(double bytes) {
  const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int unit = 0;
  while (bytes >= 1024.0 && unit < 6) {
    bytes /= 1024.0;
    ++unit;
  }
  char buf[64];
  if (unit == 0) std::snprintf(buf, sizeof buf, "%.0f B", bytes);
  else std::snprintf(buf, sizeof buf, "%.1f %s", bytes, units[unit]);
  return buf;
}

}  // namespace tw::config
