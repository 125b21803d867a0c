#pragma once
// Producers, readers and constants of one ONNX graph by value name, for the fusions that find
// several nodes by the graph's structure before the driver walks it (onnx_fusions.cpp,
// onnx_attention.cpp). Constants are initializers, Constant nodes and Identity of either; their
// values need the import graph (the initializers' tensors). Engine-internal.
//
//   const GraphIndex ix(graph, &g);
//   const int add = ix.soleReader(ix.node(erf).output(0), "Add");   // -1 unless exactly one Add

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/engine/import/import_graph.h"

namespace onnx {
class GraphProto;
class NodeProto;
}  // namespace onnx

namespace tw::engine::onnx_import {

class GraphIndex {
 public:
  GraphIndex(const onnx::GraphProto &graph, const ImportGraph *g);

  const onnx::GraphProto &graph() const { return m_graph; }
  int64_t opset() const { return m_g ? m_g->opset : 0; }
  const onnx::NodeProto &node(int i) const;
  int size() const;
  // The node's name, or "Op #k" when it has none.
  std::string name(int i) const;
  // -1 for a graph input, an initializer or an unknown value.
  int producer(const std::string &value) const;
  // Reads of `value` by nodes, one per input slot (Mul(d, d) reads d twice).
  const std::vector<int> &readers(const std::string &value) const;
  // The one node reading `value`, when it has operator `op` and the value is no graph output.
  int soleReader(const std::string &value, const std::string &op) const;
  bool isGraphOutput(const std::string &value) const { return m_outputs.count(value) > 0; }
  bool isConstant(const std::string &value) const;
  // The value of an initializer, a Constant node or an Identity of either (needs the import graph
  // for initializers).
  std::optional<torch::Tensor> constant(const std::string &value) const;
  // A one-element constant equal to `expected` (within `tolerance`).
  bool scalarIs(const std::string &value, double expected, double tolerance = 1e-7) const;
  // An integer attribute, or `fallback`; the ints of a list attribute, or empty.
  int64_t attrInt(int i, const std::string &name, int64_t fallback) const;
  std::vector<int64_t> attrInts(int i, const std::string &name) const;

 private:
  const onnx::GraphProto &m_graph;
  const ImportGraph *m_g;
  std::map<std::string, int> m_producer;
  std::map<std::string, std::vector<int>> m_readers;
  std::set<std::string> m_outputs, m_initializers;
};

// The input of a two-input node other than `value`; "" when neither or both are `value`.
std::string other(const onnx::NodeProto &n, const std::string &value);

// "Op 'name', Op 'name'" in file order, for a near miss's message.
std::string memberList(const GraphIndex &ix, std::vector<int> members);

}  // namespace tw::engine::onnx_import
