#pragma once
// Small ONNX graphs written through the ONNX protobuf API, as an exporter would write them, for the
// import tests: a node, an input or an initializer at a time.
//
//   OnnxGraph g(13);
//   g.input("x", {"N", "6"});
//   g.initializer("w", torch::randn({6, 4}));
//   g.node("Conv", {"x", "w"}, {"y"}).ints("pads", {1, 1, 1, 1});
//   g.output("y");
//   write(dir, "mm.onnx", g.bytes());

#include <onnx/onnx_pb.h>
#include <torch/torch.h>

#include <QDir>
#include <QString>

#include <cctype>
#include <fstream>
#include <string>
#include <vector>

namespace tw::testing {

class OnnxNode {
 public:
  explicit OnnxNode(onnx::NodeProto *node) : m_node(node) {}
  OnnxNode &i(const std::string &name, int64_t v) {
    attr(name, onnx::AttributeProto::INT).set_i(v);
    return *this;
  }
  OnnxNode &f(const std::string &name, float v) {
    attr(name, onnx::AttributeProto::FLOAT).set_f(v);
    return *this;
  }
  OnnxNode &s(const std::string &name, const std::string &v) {
    attr(name, onnx::AttributeProto::STRING).set_s(v);
    return *this;
  }
  OnnxNode &ints(const std::string &name, const std::vector<int64_t> &v) {
    onnx::AttributeProto &a = attr(name, onnx::AttributeProto::INTS);
    for (int64_t x : v) a.add_ints(x);
    return *this;
  }

 private:
  onnx::AttributeProto &attr(const std::string &name, onnx::AttributeProto::AttributeType type) {
    onnx::AttributeProto *a = m_node->add_attribute();
    a->set_name(name);
    a->set_type(type);
    return *a;
  }
  onnx::NodeProto *m_node;
};

class OnnxGraph {
 public:
  explicit OnnxGraph(int64_t opset) {
    m_model.set_ir_version(8);
    m_model.set_producer_name("test");
    m_model.add_opset_import()->set_version(opset);
    m_model.mutable_graph()->set_name("g");
  }

  // A float input; a dimension given as digits is fixed, any other text is an open one.
  void input(const std::string &name, const std::vector<std::string> &dims) {
    onnx::ValueInfoProto *in = m_model.mutable_graph()->add_input();
    in->set_name(name);
    in->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
    for (const std::string &d : dims) {
      auto *dim = in->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim();
      if (std::isdigit(static_cast<unsigned char>(d[0]))) dim->set_dim_value(std::stoll(d));
      else dim->set_dim_param(d);
    }
  }

  // A float32 or int64 initializer.
  onnx::TensorProto &initializer(const std::string &name, const torch::Tensor &value) {
    onnx::TensorProto *t = m_model.mutable_graph()->add_initializer();
    const torch::Tensor c = value.contiguous();
    t->set_name(name);
    t->set_data_type(c.scalar_type() == torch::kLong ? onnx::TensorProto::INT64 : onnx::TensorProto::FLOAT);
    for (int64_t d : c.sizes()) t->add_dims(d);
    t->set_raw_data(c.data_ptr(), static_cast<size_t>(c.numel() * c.element_size()));
    return *t;
  }

  OnnxNode node(const std::string &op, const std::vector<std::string> &inputs, const std::vector<std::string> &outputs,
                const std::string &name = {}) {
    onnx::NodeProto *n = m_model.mutable_graph()->add_node();
    n->set_op_type(op);
    n->set_name(name.empty() ? op + "_" + std::to_string(m_model.graph().node_size()) : name);
    for (const std::string &in : inputs) n->add_input(in);
    for (const std::string &out : outputs) n->add_output(out);
    return OnnxNode(n);
  }

  void output(const std::string &name) { m_model.mutable_graph()->add_output()->set_name(name); }

  onnx::ModelProto &model() { return m_model; }
  std::string bytes() const { return m_model.SerializeAsString(); }

 private:
  onnx::ModelProto m_model;
};

inline std::string writeFile(const QString &dir, const QString &name, const std::string &bytes) {
  const std::string path = QDir(dir).filePath(name).toStdString();
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

}  // namespace tw::testing
