#pragma once
// What the ONNX exporter hands one node's emitter: the node, the value names of its inputs, the
// opset, and calls that add ONNX nodes and initializers to the graph. Value and node names come
// from the spec's ids: the node's own value is its id, an intermediate one "<id>/<what>", and a
// parameter the initializer "<id>.<LibTorch name>" ("h1.fc.weight"). Engine-internal; the ONNX
// protobuf types stay in the .cpp files.

#include "core/spec/analysis.h"

#include <torch/torch.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace onnx {
class GraphProto;
}

namespace tw::engine {

struct Int8Plan;  // int8_quantization.h

struct OnnxAttr {
  enum class Kind { Int, Float, Ints, String };
  std::string name;
  Kind kind = Kind::Int;
  int64_t i = 0;
  float f = 0.0f;
  std::vector<int64_t> ints;
  std::string s;

  static OnnxAttr integer(std::string name, int64_t v) { return {std::move(name), Kind::Int, v, 0.0f, {}, {}}; }
  static OnnxAttr real(std::string name, double v) {
    return {std::move(name), Kind::Float, 0, static_cast<float>(v), {}, {}};
  }
  static OnnxAttr list(std::string name, std::vector<int64_t> v) {
    return {std::move(name), Kind::Ints, 0, 0.0f, std::move(v), {}};
  }
};

class OnnxEmit {
 public:
  // `tensorOf(name)`: the node's module's parameter or buffer (undefined when it has none).
  // `int8`: the calibrated plan when the export quantizes (weight() and quantizedInput() use it).
  OnnxEmit(const spec::NodeInfo &node, std::vector<std::string> inputs, int opset, onnx::GraphProto &graph,
           std::function<torch::Tensor(const std::string &)> tensorOf, const Int8Plan *int8 = nullptr);

  const spec::NodeInfo &node() const { return m_node; }
  const std::vector<std::string> &inputs() const { return m_inputs; }
  const std::string &input() const { return m_inputs.at(0); }
  int opset() const { return m_opset; }
  // The input's rank, batch included.
  int64_t rank(size_t input = 0) const { return static_cast<int64_t>(m_node.inputShapes.at(input).size()) + 1; }

  bool has(const std::string &name) const { return m_tensorOf(name).defined(); }
  // The initializer "<id>.<name>", added on first use; fails naming the node when absent.
  std::string param(const std::string &name);
  // Constants of this node's own: "<id>/<suffix>".
  std::string constant(const std::string &suffix, const torch::Tensor &value);
  std::string ints(const std::string &suffix, const std::vector<int64_t> &values);

  // The weight as its op consumes it: param(name), or, in an int8 export, the int8 initializer
  // "<id>.<name>_quantized" with its per-channel scales, dequantized.
  std::string weight(const std::string &name);
  // The node's first input, in an int8 export quantized and dequantized with its calibrated range.
  std::string quantizedInput();

  // Adds a node computing an intermediate value "<id>/<suffix>" and returns its name.
  std::string op(const std::string &type, const std::vector<std::string> &inputs, const std::string &suffix,
                 const std::vector<OnnxAttr> &attrs = {});
  // A node with several outputs (Split): one value "<id>/<suffix>" per suffix.
  std::vector<std::string> ops(const std::string &type, const std::vector<std::string> &inputs,
                               const std::vector<std::string> &suffixes, const std::vector<OnnxAttr> &attrs = {});
  // Adds the node computing this node's value (named by the node id).
  void finish(const std::string &type, const std::vector<std::string> &inputs, const std::vector<OnnxAttr> &attrs = {});
  // This node's value is an existing one (Input, Dropout in evaluation mode): no ONNX node.
  void alias(const std::string &value) { m_output = value; }

  // The name of this node's value once emitted.
  const std::string &output() const { return m_output; }
  bool finished() const { return !m_output.empty(); }

  [[noreturn]] void fail(const std::string &reason) const;

 private:
  void add(const std::string &type, const std::vector<std::string> &inputs, const std::vector<std::string> &outputs,
           const std::string &name, const std::vector<OnnxAttr> &attrs);

  const spec::NodeInfo &m_node;
  std::vector<std::string> m_inputs;
  int m_opset;
  onnx::GraphProto &m_graph;
  std::function<torch::Tensor(const std::string &)> m_tensorOf;
  const Int8Plan *m_int8 = nullptr;
  std::vector<std::string> m_initialized;
  std::string m_output;
};

// A float or int64 tensor as an initializer of `graph` named `name`.
void addInitializer(onnx::GraphProto &graph, const std::string &name, const torch::Tensor &value);

}  // namespace tw::engine
