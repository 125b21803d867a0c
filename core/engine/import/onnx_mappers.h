#pragma once
// One function per ONNX operator the importer reads: folders compute a node whose inputs are all
// constants now (shape arithmetic, Identity of an initializer, Constant; onnx_folding.cpp), mappers
// turn a node over activations into registry nodes (onnx_mappers.cpp: activations, merges and
// reshapes; onnx_layer_mappers.cpp: Conv, BatchNormalization, LayerNormalization, Gemm, MatMul,
// pooling; onnx_shape_mappers.cpp: Transpose, Split, Slice, ReduceMean). Which mapper serves which
// ONNX operator is a column of the op table (core/engine/op_builders.cpp: each registry op's row
// lists the operators imported as it), beside its builder and emitters; the few that become no
// node (Identity, Dropout, Cast, Pad, Shape) are onnx_mappers.cpp's own list. An operator with
// neither a folder nor a mapper is unmapped, and the import refuses the file naming each such
// node. Engine-internal.

#include "core/engine/import/node_import.h"

#include <string>

namespace tw::engine::onnx_import {

using NodeHandler = void (*)(NodeImport &);

// nullptr when the operator is not in the table.
NodeHandler findFolder(const std::string &opType);
NodeHandler findMapper(const std::string &opType);

// Activation, merge and reshape mappers (onnx_mappers.cpp). Clip becomes ReLU6 or ReLU, Sum an
// Add of its inputs, Reshape a Reshape or (closing a channel shuffle) a ChannelShuffle; Erf, Pow
// and Sqrt only anchor GELU's and LayerNorm's decompositions (onnx_fusions.cpp). A namespace of
// their own: the folders (onnx_folding.cpp) have functions of the same names.
namespace mappers {
void relu(NodeImport &n);
void leakyRelu(NodeImport &n);
void sigmoid(NodeImport &n);
void tanh(NodeImport &n);
void hardSigmoid(NodeImport &n);
void hardSwish(NodeImport &n);
void clip(NodeImport &n);
void softmaxNode(NodeImport &n);
void logSoftmax(NodeImport &n);
void add(NodeImport &n);
void sum(NodeImport &n);
void mul(NodeImport &n);
void concat(NodeImport &n);
void flatten(NodeImport &n);
void reshape(NodeImport &n);
void erfNode(NodeImport &n);
void powNode(NodeImport &n);
void sqrtNode(NodeImport &n);
}  // namespace mappers

// Layer mappers (onnx_layer_mappers.cpp).
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
