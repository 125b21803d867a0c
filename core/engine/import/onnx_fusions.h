#pragma once
// Operators that torch writes as several ONNX nodes, found before the driver walks the graph:
// nn.GELU below opset 20 (Div by sqrt 2, Erf, Add 1, Mul x, Mul 0.5), nn.GELU(approximate='tanh')
// (x^3 by Mul, Mul 0.044715, Add x, Mul sqrt(2/pi), Tanh, Add 1, Mul x, Mul 0.5), nn.LayerNorm
// below opset 17 (ReduceMean, Sub, Pow 2, ReduceMean, Add eps, Sqrt, Div, then Mul weight and Add
// bias) and nn.MultiheadAttention's self-attention (onnx_attention.h). A match becomes one registry
// node, built at its first node in file order; the other nodes are reported folded into it. A
// decomposition that begins like one but differs is a near miss: its first node is refused with
// what differs and the nodes seen, so that nothing is imported half-way. Engine-internal.
//
//   Fusions fusions = findFusions(graph, g);   // after the initializers are in g.values
//   ... at fusions.found[k].members.front():   buildFusion(n, fusions.found[k]);

#include "core/engine/import/node_import.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace onnx {
class GraphProto;
}

namespace tw::engine::onnx_import {

struct AttentionMatch;

struct Fusion {
  std::string op;            // "GELU", "LayerNorm" or "MultiheadAttention"
  std::vector<int> members;  // the ONNX nodes it covers, in file order; built at the first
  std::string input;         // the value it reads
  std::string output;        // the value it computes: its last node's output
  std::vector<int64_t> axes; // LayerNorm: the ReduceMeans' axes, checked against the rank when built
  float eps = 0;             // LayerNorm
  torch::Tensor weight, bias;  // LayerNorm: undefined when the decomposition has no Mul / Add
  std::string weightName;    // the weight's value name, for the node's id
  std::string approximate;   // GELU: "tanh" for the tanh form, "" for erf
  std::shared_ptr<const AttentionMatch> attention;  // MultiheadAttention: the nodes found
  std::string form;          // what was folded, for the report
  int64_t built = -1;        // the registry node once built; -1 while not (or refused)
};

struct Fusions {
  std::vector<Fusion> found;
  std::map<int, size_t> memberOf;         // ONNX node index -> index into found
  std::map<int, std::string> nearMisses;  // ONNX node index -> why its decomposition is not read
  // Attention and GELU's tanh form that do not fold, one line each for under the refusal: nodes
  // before them are refused on their own (a Transpose that moves the batch, a Mul by a constant),
  // so a near miss at one of their nodes would never be reached.
  std::vector<std::string> notes;
};

Fusions findFusions(const onnx::GraphProto &graph, const ImportGraph &g);

// Makes the registry node of `f` (n is its first node's context); refuses, naming the nodes, what
// the registry cannot express (a layer norm over several dimensions, a weight of another size,
// attention whose head split is not the one its scale implies).
void buildFusion(NodeImport &n, Fusion &f);

}  // namespace tw::engine::onnx_import
