#include "core/spec/param.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace tw::spec {

namespace {

const ParamValue &lookup(const ParamMap &params, const std::string &name) {
  auto it = params.find(name);
  if (it == params.end()) throw std::out_of_range("parameter '" + name + "' is not set");
  return it->second;
}

[[noreturn]] void wrongType(const std::string &name, const char *expected, const ParamValue &value) {
  throw std::invalid_argument("parameter '" + name + "' should be " + expected + ", holds '" +
                              formatParamValue(value) + "'");
}

// Shortest text that reads back as the same double, always recognisable as a float ("1.0").
std::string formatDouble(double value) {
  if (std::isnan(value)) return ".nan";
  if (std::isinf(value)) return value > 0 ? ".inf" : "-.inf";
  char buf[40];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, value);
    if (std::strtod(buf, nullptr) == value) break;
  }
  std::string text = buf;
  if (text.find_first_of(".eE") == std::string::npos) text += ".0";
  return text;
}

}  // namespace

std::string paramTypeName(ParamType type) {
  switch (type) {
    case ParamType::Int: return "int";
    case ParamType::Float: return "float";
    case ParamType::Bool: return "bool";
    case ParamType::String: return "string";
    case ParamType::IntPair: return "int pair";
    case ParamType::IntList: return "int list";
  }
  return "unknown";
}

std::string formatParamValue(const ParamValue &value) {
  if (auto i = std::get_if<int64_t>(&value)) return std::to_string(*i);
  if (auto d = std::get_if<double>(&value)) return formatDouble(*d);
  if (auto b = std::get_if<bool>(&value)) return *b ? "true" : "false";
  if (auto s = std::get_if<std::string>(&value)) return *s;
  const IntList &list = std::get<IntList>(value);
  std::string out = "[";
  for (size_t i = 0; i < list.size(); ++i) out += (i ? ", " : "") + std::to_string(list[i]);
  return out + "]";
}

int64_t getInt(const ParamMap &params, const std::string &name) {
  const ParamValue &v = lookup(params, name);
  if (auto i = std::get_if<int64_t>(&v)) return *i;
  wrongType(name, "an integer", v);
}

double getFloat(const ParamMap &params, const std::string &name) {
  const ParamValue &v = lookup(params, name);
  if (auto d = std::get_if<double>(&v)) return *d;
  if (auto i = std::get_if<int64_t>(&v)) return static_cast<double>(*i);
  wrongType(name, "a number", v);
}

bool getBool(const ParamMap &params, const std::string &name) {
  const ParamValue &v = lookup(params, name);
  if (auto b = std::get_if<bool>(&v)) return *b;
  wrongType(name, "true or false", v);
}

const std::string &getString(const ParamMap &params, const std::string &name) {
  const ParamValue &v = lookup(params, name);
  if (auto s = std::get_if<std::string>(&v)) return *s;
  wrongType(name, "a string", v);
}

const IntList &getInts(const ParamMap &params, const std::string &name) {
  const ParamValue &v = lookup(params, name);
  if (auto l = std::get_if<IntList>(&v)) return *l;
  wrongType(name, "a list of integers", v);
}

bool has(const ParamMap &params, const std::string &name) { return params.count(name) != 0; }

}  // namespace tw::spec
