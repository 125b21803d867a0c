#pragma once
// A model as TensorBoard's Graphs tab reads it: a tensorflow GraphDef (node 1, versions 4) whose
// NodeDefs carry name 1, op 2, input 3 and attr 5, the map TensorBoard shows beside a node. Each
// node's output shape goes in the "_output_shapes" attribute (batch dimension -1), where the
// graph view labels its edges from. '/' in a name nests the node in a group, so a block's members
// ("enc/fc") fold into their block. No Qt, no LibTorch.
//
//   events.graph(graphDef({{"image", "Input", {}, {1, 28, 28}, {}},
//                          {"fc", "Linear", {"image"}, {10}, {{"out_features", int64_t{10}}}}}));

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace tw::tracking {

// An attribute's value: AttrValue's i, f, b, s or an int list.
using GraphAttr = std::variant<int64_t, double, bool, std::string, std::vector<int64_t>>;

struct GraphNode {
  std::string name;
  std::string op;
  std::vector<std::string> inputs;   // names of the nodes it reads
  std::vector<int64_t> outputShape;  // one sample's, without the batch dimension
  std::vector<std::pair<std::string, GraphAttr>> attrs;
};

// The serialized GraphDef (producer version 22, as PyTorch's add_graph writes).
std::string graphDef(const std::vector<GraphNode> &nodes);

}  // namespace tw::tracking
