#pragma once
// The layer registry: one entry per op. The designer, `check` (and `check --ops`) and the
// builder all read this one table; a new op is one entry here plus its builder in core/engine.

#include "core/spec/param.h"
#include "core/spec/shape.h"

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace tw::spec {

// Thrown by shape rules; `field` names the parameter at fault (empty: the inputs).
struct ShapeError : std::runtime_error {
  ShapeError(std::string field, const std::string &message)
      : std::runtime_error(message), field(std::move(field)) {}
  std::string field;
};

// Given the input shapes and the node's parameters (typed, defaults filled in), the output shape.
using ShapeRule = std::function<Shape(const std::vector<Shape> &inputs, const ParamMap &params)>;
// Given the same, the number of trainable parameters.
using ParamCountRule = std::function<int64_t(const std::vector<Shape> &inputs, const ParamMap &params)>;
// Fills the `inferred` parameters (in_features, in_channels, pooling stride...) from the input
// shapes; throws ShapeError naming the parameter when a value written in the file contradicts them.
using InferRule = std::function<void(const std::vector<Shape> &inputs, ParamMap &params)>;

// Block: a composite of several layers built as one node (TransformerEncoderLayer).
enum class OpCategory { Input, Layer, Activation, Normalization, Pooling, Merge, Reshape, Block };
std::string opCategoryName(OpCategory category);

struct OpDef {
  std::string name;      // "Conv2d"
  OpCategory category = OpCategory::Layer;
  std::string doc;       // one sentence for tooltips and `check --ops`
  int minInputs = 1;
  int maxInputs = 1;     // -1: any number (Add, Concat)
  std::vector<ParamDef> params;
  InferRule infer;            // empty: nothing inferred
  ShapeRule shape;
  ParamCountRule paramCount;  // empty: no parameters
  // What the rest of the house asks about an op, kept here rather than in lists of names:
  bool keepsDtype = false;     // only moves or merges values: int64 indices pass through
  bool takesIndices = false;   // reads int64 indices (Embedding): the data's indices are range-checked
  int convolutionDims = 0;     // 1 or 2 for Conv1d / Conv2d (threads, memory layout, int8)
  bool int8Weights = false;    // the int8 export quantises its weights and inputs
  std::string outputKind;      // what it makes of scores when it ends a model: "probabilities", ...

  const ParamDef *param(const std::string &name) const;
};

class Registry {
 public:
  static const Registry &instance();
  const OpDef *find(const std::string &name) const;  // nullptr when unknown
  const std::vector<OpDef> &ops() const { return m_ops; }
  std::vector<std::string> names() const;

 private:
  Registry();
  std::vector<OpDef> m_ops;
};

}  // namespace tw::spec
