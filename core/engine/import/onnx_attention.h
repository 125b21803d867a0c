#pragma once
// nn.MultiheadAttention's self-attention as python3-torch (1.13) writes it, found by structure and
// folded into one registry MultiheadAttention. Torch's graph works on [T, N, E]: it transposes the
// batch-first input, projects it (one packed MatMul + Add cut by chunk's three Slices, or a Split,
// or one projection each), splits heads by Reshape to [T, N*H, E/H] and Transpose, scales the
// queries by 1/sqrt(E/H), MatMul, optionally adds a constant mask, Softmax, MatMul with the values,
// and undoes it all (Transpose, Reshape [T*N, E], out_proj as Gemm or MatMul + Add, Reshape
// [T, N, E], Transpose). A model with batch_first=False that transposes its batch-first input
// around the attention writes the same nodes. The shape arithmetic around the reshapes is
// folded with it after ShapeEval has checked each target against the heads the scale implies.
// A Softmax between two MatMuls of computed values that is not this (cross-attention, a computed
// mask, the attention weights read elsewhere) gets a line under the refusal naming its nodes; a
// match whose scale, head split or mask the registry op cannot express is refused when built.
// Found in onnx_attention_find.cpp, built in onnx_attention_build.cpp. Engine-internal.
//
//   matchAttention(ix, softmaxIndex, fusions);       // from findFusions
//   size_t node = buildAttention(n, fusion, x);      // from buildFusion, at its first node

#include <memory>
#include <string>
#include <vector>

#include "core/engine/import/onnx_fusions.h"
#include "core/engine/import/onnx_graph_index.h"

namespace tw::engine::onnx_import {

struct AttentionMatch {
  // One of the query, key and value projections: x' W (+ b), whole or one part of a packed one.
  struct Projection {
    int matmul = -1;             // MatMul(x', W), W [E, width] as the file keeps it
    int biasAdd = -1;            // the Add of a constant after it; -1 without
    int part = -1;               // the Slice or Split cutting this projection's columns from it; -1 when whole
    int partOutput = 0;          // Split: which of its outputs
    torch::Tensor weight, bias;  // [E, width], [width] (undefined without)
  };
  Projection qkv[3];
  int reshape[3] = {-1, -1, -1};  // the head splits [T, N*H, E/H] of q, k, v
  int heads[3] = {-1, -1, -1};    // their Transposes: perm 1,0,2 for q and v, 1,2,0 for k
  int transposeIn = -1, scale = -1, scores = -1, maskMul = -1, maskAdd = -1, softmax = -1, context = -1;
  int merge = -1, flatten = -1, outProj = -1, outBiasAdd = -1, unflatten = -1, transposeOut = -1;
  double scaleValue = 0;
  bool scaleDivides = true;                 // Div by sqrt(E/H), or Mul by its inverse
  torch::Tensor mask;                       // the constant added to the scores; undefined without
  torch::Tensor outWeight, outBias;         // torch's layout: [E, E], [E] (undefined without)
  std::string projected;                    // x', the Transpose's output that the projections read
  std::vector<int> core;                    // the nodes above; the other members compute shapes
  std::shared_ptr<const GraphIndex> index;  // the graph, for the shape arithmetic when built
};

// "query", "key", "value" and their plurals, for messages.
inline const char *const kRole[3] = {"query", "key", "value"};
inline const char *const kRoles[3] = {"queries", "keys", "values"};

// Records a fusion or, for a Softmax that looks like attention but is not torch's, a note.
void matchAttention(const std::shared_ptr<const GraphIndex> &ix, int softmax, Fusions &out);

// The MultiheadAttention node of `f` reading x; refuses what the registry op cannot express.
// Adds the number of heads to f.form.
size_t buildAttention(NodeImport &n, Fusion &f, const ImportValue &x);

}  // namespace tw::engine::onnx_import
