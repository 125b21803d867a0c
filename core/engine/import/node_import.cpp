#include "core/engine/import/node_import.h"

#include "core/spec/analysis.h"
#include "core/spec/registry.h"

#include <onnx/onnx_pb.h>

#include <cstdio>
#include <cstdlib>

namespace tw::engine {

namespace {

const onnx::AttributeProto *findAttr(const onnx::NodeProto &node, const std::string &name) {
  for (const auto &a : node.attribute())
    if (a.name() == name) return &a;
  return nullptr;
}

// The registry's own shape rule on the node, through the same analysis `check` runs: a one-node
// model with an Input per incoming shape.
spec::Shape outputShape(const std::string &op, const spec::ParamMap &params, const std::vector<spec::Shape> &inputs) {
  spec::ModelSpec probe;
  probe.name = "probe";
  spec::Node node;
  node.id = "node";
  node.op = op;
  node.params = params;
  for (size_t i = 0; i < inputs.size(); ++i) {
    spec::Node in;
    in.id = "in" + std::to_string(i);
    in.op = "Input";
    in.params["shape"] = spec::IntList(inputs[i]);
    probe.nodes.push_back(in);
    node.inputs.push_back(in.id);
  }
  probe.nodes.push_back(node);
  probe.output = node.id;
  const spec::Analysis analysis = spec::analyze(probe);
  if (!analysis.ok()) {
    const spec::Diagnostic &d = analysis.diagnostics.front();
    throw NodeRefusal("as " + op + (d.field.empty() ? "" : " (" + d.field + ")") + ": " + d.message);
  }
  return analysis.find(node.id)->outputShape;
}

// A constant as the report shows it: its values when there are a few ("[N, -1]" for a shape
// with the batch, "6" for Clip's bound), else its type and shape ("float [64]").
std::string describe(const torch::Tensor &t, const torch::Tensor &batch) {
  const bool real = t.is_floating_point();
  const std::string type = real ? "float" : t.scalar_type() == torch::kBool ? "bool" : "int";
  std::string dims;
  for (int64_t d : t.sizes()) dims += (dims.empty() ? "" : ", ") + std::to_string(d);
  if (t.numel() > 8 || t.scalar_type() == torch::kBool) return type + " [" + dims + "]";
  const torch::Tensor values = t.to(torch::kDouble).reshape({-1}).contiguous();
  const torch::Tensor isBatch = batch.defined() ? batch.reshape({-1}) : torch::zeros({values.numel()}, torch::kBool);
  std::string text;
  for (int64_t k = 0; k < values.numel(); ++k) {
    char number[32];
    std::snprintf(number, sizeof number, "%g", values[k].item<double>());
    text += (k ? ", " : "") + (isBatch[k].item<bool>() ? std::string("N") : std::string(number));
  }
  return t.dim() == 0 ? text : "[" + text + "]";
}

bool isDefault(const spec::OpDef &def, const std::string &name, const spec::ParamValue &value) {
  const spec::ParamDef *param = def.param(name);
  return param && param->defaultValue && *param->defaultValue == value;
}

}  // namespace

double tidyFloat(float value) {
  char text[32];
  for (int digits = 1; digits <= 9; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, static_cast<double>(value));
    const double shortest = std::strtod(text, nullptr);
    if (static_cast<float>(shortest) == value) return shortest;
  }
  return value;
}

NodeImport::NodeImport(ImportGraph &graph, const onnx::NodeProto &node, size_t row)
    : m_graph(graph), m_node(node), m_row(row) {}

size_t NodeImport::inputCount() const { return static_cast<size_t>(m_node.input_size()); }

bool NodeImport::hasInput(size_t i) const { return i < inputCount() && !m_node.input(static_cast<int>(i)).empty(); }

const std::string &NodeImport::inputName(size_t i) const { return m_node.input(static_cast<int>(i)); }

const ImportValue &NodeImport::input(size_t i) const {
  if (!hasInput(i)) refuse("input " + std::to_string(i + 1) + " is missing");
  auto it = m_graph.values.find(inputName(i));
  // The driver checks every input before it calls the node's mapper.
  if (it == m_graph.values.end()) refuse("no value '" + inputName(i) + "' comes before it");
  return it->second;
}

const torch::Tensor &NodeImport::constant(size_t i, const std::string &what) const {
  const ImportValue &v = input(i);
  if (!v.constant()) refuse(what + " ('" + inputName(i) + "') is computed by the graph; the importer needs it constant");
  if (v.hasBatch()) refuse(what + " ('" + inputName(i) + "') depends on the batch size");
  return v.tensor;
}

const ImportValue &NodeImport::activation(size_t i, const std::string &what) const {
  const ImportValue &v = input(i);
  if (v.constant()) refuse(what + " ('" + inputName(i) + "') is a constant; the registry op takes a computed input");
  return v;
}

bool NodeImport::hasAttr(const std::string &name) const { return findAttr(m_node, name) != nullptr; }

int64_t NodeImport::attrInt(const std::string &name, int64_t fallback) const {
  const auto *a = findAttr(m_node, name);
  return a ? a->i() : fallback;
}

float NodeImport::attrFloat(const std::string &name, float fallback) const {
  const auto *a = findAttr(m_node, name);
  return a ? a->f() : fallback;
}

std::vector<int64_t> NodeImport::attrInts(const std::string &name, std::vector<int64_t> fallback) const {
  const auto *a = findAttr(m_node, name);
  return a ? std::vector<int64_t>(a->ints().begin(), a->ints().end()) : fallback;
}

std::string NodeImport::attrString(const std::string &name, const std::string &fallback) const {
  const auto *a = findAttr(m_node, name);
  return a ? a->s() : fallback;
}

const onnx::TensorProto *NodeImport::attrTensor(const std::string &name) const {
  const auto *a = findAttr(m_node, name);
  return a && a->has_t() ? &a->t() : nullptr;
}

int NodeImport::readers(size_t output) const {
  if (output >= static_cast<size_t>(m_node.output_size())) return 0;
  const std::string &name = m_node.output(static_cast<int>(output));
  if (name.empty()) return 0;
  auto it = m_graph.readers.find(name);
  return it == m_graph.readers.end() ? 0 : it->second;
}

size_t NodeImport::add(const std::string &op, spec::ParamMap params, const std::vector<size_t> &inputs,
                       std::map<std::string, torch::Tensor> tensors, const std::string &weightName) {
  return make(0, op, std::move(params), inputs, std::move(tensors), weightName);
}

size_t NodeImport::addFor(size_t output, const std::string &op, spec::ParamMap params,
                          const std::vector<size_t> &inputs) {
  return make(output, op, std::move(params), inputs, {}, {});
}

size_t NodeImport::make(size_t output, const std::string &op, spec::ParamMap params, const std::vector<size_t> &inputs,
                        std::map<std::string, torch::Tensor> tensors, const std::string &weightName) {
  const spec::OpDef *def = spec::Registry::instance().find(op);
  if (!def) refuse("the registry has no op " + op);
  for (auto it = params.begin(); it != params.end();) it = isDefault(*def, it->first, it->second) ? params.erase(it) : std::next(it);
  std::vector<spec::Shape> shapes;
  for (size_t in : inputs) shapes.push_back(m_graph.nodes.at(in).shape);
  ImportNode node;
  node.op = op;
  node.shape = outputShape(op, params, shapes);
  node.params = std::move(params);
  node.inputs = inputs;
  for (auto &[name, t] : tensors) node.tensors[name] = t.to(torch::kFloat).contiguous().clone();
  node.onnxName = m_node.name();
  node.onnxOp = m_node.op_type();
  node.weightName = weightName;
  if (output < static_cast<size_t>(m_node.output_size())) node.onnxOutput = m_node.output(static_cast<int>(output));
  const size_t index = m_graph.nodes.size();
  m_graph.nodes.push_back(std::move(node));
  ImportValue value;
  value.node = index;
  value.shape = m_graph.nodes.back().shape;
  if (!m_graph.nodes.back().onnxOutput.empty()) m_graph.values[m_graph.nodes.back().onnxOutput] = value;
  row().fate = ImportRow::Fate::Mapped;
  if (output == 0 || !m_added) row().node = index;
  m_added = true;
  return index;
}

void NodeImport::alias(size_t output, const ImportValue &value, ImportRow::Fate fate, const std::string &note) {
  if (output < static_cast<size_t>(m_node.output_size()) && !m_node.output(static_cast<int>(output)).empty())
    m_graph.values[m_node.output(static_cast<int>(output))] = value;
  row().fate = fate;
  row().node = value.node;
  row().note = note;
}

void NodeImport::setConstant(size_t output, torch::Tensor tensor, torch::Tensor batch) {
  ImportValue value;
  value.kind = ImportValue::Kind::Constant;
  value.tensor = std::move(tensor);
  value.batch = std::move(batch);
  if (output < static_cast<size_t>(m_node.output_size()) && !m_node.output(static_cast<int>(output)).empty())
    m_graph.values[m_node.output(static_cast<int>(output))] = value;
  row().fate = ImportRow::Fate::Constant;
  if (output == 0) row().note = describe(value.tensor, value.batch);
}

ImportRow *NodeImport::rowOfNode(size_t index) {
  for (ImportRow &r : m_graph.rows)
    if (r.fate == ImportRow::Fate::Mapped && r.node == index) return &r;
  return nullptr;
}

void NodeImport::refuse(const std::string &reason) const { throw NodeRefusal(reason); }

}  // namespace tw::engine
