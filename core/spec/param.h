#pragma once
// Typed layer parameters: their schema (ParamDef) and their values (ParamValue).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace tw::spec {

enum class ParamType {
  Int,        // 64-bit integer
  Float,      // double
  Bool,
  String,     // one of ParamDef::choices when choices is non-empty
  IntPair,    // an int or a [a, b] list, stored as two ints (kernel sizes, strides)
  IntList,    // a list of ints (Input shape)
};

using IntList = std::vector<int64_t>;
using ParamValue = std::variant<int64_t, double, bool, std::string, IntList>;
using ParamMap = std::map<std::string, ParamValue>;

struct ParamDef {
  std::string name;
  ParamType type = ParamType::Int;
  // No default means the parameter is required, unless `inferred` (then the builder computes it
  // from the incoming shape and the validator checks a given value against it).
  std::optional<ParamValue> defaultValue;
  bool inferred = false;
  std::optional<double> min;  // inclusive bounds for Int/Float (and each element of IntPair/IntList)
  std::optional<double> max;
  std::vector<std::string> choices;
  std::string doc;
};

std::string paramTypeName(ParamType type);
std::string formatParamValue(const ParamValue &value);
// What the validator says of a value for this parameter ("expected >= 1, got 0"); nullopt when it
// is accepted. The same check analyze() applies, for editors that refuse a value before it is set.
std::optional<std::string> checkParamValue(const ParamDef &def, const ParamValue &value);

// Typed accessors; they assume validation already converted the value to the declared type.
int64_t getInt(const ParamMap &params, const std::string &name);
double getFloat(const ParamMap &params, const std::string &name);
bool getBool(const ParamMap &params, const std::string &name);
const std::string &getString(const ParamMap &params, const std::string &name);
const IntList &getInts(const ParamMap &params, const std::string &name);  // IntPair or IntList
bool has(const ParamMap &params, const std::string &name);

}  // namespace tw::spec
