#include "core/spec/registry.h"
#include "core/spec/checked_math.h"

#include "core/spec/registry_ops.h"

namespace tw::spec {

namespace detail {

ParamDef requiredParam(std::string name, ParamType type, std::string doc, std::optional<double> min,
                       std::optional<double> max) {
  ParamDef def;
  def.name = std::move(name);
  def.type = type;
  def.doc = std::move(doc);
  def.min = min;
  def.max = max;
  return def;
}

ParamDef optionalParam(std::string name, ParamType type, ParamValue defaultValue, std::string doc,
                       std::optional<double> min, std::optional<double> max) {
  ParamDef def = requiredParam(std::move(name), type, std::move(doc), min, max);
  def.defaultValue = std::move(defaultValue);
  return def;
}

ParamDef inferredParam(std::string name, ParamType type, std::string doc, std::optional<double> min) {
  ParamDef def = requiredParam(std::move(name), type, std::move(doc), min);
  def.inferred = true;
  return def;
}

void requireRank(const Shape &shape, size_t rank, const std::string &op, const std::string &layout) {
  if (shape.size() != rank) {
    throw ShapeError("", op + " expects a " + layout + " input (" + std::to_string(rank) +
                             " dims without the batch), got " + formatShape(shape));
  }
}

void inferValue(ParamMap &params, const std::string &name, int64_t value, const std::string &why) {
  auto it = params.find(name);
  if (it != params.end()) {
    const int64_t *given = std::get_if<int64_t>(&it->second);
    if (given && *given != value) {
      throw ShapeError(name, "expected " + std::to_string(value) + " (" + why + "), got " + std::to_string(*given));
    }
  }
  params[name] = value;
}

int64_t torchDim(int64_t dim, size_t rank, const std::string &field, const std::string &op) {
  const int64_t full = static_cast<int64_t>(rank) + 1;  // with the batch dimension
  const int64_t d = dim < 0 ? dim + full : dim;
  if (d < 0 || d >= full) {
    throw ShapeError(field, "dim " + std::to_string(dim) + " is out of range for " + op + " on an input of " +
                                std::to_string(full) + " dims (batch included); expected " + std::to_string(-full) +
                                ".." + std::to_string(full - 1));
  }
  if (d == 0) throw ShapeError(field, "dim " + std::to_string(dim) + " is the batch dimension; " + op +
                                          " works within a sample, expected 1.." + std::to_string(full - 1) +
                                          " or a negative index");
  return d;
}

int64_t windowOutput(int64_t size, int64_t kernel, int64_t stride, int64_t padding, int64_t dilation, bool ceilMode,
                     const std::string &what) {
  const int64_t span = checkedAdd(checkedMul(dilation, kernel - 1, "the kernel's span"), 1, "the kernel's span");
  const int64_t padded = checkedAdd(size, checkedMul(2, padding, "the padding"), "the padded size");
  const int64_t room = padded - span;
  if (room < 0) {
    throw ShapeError("kernel_size", "the kernel spans " + std::to_string(span) + " along " + what +
                                        " but the padded input is only " + std::to_string(padded) +
                                        " (" + std::to_string(size) + " + 2*" + std::to_string(padding) + ")");
  }
  int64_t out = (ceilMode ? (room + stride - 1) / stride : room / stride) + 1;
  // torch's rule: the last window must start inside the input or its left padding.
  if (ceilMode && (out - 1) * stride >= size + padding) --out;
  return out;
}

std::string pairText(const IntList &pair) {
  std::string out;
  for (size_t i = 0; i < pair.size(); ++i) out += (i ? ", " : "") + std::to_string(pair[i]);
  return out;
}

}  // namespace detail

std::string opCategoryName(OpCategory category) {
  switch (category) {
    case OpCategory::Input: return "Input";
    case OpCategory::Layer: return "Layer";
    case OpCategory::Activation: return "Activation";
    case OpCategory::Normalization: return "Normalization";
    case OpCategory::Pooling: return "Pooling";
    case OpCategory::Merge: return "Merge";
    case OpCategory::Reshape: return "Reshape";
    case OpCategory::Block: return "Blocks";
  }
  return "Unknown";
}

const ParamDef *OpDef::param(const std::string &name) const {
  for (const ParamDef &p : params)
    if (p.name == name) return &p;
  return nullptr;
}

const Registry &Registry::instance() {
  static const Registry registry;
  return registry;
}

Registry::Registry() {
  detail::addLayerOps(m_ops);
  detail::addActivationOps(m_ops);
  detail::addStructureOps(m_ops);
  detail::addSequenceOps(m_ops);
  detail::addDimensionOps(m_ops);
}

const OpDef *Registry::find(const std::string &name) const {
  for (const OpDef &op : m_ops)
    if (op.name == name) return &op;
  return nullptr;
}

std::vector<std::string> Registry::names() const {
  std::vector<std::string> out;
  for (const OpDef &op : m_ops) out.push_back(op.name);
  return out;
}

}  // namespace tw::spec
