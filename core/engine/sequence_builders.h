#pragma once
// Builders for the ops that work on [T, E] sequences (core/spec/registry_sequence.cpp): Reshape,
// PositionalEmbedding, MultiheadAttention, TransformerEncoderLayer, SequenceMean. Engine-internal;
// op_builders.cpp lists them in its table.

#include "core/engine/op_builders.h"

namespace tw::engine {

BuiltOp buildReshape(const spec::NodeInfo &node);
BuiltOp buildPositionalEmbedding(const spec::NodeInfo &node);
BuiltOp buildMultiheadAttention(const spec::NodeInfo &node);
BuiltOp buildTransformerEncoderLayer(const spec::NodeInfo &node);
BuiltOp buildSequenceMean(const spec::NodeInfo &node);

}  // namespace tw::engine
