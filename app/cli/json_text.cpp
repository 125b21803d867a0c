#include "app/cli/json_text.h"

#include "core/data/json_text.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace tw::cli::json {

std::string string(const std::string &text) { return data::jsonString(text); }

std::string number(double value) {
  if (!std::isfinite(value)) return "null";
  char buf[40];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, value);
    if (std::strtod(buf, nullptr) == value) break;
  }
  return buf;
}

std::string number(long long value) { return std::to_string(value); }

std::string boolean(bool value) { return value ? "true" : "false"; }

std::string array(const std::vector<std::string> &values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + values[i];
  return out + "]";
}

std::string object(const std::vector<std::pair<std::string, std::string>> &members) {
  std::string out = "{";
  for (size_t i = 0; i < members.size(); ++i)
    out += (i ? ", " : "") + string(members[i].first) + ": " + members[i].second;
  return out + "}";
}

std::string strings(const std::vector<std::string> &values) {
  std::vector<std::string> quoted;
  for (const auto &v : values) quoted.push_back(string(v));
  return array(quoted);
}

}  // namespace tw::cli::json
