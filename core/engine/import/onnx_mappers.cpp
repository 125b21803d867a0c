// The mappers for activations, merges and reshapes, and the mapper lookup. Each turns one ONNX
// node over activations into a registry node, folds it into one already made, or refuses it with
// what the registry would need. Which ONNX operator each serves is said in the op table's row of
// the registry op it makes (core/engine/op_builders.cpp).
#include "core/engine/import/onnx_mappers.h"

#include "core/engine/op_builders.h"

#include <onnx/onnx_pb.h>

#include <cmath>
#include <map>
#include <optional>
#include <stdexcept>

namespace tw::engine::onnx_import {

using Fate = ImportRow::Fate;

namespace mappers {

static int64_t rankOf(const ImportValue &v) { return static_cast<int64_t>(v.shape.size()) + 1; }  // with the batch

static void unary(NodeImport &n, const std::string &op, spec::ParamMap params = {}) {
  n.add(op, std::move(params), {n.activation(0, "the input").node});
}

void relu(NodeImport &n) { unary(n, "ReLU"); }
void sigmoid(NodeImport &n) { unary(n, "Sigmoid"); }
void tanh(NodeImport &n) { unary(n, "Tanh"); }
void hardSwish(NodeImport &n) { unary(n, "Hardswish"); }

void leakyRelu(NodeImport &n) { unary(n, "LeakyReLU", {{"negative_slope", tidyFloat(n.attrFloat("alpha", 0.01f))}}); }

// torch's Hardsigmoid is ONNX's with alpha 1/6 and beta 1/2 (its default alpha, 0.2, is Keras').
void hardSigmoid(NodeImport &n) {
  const float alpha = n.attrFloat("alpha", 0.2f), beta = n.attrFloat("beta", 0.5f);
  if (std::abs(alpha - 1.0f / 6.0f) > 1e-6f || beta != 0.5f) {
    n.refuse("HardSigmoid with alpha " + std::to_string(alpha) + " and beta " + std::to_string(beta) +
             "; the registry's Hardsigmoid is torch's (alpha 1/6, beta 0.5)");
  }
  unary(n, "Hardsigmoid");
}

// Clip's bounds are inputs from opset 11 on (attributes before). Clip(0, 6) is ReLU6, Clip(0) ReLU.
void clip(NodeImport &n) {
  auto bound = [&](size_t input, const char *attr, float fallback) -> std::optional<float> {
    if (n.opset() < 11) return n.hasAttr(attr) ? std::optional<float>(n.attrFloat(attr, fallback)) : std::nullopt;
    if (!n.hasInput(input)) return std::nullopt;
    const torch::Tensor &t = n.constant(input, std::string("the ") + attr + " bound");
    if (t.numel() != 1) n.refuse(std::string("its ") + attr + " bound has " + std::to_string(t.numel()) + " values");
    return t.to(torch::kFloat).item<float>();
  };
  const auto low = bound(1, "min", 0.0f), high = bound(2, "max", 0.0f);
  if (low && *low == 0.0f && high && *high == 6.0f) return unary(n, "ReLU6");
  if (low && *low == 0.0f && (!high || std::isinf(*high))) return unary(n, "ReLU");
  n.refuse("Clip(" + (low ? std::to_string(*low) : std::string("-inf")) + ", " +
           (high ? std::to_string(*high) : std::string("inf")) +
           "); the registry has Clip(0, 6) as ReLU6 and Clip(0) as ReLU");
}

// Dropout and Identity compute nothing at inference.
void identity(NodeImport &n) { n.alias(0, n.activation(0, "the input"), Fate::Dropped, "identity"); }

void dropout(NodeImport &n) {
  if (n.readers(1) > 0) n.refuse("its mask output is read; at inference a Dropout has no mask");
  if (n.hasInput(2)) {
    const torch::Tensor &training = n.constant(2, "training_mode");
    if (training.numel() == 1 && training.to(torch::kBool).item<bool>()) n.refuse("it runs in training mode");
  }
  n.alias(0, n.activation(0, "the input"), Fate::Dropped, "identity at inference");
}

// torch writes average pooling at opset 11 after a Pad, of nothing when the pooling has none.
void pad(NodeImport &n) {
  const std::vector<int64_t> pads =
      n.opset() >= 11 ? [&] {
        const torch::Tensor t = n.constant(1, "the pads").to(torch::kLong).contiguous();
        return std::vector<int64_t>(t.data_ptr<int64_t>(), t.data_ptr<int64_t>() + t.numel());
      }()
                      : n.attrInts("pads");
  if (std::any_of(pads.begin(), pads.end(), [](int64_t p) { return p != 0; }))
    n.refuse("pads " + intsText(pads) + "; the registry pads only inside a convolution or pooling layer");
  n.alias(0, n.activation(0, "the data"), Fate::Dropped, "pads nothing");
}

void cast(NodeImport &n) {
  if (n.attrInt("to", 0) != onnx::TensorProto::FLOAT) n.refuse("Cast of a computed value to another type than float");
  n.alias(0, n.activation(0, "the input"), Fate::Dropped, "already float32");
}

// The shape of an activation: a constant whose first entry is the batch size.
void shape(NodeImport &n) {
  const ImportValue &x = n.activation(0, "the input");
  std::vector<int64_t> dims{0};
  dims.insert(dims.end(), x.shape.begin(), x.shape.end());
  const int64_t rank = static_cast<int64_t>(dims.size());
  int64_t start = n.attrInt("start", 0), end = n.attrInt("end", rank);
  start = std::clamp<int64_t>(start < 0 ? start + rank : start, 0, rank);
  end = std::clamp<int64_t>(end < 0 ? end + rank : end, start, rank);
  torch::Tensor batch = torch::zeros({rank}, torch::kBool);
  batch[0] = true;
  n.setConstant(0, torch::tensor(dims, torch::kLong).slice(0, start, end),
                batch.slice(0, start, end).any().item<bool>() ? batch.slice(0, start, end).clone() : torch::Tensor());
}

static void softmax(NodeImport &n, const std::string &op) {
  const ImportValue &x = n.activation(0, "the input");
  const int64_t rank = rankOf(x);
  const int64_t axis = axisOf(n, n.attrInt("axis", n.opset() >= 13 ? -1 : 1), rank, "axis");
  // Before opset 13 the operator flattens the axes from `axis` on into one; that is one torch
  // dimension only when `axis` is the last.
  if (n.opset() < 13 && axis != rank - 1)
    n.refuse("opset " + std::to_string(n.opset()) + "'s " + op + " over axes " + std::to_string(axis) + ".." +
             std::to_string(rank - 1) + " together; only the last axis maps to the registry's dim");
  if (axis == 0) n.refuse("it normalises over the batch (axis 0)");
  unary(n, op, {{"dim", axis == rank - 1 ? int64_t{-1} : axis}});
}

void softmaxNode(NodeImport &n) { softmax(n, "Softmax"); }
void logSoftmax(NodeImport &n) { softmax(n, "LogSoftmax"); }

// A MatMul's bias is an Add of a constant; it folds into the Linear the MatMul became.
static bool foldBias(NodeImport &n, const ImportValue &x, size_t valueInput, const torch::Tensor &bias) {
  ImportNode &linear = n.graph().nodes[x.node];
  if (linear.op != "Linear" || linear.onnxOp != "MatMul" || linear.tensors.count("bias")) return false;
  if (n.graph().readers[n.inputName(valueInput)] != 1) return false;  // the product without bias is read too
  const int64_t out = linear.shape.back();
  if (bias.numel() != out || bias.size(-1) != out) return false;
  linear.params.erase("bias");  // the default, true
  linear.tensors["bias"] = bias.reshape({out}).to(torch::kFloat).contiguous().clone();
  n.alias(0, x, Fate::Folded, "bias");
  return true;
}

void add(NodeImport &n) {
  if (n.input(0).constant() != n.input(1).constant()) {
    const size_t value = n.input(0).constant() ? 1 : 0;
    const ImportValue &x = n.input(value);
    if (!foldBias(n, x, value, n.constant(1 - value, "the constant term")))
      n.refuse("adds a constant; only a MatMul's bias folds (into its Linear)");
    return;
  }
  const ImportValue &a = n.activation(0, "input 1"), &b = n.activation(1, "input 2");
  if (a.shape != b.shape)
    n.refuse("adds " + spec::formatShape(a.shape, true) + " and " + spec::formatShape(b.shape, true) +
             " with broadcasting; the registry's Add takes equal shapes");
  n.add("Add", {}, {a.node, b.node});
}

void sum(NodeImport &n) {
  std::vector<size_t> inputs;
  for (size_t i = 0; i < n.inputCount(); ++i) inputs.push_back(n.activation(i, "input " + std::to_string(i + 1)).node);
  if (inputs.size() == 1) return n.alias(0, n.input(0), Fate::Dropped, "a sum of one");
  n.add("Add", {}, inputs);
}

// x * HardSigmoid(x), as opset 13 writes torch's Hardswish, becomes one Hardswish node, and
// x * Sigmoid(x), as every opset writes torch's SiLU, one SiLU node, when the gate feeds nothing
// else. A gate of another value (squeeze-excitation's) stays a Mul.
static bool foldGate(NodeImport &n, const ImportValue &gate, size_t gateInput, const ImportValue &other) {
  ImportNode &node = n.graph().nodes[gate.node];
  if (node.inputs.size() != 1 || node.inputs[0] != other.node) return false;
  if (node.op != "Hardsigmoid" && node.op != "Sigmoid") return false;
  if (n.graph().readers[n.inputName(gateInput)] != 1) return false;
  ImportRow *gateRow = n.rowOfNode(gate.node);
  const bool hard = node.op == "Hardsigmoid";
  node.op = hard ? "Hardswish" : "SiLU";
  if (gateRow) gateRow->note = "with the Mul after it";
  n.alias(0, gate, Fate::Folded, hard ? "x * HardSigmoid(x)" : "x * Sigmoid(x)");
  return true;
}

void mul(NodeImport &n) {
  const ImportValue &a = n.activation(0, "input 1"), &b = n.activation(1, "input 2");
  if (foldGate(n, b, 1, a) || foldGate(n, a, 0, b)) return;
  n.add("Mul", {}, {a.node, b.node});
}

void concat(NodeImport &n) {
  std::vector<size_t> inputs;
  for (size_t i = 0; i < n.inputCount(); ++i) inputs.push_back(n.activation(i, "input " + std::to_string(i + 1)).node);
  // DenseNet's first layer of a block concatenates a list of one tensor.
  if (inputs.size() == 1) return n.alias(0, n.input(0), Fate::Dropped, "a concat of one");
  const int64_t rank = rankOf(n.input(0));
  const int64_t axis = axisOf(n, n.attrInt("axis", 1), rank, "axis");
  if (axis == 0) n.refuse("it joins along the batch (axis 0)");
  n.add("Concat", {{"dim", axis}}, inputs);
}

// [N, F] from [N, ...]: Flatten, or nothing when the input is [N, F] already.
static void flattenTo(NodeImport &n, const ImportValue &x, const std::string &note) {
  if (x.shape.size() == 1) return n.alias(0, x, Fate::Dropped, "a no-op: the input is " + spec::formatShape(x.shape, true));
  n.add("Flatten", {}, {x.node});
  n.row().note = note;
}

void flatten(NodeImport &n) {
  const ImportValue &x = n.activation(0, "the input");
  const int64_t rank = rankOf(x);
  const int64_t axis = n.attrInt("axis", 1) < 0 ? n.attrInt("axis", 1) + rank : n.attrInt("axis", 1);
  if (axis != 1)
    n.refuse("Flatten at axis " + std::to_string(axis) + " folds the batch into a dimension; only axis 1 keeps it");
  flattenTo(n, x, "");
}

// The target's first entry must be the batch: a Shape's batch entry, a 0 that copies it, the
// file's fixed batch size, or -1 with every other entry fixed. The rest is one sample's shape.
void reshape(NodeImport &n) {
  const ImportValue &x = n.activation(0, "the data");
  const ImportValue &target = n.input(1);
  if (!target.constant()) n.refuse("its target shape is computed from the data; the importer needs it constant");
  const torch::Tensor values = target.tensor.to(torch::kLong).reshape({-1}).contiguous();
  const torch::Tensor batch = target.batch.defined() ? target.batch.reshape({-1}) : torch::zeros_like(values, torch::kBool);
  std::vector<int64_t> t(values.data_ptr<int64_t>(), values.data_ptr<int64_t>() + values.numel());
  const bool allowZero = n.attrInt("allowzero", 0) != 0;
  std::vector<bool> isBatch(t.size(), false);
  for (size_t k = 0; k < t.size(); ++k) {
    isBatch[k] = batch[static_cast<int64_t>(k)].item<bool>();
    if (!isBatch[k] && t[k] == 0 && !allowZero) {
      if (k == 0) isBatch[k] = true;  // copies the input's batch
      else if (k - 1 < x.shape.size()) t[k] = x.shape[k - 1];
    }
  }
  std::vector<int64_t> rest(t.begin() + (t.empty() ? 0 : 1), t.end());
  for (size_t k = 1; k < t.size(); ++k)
    if (isBatch[k]) n.refuse("the target shape puts the batch size at position " + std::to_string(k));
  int64_t known = 1;
  bool wildcard = false;
  for (int64_t d : rest) {
    if (d == -1) wildcard = true;
    else known *= d;
  }
  const bool batchFirst = !t.empty() && (isBatch[0] || (n.graph().fileBatch > 0 && t[0] == n.graph().fileBatch) ||
                                         (t[0] == -1 && !wildcard && known == spec::numel(x.shape)));
  if (!batchFirst)
    n.refuse("its target shape [" + intsText(t) + "] does not keep the batch as its first dimension");
  const std::string shown = "[N" + std::string(rest.empty() ? "" : ", ") + intsText(rest) + "]";
  if (rest.size() == 1 && (rest[0] == -1 || rest[0] == spec::numel(x.shape))) return flattenTo(n, x, shown);
  if (!rest.empty()) {
    spec::Shape resolved = rest;
    for (int64_t &d : resolved)
      if (d == -1 && known > 0) d = spec::numel(x.shape) / known;
    if (foldChannelShuffle(n, x, resolved)) return;
  }
  if (rest == x.shape) return n.alias(0, x, Fate::Dropped, "a no-op: " + shown);
  n.add("Reshape", {{"shape", spec::IntList(rest)}}, {x.node});
  n.row().note = shown;
}

// Erf, Pow and Sqrt are read only inside GELU's and LayerNorm's decompositions (onnx_fusions.h),
// which are folded before any mapper runs; one that reaches its mapper is outside them.
void erfNode(NodeImport &n) {
  n.refuse("Erf of a computed value outside GELU's decomposition x * (1 + erf(x / sqrt 2)) * 0.5; the registry has no Erf");
}
void powNode(NodeImport &n) {
  n.refuse("Pow of a computed value outside a layer norm's decomposition (ReduceMean, Sub, Pow 2, ReduceMean, Add, Sqrt, "
           "Div); the registry has no Pow");
}
void sqrtNode(NodeImport &n) {
  n.refuse("Sqrt of a computed value outside a layer norm's decomposition (ReduceMean, Sub, Pow 2, ReduceMean, Add, "
           "Sqrt, Div); the registry has no Sqrt");
}

}  // namespace mappers

int64_t axisOf(NodeImport &n, int64_t axis, int64_t rank, const std::string &what) {
  const int64_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank)
    n.refuse(what + " " + std::to_string(axis) + " is out of range for a value of rank " + std::to_string(rank));
  return a;
}

// What becomes no registry node (computes nothing at inference, or only shapes): the one list
// of importers outside the op table, whose rows say which ONNX operators become each registry op.
static const std::map<std::string, NodeHandler> &structuralMappers() {
  static const std::map<std::string, NodeHandler> table = {
      {"Identity", mappers::identity}, {"Dropout", mappers::dropout}, {"Cast", mappers::cast},
      {"Pad", mappers::pad},           {"Shape", mappers::shape},
  };
  return table;
}

NodeHandler findMapper(const std::string &opType) {
  static const std::map<std::string, NodeHandler> mappers = [] {
    std::map<std::string, NodeHandler> all = structuralMappers();
    for (const auto &[op, entry] : engine::opTable())
      for (const OnnxImport &import : entry.onnxImports)
        if (!all.emplace(import.onnxOp, import.handler).second)
          throw std::logic_error("ONNX operator " + std::string(import.onnxOp) + " is imported by two rows (" + op + ")");
    return all;
  }();
  auto it = mappers.find(opType);
  return it == mappers.end() ? nullptr : it->second;
}

std::string intsText(const std::vector<int64_t> &values) {
  std::string text;
  for (size_t i = 0; i < values.size(); ++i) text += (i ? ", " : "") + std::to_string(values[i]);
  return text;
}

}  // namespace tw::engine::onnx_import
