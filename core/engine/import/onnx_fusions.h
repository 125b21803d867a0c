#pragma once
// Operators that torch writes as several ONNX nodes, found before the driver walks the graph:
// nn.GELU below opset 20 (Div by sqrt 2, Erf, Add 1, Mul x, Mul 0.5) and nn.LayerNorm below
// opset 17 (ReduceMean, Sub, Pow 2, ReduceMean, Add eps, Sqrt, Div, then Mul weight and Add bias).
// A match becomes one registry node, built at its first node in file order; the other nodes are
// reported folded into it. A decomposition that begins like one but differs is a near miss: its
// first node is refused with what differs and the nodes seen, so that nothing is imported half-way.
// Attention (nn.MultiheadAttention's MatMul, Softmax, MatMul over heads made by Reshape and
// Transpose) is not folded: attentionNote says so under the refusal. Engine-internal.
//
//   Fusions fusions = findFusions(graph, g);   // after the initializers are in g.values
//   ... at fusions.found[k].members.front():   buildFusion(n, fusions.found[k]);

#include "core/engine/import/node_import.h"

#include <map>
#include <string>
#include <vector>

namespace onnx {
class GraphProto;
}

namespace tw::engine::onnx_import {

struct Fusion {
  std::string op;            // "GELU" or "LayerNorm"
  std::vector<int> members;  // the ONNX nodes it covers, in file order; built at the first
  std::string input;         // the value it reads
  std::string output;        // the value it computes: its last node's output
  std::vector<int64_t> axes; // LayerNorm: the ReduceMeans' axes, checked against the rank when built
  float eps = 0;             // LayerNorm
  torch::Tensor weight, bias;  // LayerNorm: undefined when the decomposition has no Mul / Add
  std::string weightName;    // the weight's value name, for the node's id
  std::string form;          // what was folded, for the report
  int64_t built = -1;        // the registry node once built; -1 while not (or refused)
};

struct Fusions {
  std::vector<Fusion> found;
  std::map<int, size_t> memberOf;         // ONNX node index -> index into found
  std::map<int, std::string> nearMisses;  // ONNX node index -> why its decomposition is not read
};

Fusions findFusions(const onnx::GraphProto &graph, const ImportGraph &g);

// Makes the registry node of `f` (n is its first node's context); refuses, naming the nodes, what
// the registry cannot express (a layer norm over several dimensions, a weight of another size).
void buildFusion(NodeImport &n, Fusion &f);

// "" or a line for a refusal: the graph computes attention (a MatMul of two computed values, a
// Softmax, a MatMul of its output) at the nodes named, which the importer does not fold yet.
std::string attentionNote(const onnx::GraphProto &graph);

}  // namespace tw::engine::onnx_import
