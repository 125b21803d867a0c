#include "core/engine/export/onnx_emit.h"

#include "core/engine/export/export_error.h"
#include "core/engine/export/int8_quantization.h"

#include <onnx/onnx_pb.h>

#include <algorithm>

namespace tw::engine {

OnnxEmit::OnnxEmit(const spec::NodeInfo &node, std::vector<std::string> inputs, int opset, onnx::GraphProto &graph,
                   std::function<torch::Tensor(const std::string &)> tensorOf, const Int8Plan *int8)
    : m_node(node),
      m_inputs(std::move(inputs)),
      m_opset(opset),
      m_graph(graph),
      m_tensorOf(std::move(tensorOf)),
      m_int8(int8) {}

void addInitializer(onnx::GraphProto &graph, const std::string &name, const torch::Tensor &value) {
  onnx::TensorProto *t = graph.add_initializer();
  t->set_name(name);
  torch::Tensor c = value.detach().to(torch::kCPU).contiguous();
  if (c.scalar_type() == torch::kLong) {
    t->set_data_type(onnx::TensorProto::INT64);
  } else if (c.scalar_type() == torch::kChar) {
    t->set_data_type(onnx::TensorProto::INT8);
  } else if (c.scalar_type() == torch::kByte) {
    t->set_data_type(onnx::TensorProto::UINT8);
  } else {
    c = c.to(torch::kFloat);
    t->set_data_type(onnx::TensorProto::FLOAT);
  }
  for (int64_t d : c.sizes()) t->add_dims(d);
  t->set_raw_data(c.data_ptr(), static_cast<size_t>(c.numel()) * c.element_size());
}

std::string OnnxEmit::param(const std::string &name) {
  const torch::Tensor t = m_tensorOf(name);
  if (!t.defined()) fail("its module has no tensor '" + name + "'");
  const std::string full = m_node.id + "." + name;
  if (std::find(m_initialized.begin(), m_initialized.end(), full) == m_initialized.end()) {
    addInitializer(m_graph, full, t);
    m_initialized.push_back(full);
  }
  return full;
}

std::string OnnxEmit::constant(const std::string &suffix, const torch::Tensor &value) {
  const std::string name = m_node.id + "/" + suffix;
  addInitializer(m_graph, name, value);
  return name;
}

std::string OnnxEmit::ints(const std::string &suffix, const std::vector<int64_t> &values) {
  return constant(suffix, torch::tensor(values, torch::kLong));
}

std::string OnnxEmit::weight(const std::string &name) {
  if (!m_int8 || !quantizedOp(m_node.op)) return param(name);
  const torch::Tensor t = m_tensorOf(name);
  if (!t.defined()) fail("its module has no tensor '" + name + "'");
  const QuantizedWeight q = quantizeWeight(t);
  const std::string base = m_node.id + "." + name;
  addInitializer(m_graph, base + "_quantized", q.values);
  addInitializer(m_graph, base + "_scale", q.scales);
  addInitializer(m_graph, base + "_zero_point", torch::zeros({q.values.size(0)}, torch::kChar));
  return op("DequantizeLinear", {base + "_quantized", base + "_scale", base + "_zero_point"}, name + "_dequantized",
            {OnnxAttr::integer("axis", 0)});
}

std::string OnnxEmit::quantizedInput() {
  if (!m_int8) return input();
  auto it = m_int8->inputRanges.find(m_node.id);
  if (it == m_int8->inputRanges.end()) return input();
  const ActivationQuant q = activationQuant(it->second);
  const std::string scale = constant("input_scale", torch::tensor(q.scale));
  const std::string zero = constant("input_zero_point", torch::full({}, q.zeroPoint, torch::kByte));
  const std::string quantized = op("QuantizeLinear", {input(), scale, zero}, "input_quantized");
  return op("DequantizeLinear", {quantized, scale, zero}, "input_dequantized");
}

void OnnxEmit::add(const std::string &type, const std::vector<std::string> &inputs,
                   const std::vector<std::string> &outputs, const std::string &name,
                   const std::vector<OnnxAttr> &attrs) {
  onnx::NodeProto *n = m_graph.add_node();
  n->set_op_type(type);
  n->set_name(name);
  for (const std::string &in : inputs) n->add_input(in);
  for (const std::string &out : outputs) n->add_output(out);
  for (const OnnxAttr &a : attrs) {
    onnx::AttributeProto *p = n->add_attribute();
    p->set_name(a.name);
    switch (a.kind) {
      case OnnxAttr::Kind::Int:
        p->set_type(onnx::AttributeProto::INT);
        p->set_i(a.i);
        break;
      case OnnxAttr::Kind::Float:
        p->set_type(onnx::AttributeProto::FLOAT);
        p->set_f(a.f);
        break;
      case OnnxAttr::Kind::Ints:
        p->set_type(onnx::AttributeProto::INTS);
        for (int64_t v : a.ints) p->add_ints(v);
        break;
      case OnnxAttr::Kind::String:
        p->set_type(onnx::AttributeProto::STRING);
        p->set_s(a.s);
        break;
    }
  }
}

std::string OnnxEmit::op(const std::string &type, const std::vector<std::string> &inputs, const std::string &suffix,
                         const std::vector<OnnxAttr> &attrs) {
  const std::string name = m_node.id + "/" + suffix;
  add(type, inputs, {name}, name, attrs);
  return name;
}

std::vector<std::string> OnnxEmit::ops(const std::string &type, const std::vector<std::string> &inputs,
                                       const std::vector<std::string> &suffixes, const std::vector<OnnxAttr> &attrs) {
  std::vector<std::string> names;
  for (const std::string &suffix : suffixes) names.push_back(m_node.id + "/" + suffix);
  add(type, inputs, names, names.front(), attrs);
  return names;
}

void OnnxEmit::finish(const std::string &type, const std::vector<std::string> &inputs,
                      const std::vector<OnnxAttr> &attrs) {
  add(type, inputs, {m_node.id}, m_node.id, attrs);
  m_output = m_node.id;
}

void OnnxEmit::fail(const std::string &reason) const { throwNodeError(m_node.id, m_node.op, reason); }

}  // namespace tw::engine
