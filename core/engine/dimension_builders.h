#pragma once
// Builders for the ops that rearrange or reduce dimensions (core/spec/registry_dims.cpp):
// Transpose, Permute, Max, Mean, Sum. Engine-internal; op_builders.cpp lists them in its table.

#include "core/engine/op_builders.h"

namespace tw::engine {

BuiltOp buildTranspose(const spec::NodeInfo &node);
BuiltOp buildPermute(const spec::NodeInfo &node);
BuiltOp buildMax(const spec::NodeInfo &node);
BuiltOp buildMean(const spec::NodeInfo &node);
BuiltOp buildSum(const spec::NodeInfo &node);

}  // namespace tw::engine
