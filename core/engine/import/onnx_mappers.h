#pragma once
// One function per ONNX operator the importer reads, in two tables: folders compute a node whose
// inputs are all constants now (shape arithmetic, Identity of an initializer, Constant), mappers
// turn a node over activations into registry nodes (onnx_mappers.cpp: activations, merges and
// reshapes; onnx_layer_mappers.cpp: Conv, BatchNormalization, LayerNormalization, Gemm, MatMul,
// pooling;
// onnx_shape_mappers.cpp: Transpose, Split, Slice, ReduceMean). An operator
// in neither table is unmapped, and the import refuses the file naming each such node.
// Engine-internal.

#include "core/engine/import/node_import.h"

#include <string>

namespace tw::engine::onnx_import {

using NodeHandler = void (*)(NodeImport &);

// nullptr when the operator is not in the table.
NodeHandler findFolder(const std::string &opType);
NodeHandler findMapper(const std::string &opType);

// Layer mappers (onnx_layer_mappers.cpp), registered in findMapper's table.
void Conv(NodeImport &n);
void BatchNormalization(NodeImport &n);
void LayerNormalization(NodeImport &n);
void Gemm(NodeImport &n);
void MatMul(NodeImport &n);
void MaxPool(NodeImport &n);
void AveragePool(NodeImport &n);
void GlobalAveragePool(NodeImport &n);

// Shape mappers (onnx_shape_mappers.cpp): Transpose as Transpose or Permute, Split as one Slice
// per part, Slice along one axis, ReduceMean as Mean or global average pooling.
void Transpose(NodeImport &n);
void Split(NodeImport &n);
void Slice(NodeImport &n);
void ReduceMean(NodeImport &n);
// Called by the Reshape mapper with its target (one sample's shape): true when the Reshape closes
// a channel shuffle (Reshape to groups, Transpose(1, 2), Reshape back), now one ChannelShuffle.
bool foldChannelShuffle(NodeImport &n, const ImportValue &x, const spec::Shape &target);

// A torch dimension for ONNX axis `axis` of a rank-`rank` value (batch included); refuses an axis
// out of range. Shared by the mappers.
int64_t axisOf(NodeImport &n, int64_t axis, int64_t rank, const std::string &what);

// "1, 2, 3": a list of integers in a message.
std::string intsText(const std::vector<int64_t> &values);

}  // namespace tw::engine::onnx_import
