#include "core/spec/analysis_params.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace tw::spec::detail {

namespace {

std::string shown(const ParamValue &value) {
  const std::string text = formatParamValue(value);
  return std::holds_alternative<std::string>(value) ? "'" + text + "'" : text;
}

std::string boundText(double v) {
  if (std::floor(v) == v && std::fabs(v) < 1e15) return std::to_string(static_cast<int64_t>(v));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::optional<std::string> checkBounds(const ParamDef &def, double v, const std::string &text) {
  const bool low = def.min && v < *def.min, high = def.max && v > *def.max;
  if (!low && !high) return std::nullopt;
  if (def.min && def.max) return "expected a value in [" + boundText(*def.min) + ", " + boundText(*def.max) + "], got " + text;
  if (low) return "expected >= " + boundText(*def.min) + ", got " + text;
  return "expected <= " + boundText(*def.max) + ", got " + text;
}

// An integer, also from a float that holds one exactly (3.0).
bool asInt(const ParamValue &value, int64_t &out) {
  if (auto i = std::get_if<int64_t>(&value)) return out = *i, true;
  if (auto d = std::get_if<double>(&value); d && std::floor(*d) == *d && std::fabs(*d) < 9e15)
    return out = static_cast<int64_t>(*d), true;
  return false;
}

std::optional<std::string> checkInts(const ParamDef &def, const IntList &list) {
  for (int64_t v : list)
    if (auto problem = checkBounds(def, static_cast<double>(v), formatParamValue(list))) return problem;
  return std::nullopt;
}

size_t editDistance(const std::string &a, const std::string &b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

}  // namespace

std::optional<std::string> convertParam(const ParamDef &def, const ParamValue &written, ParamValue &out) {
  switch (def.type) {
    case ParamType::Int: {
      int64_t v = 0;
      if (!asInt(written, v)) return "expected an integer, got " + shown(written);
      out = v;
      return checkBounds(def, static_cast<double>(v), std::to_string(v));
    }
    case ParamType::Float: {
      double v = 0;
      if (auto d = std::get_if<double>(&written)) v = *d;
      else if (auto i = std::get_if<int64_t>(&written)) v = static_cast<double>(*i);
      else return "expected a number, got " + shown(written);
      out = v;
      return checkBounds(def, v, formatParamValue(written));
    }
    case ParamType::Bool: {
      if (!std::holds_alternative<bool>(written)) return "expected true or false, got " + shown(written);
      out = written;
      return std::nullopt;
    }
    case ParamType::String: {
      const std::string *s = std::get_if<std::string>(&written);
      const std::string text = formatParamValue(written);
      if (!def.choices.empty() && std::find(def.choices.begin(), def.choices.end(), text) == def.choices.end()) {
        std::string choices;
        for (const std::string &c : def.choices) choices += (choices.empty() ? "" : ", ") + c;
        return "expected one of " + choices + ", got " + shown(written);
      }
      out = s ? *s : text;
      return std::nullopt;
    }
    case ParamType::IntPair: {
      int64_t v = 0;
      IntList pair;
      if (asInt(written, v)) pair = {v, v};
      else if (auto list = std::get_if<IntList>(&written); list && list->size() == 2) pair = *list;
      else return "expected an integer or a list of two integers, got " + shown(written);
      out = pair;
      return checkInts(def, pair);
    }
    case ParamType::IntList: {
      int64_t v = 0;
      IntList list;
      if (auto l = std::get_if<IntList>(&written)) list = *l;
      else if (asInt(written, v)) list = {v};
      else return "expected a list of integers, got " + shown(written);
      out = list;
      return checkInts(def, list);
    }
  }
  return "unsupported parameter type";
}

std::string closestName(const std::string &name, const std::vector<std::string> &candidates) {
  std::string best;
  size_t bestDistance = std::max<size_t>(2, name.size() / 3) + 1;
  for (const std::string &c : candidates) {
    const size_t d = editDistance(name, c);
    if (d < bestDistance) bestDistance = d, best = c;
  }
  return best;
}

}  // namespace tw::spec::detail

namespace tw::spec {

std::optional<std::string> checkParamValue(const ParamDef &def, const ParamValue &value) {
  ParamValue converted;
  return detail::convertParam(def, value, converted);
}

}  // namespace tw::spec
