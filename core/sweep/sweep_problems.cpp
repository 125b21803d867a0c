#include "core/sweep/sweep_problems.h"

#include "core/config/run_config.h"
#include "core/spec/analysis_params.h"

#include <cmath>
#include <cstdlib>

namespace tw::sweep::detail {

std::string Problems::location(const YAML::Mark &mark) const {
  const std::string file = m_file.empty() ? "<sweep file>" : m_file;
  if (mark.is_null() || mark.line < 0) return file + " (set by an override)";
  return file + ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1);
}

void Problems::add(const YAML::Mark &mark, const std::string &message) {
  m_items.push_back(location(mark) + ": " + message);
}

void Problems::addFileLevel(const std::string &message) {
  m_items.push_back((m_file.empty() ? "<sweep file>" : m_file) + ": " + message);
}

void Problems::throwIfAny() const {
  if (m_items.empty()) return;
  throw config::ConfigError(join(m_items, "\n"));
}

namespace {

std::string shown(const YAML::Node &node) {
  if (node.IsScalar()) return "'" + node.Scalar() + "'";
  if (node.IsMap()) return "a map";
  if (node.IsSequence()) return "a list";
  return "nothing";
}

}  // namespace

std::optional<int64_t> readInt(const YAML::Node &node, const std::string &key, Problems &problems) {
  if (node.IsScalar()) {
    const std::string &text = node.Scalar();
    char *end = nullptr;
    const long long v = std::strtoll(text.c_str(), &end, 10);
    if (!text.empty() && *end == '\0') return v;
  }
  problems.add(node, "key '" + key + "': expected an integer, got " + shown(node));
  return std::nullopt;
}

std::optional<double> readNumber(const YAML::Node &node, const std::string &key, Problems &problems) {
  if (node.IsScalar()) {
    const std::string &text = node.Scalar();
    char *end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (!text.empty() && *end == '\0' && std::isfinite(v)) return v;
  }
  problems.add(node, "key '" + key + "': expected a number, got " + shown(node));
  return std::nullopt;
}

std::optional<bool> readBool(const YAML::Node &node, const std::string &key, Problems &problems) {
  if (node.IsScalar()) {
    bool value = false;
    if (YAML::convert<bool>::decode(node, value)) return value;
  }
  problems.add(node, "key '" + key + "': expected true or false, got " + shown(node));
  return std::nullopt;
}

std::optional<std::string> readText(const YAML::Node &node, const std::string &key, Problems &problems) {
  if (node.IsScalar() && !node.Scalar().empty()) return node.Scalar();
  problems.add(node, "key '" + key + "': expected a single value, got " + shown(node));
  return std::nullopt;
}

std::string didYouMean(const std::string &name, const std::vector<std::string> &candidates) {
  const std::string best = spec::detail::closestName(name, candidates);
  return best.empty() ? std::string() : " (did you mean '" + best + "'?)";
}

std::string join(const std::vector<std::string> &items, const std::string &separator) {
  std::string out;
  for (const auto &item : items) out += (out.empty() ? "" : separator) + item;
  return out;
}

}  // namespace tw::sweep::detail
