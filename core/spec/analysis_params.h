#pragma once
// Internal to core/spec: conversion of written parameter values to their declared types, and
// "did you mean" suggestions, used by analyze().

#include "core/spec/param.h"

#include <optional>
#include <string>
#include <vector>

namespace tw::spec::detail {

// Converts `written` to def's type (an int to an IntPair, an int to a Float...) and checks choices
// and bounds. Returns the problem ("expected an integer, got 'abc'") or nullopt when `out` is set.
std::optional<std::string> convertParam(const ParamDef &def, const ParamValue &written, ParamValue &out);

// The candidate closest to `name` (case-insensitive edit distance), or "" when none is close.
std::string closestName(const std::string &name, const std::vector<std::string> &candidates);

}  // namespace tw::spec::detail
