#include "core/search/space.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

namespace tw::search {

namespace {

double intStep(const ParamSpec &spec) { return spec.step > 0 ? spec.step : 1.0; }

bool discrete(const ParamSpec &spec) { return spec.type == ParamType::Int || spec.step > 0; }

std::string numberText(double value) {
  // Shortest text that reads back to the same double, so a value survives the database.
  char buffer[32];
  for (int precision = 6; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  return buffer;
}

}  // namespace

std::string paramTypeName(ParamType type) {
  switch (type) {
    case ParamType::Float: return "float";
    case ParamType::Int: return "int";
    case ParamType::Categorical: return "categorical";
  }
  return "?";
}

const ParamSpec *SearchSpace::find(const std::string &key) const {
  for (const auto &p : params)
    if (p.key == key) return &p;
  return nullptr;
}

std::vector<std::string> checkSpace(const SearchSpace &space) {
  std::vector<std::string> problems;
  std::set<std::string> seen;
  for (const auto &p : space.params) {
    const std::string at = "'" + p.key + "': ";
    if (!seen.insert(p.key).second) problems.push_back(at + "given twice");
    if (p.type == ParamType::Categorical) {
      if (p.choices.empty()) problems.push_back(at + "a categorical needs at least one choice");
      std::set<std::string> distinct(p.choices.begin(), p.choices.end());
      if (distinct.size() != p.choices.size()) problems.push_back(at + "a choice is listed twice");
    } else {
      if (!std::isfinite(p.low) || !std::isfinite(p.high)) problems.push_back(at + "low and high must be finite");
      else if (p.low > p.high) problems.push_back(at + "low (" + numberText(p.low) + ") is above high (" + numberText(p.high) + ")");
      if (p.log && p.low <= 0) problems.push_back(at + "log needs low > 0");
      if (p.step < 0) problems.push_back(at + "step must be positive");
      if (p.log && p.step > 0 && p.type == ParamType::Float) problems.push_back(at + "log and step cannot be combined for a float");
      if (p.type == ParamType::Int) {
        if (p.low != std::floor(p.low) || p.high != std::floor(p.high)) problems.push_back(at + "an int range needs integer bounds");
        if (p.step != std::floor(p.step)) problems.push_back(at + "an int step must be an integer");
      }
      if (p.step > 0 && p.low <= p.high) {
        const double steps = (p.high - p.low) / p.step;
        if (std::fabs(steps - std::round(steps)) > 1e-9 * std::max(1.0, steps))
          problems.push_back(at + "step " + numberText(p.step) + " does not divide [" + numberText(p.low) + ", " +
                             numberText(p.high) + "]");
      }
    }
    for (const auto &c : p.when) {
      const ParamSpec *parent = nullptr;
      for (const auto &q : space.params) {
        if (&q == &p) break;
        if (q.key == c.key) parent = &q;
      }
      if (!parent) {
        problems.push_back(at + "'when' names '" + c.key + "', which is not a parameter declared before it");
        continue;
      }
      if (c.values.empty()) problems.push_back(at + "'when: " + c.key + "' lists no value");
      for (const auto &v : c.values) {
        double ignored;
        if (!parseValue(*parent, v, &ignored))
          problems.push_back(at + "'when' asks for " + c.key + " = '" + v + "', a value it cannot take");
      }
    }
  }
  return problems;
}

bool isActive(const ParamSpec &spec, const SearchSpace &space, const Params &params) {
  for (const auto &c : spec.when) {
    const ParamSpec *parent = space.find(c.key);
    auto value = params.find(c.key);
    if (!parent || value == params.end()) return false;
    const std::string text = valueText(*parent, value->second);
    if (std::find(c.values.begin(), c.values.end(), text) == c.values.end()) return false;
  }
  return true;
}

std::string valueText(const ParamSpec &spec, double value) {
  switch (spec.type) {
    case ParamType::Categorical: {
      const long index = std::lround(value);
      if (index < 0 || index >= static_cast<long>(spec.choices.size())) return "?";
      return spec.choices[static_cast<size_t>(index)];
    }
    case ParamType::Int: return std::to_string(std::llround(value));
    case ParamType::Float: return numberText(value);
  }
  return "?";
}

std::string displayText(const std::string &text, int significant) {
  if (text.find_first_of(".eE") == std::string::npos) return text;  // an int or a choice
  char *end = nullptr;
  const double number = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(number)) return text;
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.*g", significant, number);
  return buffer;
}

bool parseValue(const ParamSpec &spec, const std::string &text, double *value) {
  if (spec.type == ParamType::Categorical) {
    auto found = std::find(spec.choices.begin(), spec.choices.end(), text);
    if (found == spec.choices.end()) return false;
    *value = static_cast<double>(found - spec.choices.begin());
    return true;
  }
  char *end = nullptr;
  const double number = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(number)) return false;
  const double tolerance = 1e-9 * std::max({1.0, std::fabs(spec.low), std::fabs(spec.high)});
  if (number < spec.low - tolerance || number > spec.high + tolerance) return false;
  if (discrete(spec)) {
    const double steps = (number - spec.low) / intStep(spec);
    if (std::fabs(steps - std::round(steps)) > 1e-6) return false;
  }
  *value = snap(spec, number);
  return true;
}

double snap(const ParamSpec &spec, double value) {
  if (spec.type == ParamType::Categorical) {
    const double last = static_cast<double>(spec.choices.empty() ? 0 : spec.choices.size() - 1);
    return std::clamp(std::round(value), 0.0, last);
  }
  if (!std::isfinite(value)) value = spec.low;
  value = std::clamp(value, spec.low, spec.high);
  if (discrete(spec)) {
    const double step = intStep(spec);
    value = spec.low + std::round((value - spec.low) / step) * step;
    // Stepping from low may overshoot high by rounding; step back inside.
    while (value > spec.high + 1e-12) value -= step;
    if (spec.type == ParamType::Int) value = std::round(value);
  }
  return value;
}

double toUnit(const ParamSpec &spec, double value) {
  if (spec.type == ParamType::Categorical) {
    const double n = static_cast<double>(std::max<size_t>(1, spec.choices.size()));
    return (std::round(value) + 0.5) / n;
  }
  if (spec.high <= spec.low) return 0.5;
  // Discrete values own equal cells of the unit interval, widened by half a step at each end.
  double low = spec.low, high = spec.high;
  if (discrete(spec) && !spec.log) {
    low -= 0.5 * intStep(spec);
    high += 0.5 * intStep(spec);
  } else if (discrete(spec) && spec.log) {
    low = std::max(low - 0.5 * intStep(spec), low * 0.5);
    high += 0.5 * intStep(spec);
  }
  if (spec.log) return (std::log(value) - std::log(low)) / (std::log(high) - std::log(low));
  return (value - low) / (high - low);
}

double fromUnit(const ParamSpec &spec, double unit) {
  unit = std::clamp(unit, 0.0, 1.0);
  if (spec.type == ParamType::Categorical) {
    const double n = static_cast<double>(std::max<size_t>(1, spec.choices.size()));
    return snap(spec, std::floor(unit * n));
  }
  if (spec.high <= spec.low) return spec.low;
  double low = spec.low, high = spec.high;
  if (discrete(spec) && !spec.log) {
    low -= 0.5 * intStep(spec);
    high += 0.5 * intStep(spec);
  } else if (discrete(spec) && spec.log) {
    low = std::max(low - 0.5 * intStep(spec), low * 0.5);
    high += 0.5 * intStep(spec);
  }
  const double value = spec.log ? std::exp(std::log(low) + unit * (std::log(high) - std::log(low)))
                                : low + unit * (high - low);
  return snap(spec, value);
}

long long cardinality(const ParamSpec &spec) {
  if (spec.type == ParamType::Categorical) return static_cast<long long>(spec.choices.size());
  if (!discrete(spec)) return 0;
  return static_cast<long long>(std::llround((spec.high - spec.low) / intStep(spec))) + 1;
}

}  // namespace tw::search
