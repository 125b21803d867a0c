#pragma once
// Internal to core/spec: conversions between yaml-cpp nodes and ParamValue, shared by the
// model parser and the YAML writer so that what one writes the other reads back unchanged.

#include "core/spec/diagnostic.h"
#include "core/spec/param.h"

#include <yaml-cpp/yaml.h>

#include <string>

namespace tw::spec::detail {

// The most specific value a YAML node spells: unquoted integers, floats and true/false become
// int64/double/bool, a list of integers an IntList; quoted scalars stay strings. Anything else
// (a map, a list of non-integers) is kept as its YAML text so that validation can quote it.
ParamValue paramFromYaml(const YAML::Node &node);

// Writes a value so that paramFromYaml() reads back the same variant alternative.
void emitParamValue(YAML::Emitter &out, const ParamValue &value);

// 1-based location of a yaml-cpp node (line 0 when the node has no mark).
SourceLocation locationOf(const YAML::Node &node, const std::string &file);

}  // namespace tw::spec::detail
