#include "core/search/catalog.h"

#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace tw::search {

namespace {

const OptionSpec *findSpec(const std::vector<OptionSpec> &specs, const std::string &key) {
  for (const auto &s : specs)
    if (s.key == key) return &s;
  return nullptr;
}

bool readNumber(const std::string &text, double *value) {
  char *end = nullptr;
  *value = std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size() && std::isfinite(*value);
}

bool readFlag(const std::string &text, bool *value) {
  if (text == "true" || text == "yes" || text == "on") *value = true;
  else if (text == "false" || text == "no" || text == "off") *value = false;
  else return false;
  return true;
}

std::string numberText(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", v);
  return buffer;
}

}  // namespace

std::vector<std::string> checkOptions(const std::vector<OptionSpec> &specs, const OptionValues &values) {
  std::vector<std::string> problems;
  for (const auto &[key, text] : values) {
    const OptionSpec *spec = findSpec(specs, key);
    if (!spec) {
      std::string known;
      for (const auto &s : specs) known += (known.empty() ? "" : ", ") + s.key;
      problems.push_back("unknown option '" + key + "'" + (known.empty() ? " (it takes none)" : " (known: " + known + ")"));
      continue;
    }
    const std::string at = "option '" + key + "': ";
    switch (spec->kind) {
      case OptionKind::Bool: {
        bool b;
        if (!readFlag(text, &b)) problems.push_back(at + "expected true or false, got '" + text + "'");
        break;
      }
      case OptionKind::Choice: {
        bool found = false;
        std::string list;
        for (const auto &c : spec->choices) {
          found = found || c == text;
          list += (list.empty() ? "" : ", ") + c;
        }
        if (!found) problems.push_back(at + "'" + text + "' is not one of " + list);
        break;
      }
      case OptionKind::Int:
      case OptionKind::Float: {
        double v;
        if (!readNumber(text, &v)) {
          problems.push_back(at + "expected a number, got '" + text + "'");
          break;
        }
        if (spec->kind == OptionKind::Int && v != std::floor(v)) {
          problems.push_back(at + "expected an integer, got '" + text + "'");
          break;
        }
        if ((spec->min && v < *spec->min) || (spec->max && v > *spec->max)) {
          std::string range = spec->min && spec->max ? "[" + numberText(*spec->min) + ", " + numberText(*spec->max) + "]"
                              : spec->min           ? ">= " + numberText(*spec->min)
                                                    : "<= " + numberText(*spec->max);
          problems.push_back(at + text + " is outside " + range);
        }
        break;
      }
    }
  }
  return problems;
}

const std::string &OptionReader::text(const std::string &key) const {
  auto found = m_values.find(key);
  if (found != m_values.end()) return found->second;
  const OptionSpec *spec = findSpec(m_specs, key);
  if (!spec) throw std::logic_error("no option '" + key + "' in this table");
  return spec->defaultText;
}

int64_t OptionReader::integer(const std::string &key) const { return static_cast<int64_t>(std::llround(number(key))); }

double OptionReader::number(const std::string &key) const {
  double v = 0;
  if (!readNumber(text(key), &v)) throw std::invalid_argument("option '" + key + "': not a number");
  return v;
}

bool OptionReader::flag(const std::string &key) const {
  bool b = false;
  if (!readFlag(text(key), &b)) throw std::invalid_argument("option '" + key + "': not true or false");
  return b;
}

std::string OptionReader::choice(const std::string &key) const { return text(key); }

}  // namespace tw::search
