#pragma once
// What the importer hands one ONNX node's mapper or folder (onnx_mappers.h): the node, its
// inputs as ImportValues, its attributes, and calls that add a registry node, fold the node into
// one already made, alias its output, or make it a constant. A node the registry cannot express
// is refused with a reason; the driver names file, node and op around it. Engine-internal.

#include "core/engine/import/import_graph.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace onnx {
class NodeProto;
class TensorProto;
}  // namespace onnx

namespace tw::engine {

// Thrown by refuse(): the reason alone ("pads 0, 0, 1, 1 are asymmetric ...").
struct NodeRefusal : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class NodeImport {
 public:
  NodeImport(ImportGraph &graph, const onnx::NodeProto &node, size_t row);

  const onnx::NodeProto &proto() const { return m_node; }
  int64_t opset() const { return m_graph.opset; }

  // Inputs: ONNX leaves an optional input out by an empty name.
  size_t inputCount() const;
  bool hasInput(size_t i) const;
  const ImportValue &input(size_t i) const;
  // The input as a constant or as an activation; refuses naming `what` ("the weight W") otherwise.
  const torch::Tensor &constant(size_t i, const std::string &what) const;
  const ImportValue &activation(size_t i, const std::string &what) const;
  // The initializer or value name of input i, for node ids ("layer1.0.conv1.weight").
  const std::string &inputName(size_t i) const;

  bool hasAttr(const std::string &name) const;
  int64_t attrInt(const std::string &name, int64_t fallback) const;
  float attrFloat(const std::string &name, float fallback) const;
  std::vector<int64_t> attrInts(const std::string &name, std::vector<int64_t> fallback = {}) const;
  std::string attrString(const std::string &name, const std::string &fallback = {}) const;
  const onnx::TensorProto *attrTensor(const std::string &name) const;

  // How many nodes (and graph outputs) read output k.
  int readers(size_t output) const;

  // A registry node of this ONNX node's own, computing output 0; returns its index. Parameters
  // equal to the registry's defaults are left out, as a person would write the file. Refuses when
  // the registry's shape rule refuses the node.
  size_t add(const std::string &op, spec::ParamMap params, const std::vector<size_t> &inputs,
             std::map<std::string, torch::Tensor> tensors = {}, const std::string &weightName = {});
  // The same for output k of a node with several (Split: one Slice per part). The report row
  // names the first node made.
  size_t addFor(size_t output, const std::string &op, spec::ParamMap params, const std::vector<size_t> &inputs);
  // Output k is an existing value: Dropout and Identity at inference (Dropped), or the result of a
  // fold into another node (Folded, with `node` the node it became part of).
  void alias(size_t output, const ImportValue &value, ImportRow::Fate fate, const std::string &note);
  // Output k is a constant computed now (`batch` marks entries that stand for the batch size).
  void setConstant(size_t output, torch::Tensor tensor, torch::Tensor batch = {});

  ImportGraph &graph() { return m_graph; }
  ImportRow &row() { return m_graph.rows[m_row]; }
  // The row of the ONNX node that made registry node `index`.
  ImportRow *rowOfNode(size_t index);

  [[noreturn]] void refuse(const std::string &reason) const;

 private:
  size_t make(size_t output, const std::string &op, spec::ParamMap params, const std::vector<size_t> &inputs,
              std::map<std::string, torch::Tensor> tensors, const std::string &weightName);

  ImportGraph &m_graph;
  const onnx::NodeProto &m_node;
  size_t m_row;
  bool m_added = false;
};

// The shortest decimal that reads back as `value` in float: ONNX keeps attributes as float, and
// a model file should say eps 1e-05, not 9.99999974737875e-06.
double tidyFloat(float value);

}  // namespace tw::engine
