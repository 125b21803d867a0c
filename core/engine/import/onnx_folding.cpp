// The folders: ONNX nodes whose inputs are all constants, computed at import so that the model
// keeps only layers. Exporters leave such nodes around shapes ("x.view(x.size(0), -1)" becomes
// Shape, Gather, Unsqueeze, Concat, Reshape), around Clip's bounds and around deduplicated
// initializers (Identity). A shape read from an activation carries a mask of the entries that
// stand for the batch size, which gathers, concatenations and casts keep and arithmetic refuses.
#include "core/engine/import/onnx_mappers.h"

#include "core/engine/import/onnx_tensor.h"

#include <onnx/onnx_pb.h>

namespace tw::engine::onnx_import {

namespace {

torch::Tensor maskOf(const ImportValue &v) {
  return v.batch.defined() ? v.batch : torch::zeros(v.tensor.sizes(), torch::kBool);
}

// A mask worth keeping: undefined when no entry is the batch.
torch::Tensor keep(const torch::Tensor &mask) { return mask.any().item<bool>() ? mask : torch::Tensor(); }

std::vector<int64_t> ints(const torch::Tensor &t) {
  const torch::Tensor c = t.to(torch::kLong).contiguous().reshape({-1});
  return std::vector<int64_t>(c.data_ptr<int64_t>(), c.data_ptr<int64_t>() + c.numel());
}

torch::ScalarType torchType(NodeImport &n, int64_t onnxType) {
  switch (onnxType) {
    case onnx::TensorProto::FLOAT: return torch::kFloat;
    case onnx::TensorProto::DOUBLE: return torch::kDouble;
    case onnx::TensorProto::FLOAT16: return torch::kHalf;
    case onnx::TensorProto::INT64: return torch::kLong;
    case onnx::TensorProto::INT32: return torch::kInt;
    case onnx::TensorProto::INT8: return torch::kChar;
    case onnx::TensorProto::UINT8: return torch::kByte;
    case onnx::TensorProto::BOOL: return torch::kBool;
    default: n.refuse("Cast to ONNX element type " + std::to_string(onnxType) + " is not read");
  }
}

// Axes from the attribute (before opset 13) or the second input (from it on).
std::vector<int64_t> axesOf(NodeImport &n, int64_t inputFromOpset) {
  if (n.opset() >= inputFromOpset) return n.hasInput(1) ? ints(n.constant(1, "axes")) : std::vector<int64_t>{};
  return n.attrInts("axes");
}

void constantNode(NodeImport &n) {
  if (const onnx::TensorProto *t = n.attrTensor("value")) {
    n.setConstant(0, tensorFromOnnx(*t, n.graph().file));
  } else if (n.hasAttr("value_float")) {
    n.setConstant(0, torch::tensor(n.attrFloat("value_float", 0.0f)));
  } else if (n.hasAttr("value_int")) {
    n.setConstant(0, torch::tensor(n.attrInt("value_int", 0), torch::kLong));
  } else if (n.hasAttr("value_ints")) {
    n.setConstant(0, torch::tensor(n.attrInts("value_ints"), torch::kLong));
  } else {
    n.refuse("a Constant without value, value_float, value_int or value_ints (sparse and string constants are not read)");
  }
}

void identity(NodeImport &n) { n.setConstant(0, n.input(0).tensor, n.input(0).batch); }

void cast(NodeImport &n) {
  const ImportValue &x = n.input(0);
  n.setConstant(0, x.tensor.to(torchType(n, n.attrInt("to", onnx::TensorProto::FLOAT))), x.batch);
}

void shape(NodeImport &n) {
  const auto sizes = n.input(0).tensor.sizes().vec();
  const int64_t rank = static_cast<int64_t>(sizes.size());
  int64_t start = n.attrInt("start", 0), end = n.attrInt("end", rank);
  start = std::clamp<int64_t>(start < 0 ? start + rank : start, 0, rank);
  end = std::clamp<int64_t>(end < 0 ? end + rank : end, 0, rank);
  n.setConstant(0, torch::tensor(std::vector<int64_t>(sizes.begin() + start, sizes.begin() + std::max(start, end)),
                                 torch::kLong));
}

torch::Tensor gatherAlong(const torch::Tensor &data, int64_t axis, const torch::Tensor &indices) {
  std::vector<int64_t> shape(data.sizes().begin(), data.sizes().begin() + axis);
  shape.insert(shape.end(), indices.sizes().begin(), indices.sizes().end());
  shape.insert(shape.end(), data.sizes().begin() + axis + 1, data.sizes().end());
  return data.index_select(axis, indices.reshape({-1})).reshape(shape);
}

void gather(NodeImport &n) {
  const ImportValue &data = n.input(0);
  const int64_t rank = data.tensor.dim();
  const int64_t axis = axisOf(n, n.attrInt("axis", 0), rank, "axis");
  torch::Tensor indices = n.constant(1, "the indices").to(torch::kLong);
  indices = torch::where(indices < 0, indices + data.tensor.size(axis), indices);
  n.setConstant(0, gatherAlong(data.tensor, axis, indices), data.batch.defined() ? gatherAlong(data.batch, axis, indices) : torch::Tensor());
}

void unsqueeze(NodeImport &n) {
  const ImportValue &x = n.input(0);
  std::vector<int64_t> axes = axesOf(n, 13);
  const int64_t rank = x.tensor.dim() + static_cast<int64_t>(axes.size());
  for (int64_t &a : axes) a = axisOf(n, a, rank, "axes");
  std::sort(axes.begin(), axes.end());
  torch::Tensor t = x.tensor, mask = maskOf(x);
  for (int64_t a : axes) {
    t = t.unsqueeze(a);
    mask = mask.unsqueeze(a);
  }
  n.setConstant(0, t, keep(mask));
}

void squeeze(NodeImport &n) {
  const ImportValue &x = n.input(0);
  std::vector<int64_t> axes = axesOf(n, 13);
  if (axes.empty())
    for (int64_t d = 0; d < x.tensor.dim(); ++d)
      if (x.tensor.size(d) == 1) axes.push_back(d);
  for (int64_t &a : axes) a = axisOf(n, a, x.tensor.dim(), "axes");
  std::sort(axes.rbegin(), axes.rend());
  torch::Tensor t = x.tensor, mask = maskOf(x);
  for (int64_t a : axes) {
    if (t.size(a) != 1) n.refuse("axis " + std::to_string(a) + " has size " + std::to_string(t.size(a)) + ", not 1");
    t = t.squeeze(a);
    mask = mask.squeeze(a);
  }
  n.setConstant(0, t, keep(mask));
}

void concat(NodeImport &n) {
  std::vector<torch::Tensor> parts, masks;
  for (size_t i = 0; i < n.inputCount(); ++i) {
    if (!n.hasInput(i)) continue;
    parts.push_back(n.input(i).tensor);
    masks.push_back(maskOf(n.input(i)));
  }
  if (parts.empty()) n.refuse("a Concat of nothing");
  const int64_t axis = axisOf(n, n.attrInt("axis", 0), parts[0].dim(), "axis");
  n.setConstant(0, torch::cat(parts, axis), keep(torch::cat(masks, axis)));
}

void slice(NodeImport &n) {
  const ImportValue &x = n.input(0);
  const std::vector<int64_t> starts = ints(n.constant(1, "starts")), ends = ints(n.constant(2, "ends"));
  std::vector<int64_t> axes = n.hasInput(3) ? ints(n.constant(3, "axes")) : std::vector<int64_t>{};
  const std::vector<int64_t> steps = n.hasInput(4) ? ints(n.constant(4, "steps")) : std::vector<int64_t>{};
  torch::Tensor t = x.tensor, mask = maskOf(x);
  for (size_t k = 0; k < starts.size(); ++k) {
    const int64_t axis = axisOf(n, axes.empty() ? static_cast<int64_t>(k) : axes[k], t.dim(), "axes");
    const int64_t step = steps.empty() ? 1 : steps[k];
    if (step < 1) n.refuse("Slice with step " + std::to_string(step) + " (only positive steps are read)");
    const int64_t size = t.size(axis);
    auto clampIndex = [size](int64_t i) { return std::clamp<int64_t>(i < 0 ? i + size : i, 0, size); };
    const int64_t begin = clampIndex(starts[k]), end = std::max(begin, clampIndex(ends[k]));
    t = t.slice(axis, begin, end, step);
    mask = mask.slice(axis, begin, end, step);
  }
  n.setConstant(0, t, keep(mask));
}

// Arithmetic: ONNX broadcasts as torch does; integer division truncates toward zero.
template <typename Op>
void arithmetic(NodeImport &n, Op op) {
  const ImportValue &a = n.input(0), &b = n.input(1);
  if (a.hasBatch() || b.hasBatch()) n.refuse("computes with the batch size, which the file leaves open");
  n.setConstant(0, op(a.tensor, b.tensor));
}

void add(NodeImport &n) { arithmetic(n, [](const torch::Tensor &a, const torch::Tensor &b) { return a + b; }); }
void sub(NodeImport &n) { arithmetic(n, [](const torch::Tensor &a, const torch::Tensor &b) { return a - b; }); }
void mul(NodeImport &n) { arithmetic(n, [](const torch::Tensor &a, const torch::Tensor &b) { return a * b; }); }
void div(NodeImport &n) {
  arithmetic(n, [](const torch::Tensor &a, const torch::Tensor &b) {
    return a.is_floating_point() ? a / b : torch::div(a, b, "trunc");
  });
}

void reshape(NodeImport &n) {
  const ImportValue &x = n.input(0);
  if (x.hasBatch()) n.refuse("reshapes a shape that holds the batch size");
  std::vector<int64_t> target = ints(n.constant(1, "the target shape"));
  for (size_t k = 0; k < target.size(); ++k)
    if (target[k] == 0 && !n.attrInt("allowzero", 0)) target[k] = x.tensor.size(static_cast<int64_t>(k));
  n.setConstant(0, x.tensor.reshape(target));
}

// A file exported without constant folding writes a Linear's weight as Transpose(initializer).
void transpose(NodeImport &n) {
  const ImportValue &x = n.input(0);
  const int64_t rank = x.tensor.dim();
  std::vector<int64_t> perm = n.hasAttr("perm") ? n.attrInts("perm") : std::vector<int64_t>{};
  if (perm.empty())
    for (int64_t d = rank - 1; d >= 0; --d) perm.push_back(d);
  if (static_cast<int64_t>(perm.size()) != rank)
    n.refuse("perm " + intsText(perm) + " for a value of rank " + std::to_string(rank));
  for (int64_t &p : perm) p = axisOf(n, p, rank, "perm");
  n.setConstant(0, x.tensor.permute(perm).contiguous(), keep(maskOf(x).permute(perm).contiguous()));
}

void constantOfShape(NodeImport &n) {
  const std::vector<int64_t> shape = ints(n.constant(0, "the shape"));
  const onnx::TensorProto *value = n.attrTensor("value");
  // The value is a one-element tensor; its absence means float 0.
  const torch::Tensor fill = value ? tensorFromOnnx(*value, n.graph().file).reshape({}) : torch::zeros({});
  n.setConstant(0, fill.expand(shape).clone());
}

}  // namespace

NodeHandler findFolder(const std::string &opType) {
  static const std::map<std::string, NodeHandler> folders = {
      {"Constant", constantNode}, {"Identity", identity}, {"Cast", cast},     {"Shape", shape},
      {"Gather", gather},         {"Unsqueeze", unsqueeze}, {"Squeeze", squeeze}, {"Concat", concat},
      {"Slice", slice},           {"Add", add},           {"Sub", sub},       {"Mul", mul},
      {"Div", div},               {"Reshape", reshape},   {"ConstantOfShape", constantOfShape},
      {"Transpose", transpose},
  };
  auto it = folders.find(opType);
  return it == folders.end() ? nullptr : it->second;
}

}  // namespace tw::engine::onnx_import
