#include "core/engine/import/onnx_graph_index.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>

#include "core/engine/import/onnx_tensor.h"

namespace tw::engine::onnx_import {

GraphIndex::GraphIndex(const onnx::GraphProto &graph, const ImportGraph *g) : m_graph(graph), m_g(g) {
  for (int i = 0; i < graph.node_size(); ++i) {
    for (const std::string &out : graph.node(i).output()) m_producer[out] = i;
    for (const std::string &in : graph.node(i).input())
      if (!in.empty()) m_readers[in].push_back(i);
  }
  for (const auto &out : graph.output()) m_outputs.insert(out.name());
  for (const auto &t : graph.initializer()) m_initializers.insert(t.name());
}

const onnx::NodeProto &GraphIndex::node(int i) const { return m_graph.node(i); }

int GraphIndex::size() const { return m_graph.node_size(); }

std::string GraphIndex::name(int i) const {
  return node(i).name().empty() ? node(i).op_type() + " #" + std::to_string(i + 1) : node(i).name();
}

int GraphIndex::producer(const std::string &value) const {
  auto it = m_producer.find(value);
  return it == m_producer.end() ? -1 : it->second;
}

const std::vector<int> &GraphIndex::readers(const std::string &value) const {
  static const std::vector<int> none;
  auto it = m_readers.find(value);
  return it == m_readers.end() ? none : it->second;
}

int GraphIndex::soleReader(const std::string &value, const std::string &op) const {
  const std::vector<int> &r = readers(value);
  if (r.size() != 1 || m_outputs.count(value) || node(r[0]).op_type() != op) return -1;
  return r[0];
}

bool GraphIndex::isConstant(const std::string &value) const {
  if (m_initializers.count(value)) return true;
  const int p = producer(value);
  return p >= 0 &&
         (node(p).op_type() == "Constant" || (node(p).op_type() == "Identity" && isConstant(node(p).input(0))));
}

std::optional<torch::Tensor> GraphIndex::constant(const std::string &value) const {
  if (m_g) {
    auto it = m_g->values.find(value);
    if (it != m_g->values.end() && it->second.constant() && !it->second.hasBatch()) return it->second.tensor;
  }
  const int p = producer(value);
  if (p < 0) return std::nullopt;
  const onnx::NodeProto &n = node(p);
  if (n.op_type() == "Identity") return constant(n.input(0));
  if (n.op_type() != "Constant") return std::nullopt;
  for (const auto &a : n.attribute()) {
    if (a.name() == "value" && a.has_t()) return tensorFromOnnx(a.t(), m_g ? m_g->file : std::string());
    if (a.name() == "value_float") return torch::tensor(a.f());
  }
  return std::nullopt;
}

bool GraphIndex::scalarIs(const std::string &value, double expected, double tolerance) const {
  const auto t = constant(value);
  return t && t->numel() == 1 && t->is_floating_point() &&
         std::abs(t->to(torch::kDouble).item<double>() - expected) <= tolerance;
}

int64_t GraphIndex::attrInt(int i, const std::string &name, int64_t fallback) const {
  for (const auto &a : node(i).attribute())
    if (a.name() == name) return a.i();
  return fallback;
}

std::vector<int64_t> GraphIndex::attrInts(int i, const std::string &name) const {
  for (const auto &a : node(i).attribute())
    if (a.name() == name) return std::vector<int64_t>(a.ints().begin(), a.ints().end());
  return {};
}

std::string other(const onnx::NodeProto &n, const std::string &value) {
  if (n.input_size() != 2) return {};
  if (n.input(0) == value && n.input(1) != value) return n.input(1);
  if (n.input(1) == value && n.input(0) != value) return n.input(0);
  return {};
}

std::string memberList(const GraphIndex &ix, std::vector<int> members) {
  std::sort(members.begin(), members.end());
  members.erase(std::unique(members.begin(), members.end()), members.end());
  std::string text;
  for (int m : members) text += (text.empty() ? "" : ", ") + ix.node(m).op_type() + " '" + ix.name(m) + "'";
  return text;
}

}  // namespace tw::engine::onnx_import
