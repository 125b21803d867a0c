#include "core/spec/registry_ops.h"
#include "core/spec/checked_math.h"

namespace tw::spec::detail {

namespace {

using P = ParamType;

int64_t biasCount(const ParamMap &p, int64_t out) { return getBool(p, "bias") ? out : 0; }

void checkGroups(const ParamMap &p) {
  const int64_t groups = getInt(p, "groups");
  const int64_t in = getInt(p, "in_channels"), out = getInt(p, "out_channels");
  if (in % groups != 0 || out % groups != 0) {
    throw ShapeError("groups", "groups " + std::to_string(groups) + " must divide both in_channels (" +
                                   std::to_string(in) + ") and out_channels (" + std::to_string(out) + ")");
  }
}

std::vector<ParamDef> convParams(P spatial) {
  return {inferredParam("in_channels", P::Int, "Channels of the input; taken from the incoming shape."),
          requiredParam("out_channels", P::Int, "Channels the convolution produces.", 1),
          requiredParam("kernel_size", spatial, "Size of the convolution window.", 1),
          optionalParam("stride", spatial, spatial == P::Int ? ParamValue(int64_t{1}) : ParamValue(IntList{1, 1}),
                        "Step between windows.", 1),
          optionalParam("padding", spatial, spatial == P::Int ? ParamValue(int64_t{0}) : ParamValue(IntList{0, 0}),
                        "Zeros added on each side of the input.", 0),
          optionalParam("dilation", spatial, spatial == P::Int ? ParamValue(int64_t{1}) : ParamValue(IntList{1, 1}),
                        "Spacing between kernel elements.", 1),
          optionalParam("groups", P::Int, int64_t{1}, "Blocked connections from input to output channels.", 1),
          optionalParam("bias", P::Bool, true, "Adds a learnable bias per output channel.")};
}

std::vector<ParamDef> batchNormParams() {
  return {inferredParam("num_features", P::Int, "Channels C of the input; taken from the incoming shape."),
          optionalParam("eps", P::Float, 1e-5, "Added to the variance for numerical stability.", 0.0),
          optionalParam("momentum", P::Float, 0.1, "Weight of the current batch in the running statistics.", 0.0, 1.0),
          optionalParam("affine", P::Bool, true, "Learns a per-channel scale and shift.")};
}

OpDef input() {
  OpDef op;
  op.name = "Input";
  op.category = OpCategory::Input;
  op.doc = "The model's input: one sample's shape without the batch dimension.";
  op.minInputs = op.maxInputs = 0;
  ParamDef dtype = optionalParam("dtype", P::String, std::string("float32"),
                                 "Element type: float32 for features and images, int64 for token indices.");
  dtype.choices = {"float32", "int64"};
  op.params = {requiredParam("shape", P::IntList, "Dimensions of one sample, e.g. [1, 28, 28].", 1), dtype};
  op.shape = [](const std::vector<Shape> &, const ParamMap &p) {
    const IntList &shape = getInts(p, "shape");
    if (shape.empty()) throw ShapeError("shape", "expected at least one dimension, got []");
    return shape;
  };
  return op;
}

OpDef linear() {
  OpDef op;
  op.name = "Linear";
  op.int8Weights = true;
  op.doc = "A fully connected layer applied to the last dimension: y = x W^T + b.";
  op.params = {inferredParam("in_features", P::Int, "Size of the input's last dimension; taken from the incoming shape."),
               requiredParam("out_features", P::Int, "Size of each output sample's last dimension.", 1),
               optionalParam("bias", P::Bool, true, "Adds a learnable bias.")};
  op.infer = [](const std::vector<Shape> &in, ParamMap &p) {
    if (in[0].empty()) throw ShapeError("", "Linear needs an input with at least one dimension, got []");
    inferValue(p, "in_features", in[0].back(), "the last dimension of the incoming shape");
  };
  op.shape = [](const std::vector<Shape> &in, const ParamMap &p) {
    Shape out = in[0];
    out.back() = getInt(p, "out_features");
    return out;
  };
  op.paramCount = [](const std::vector<Shape> &, const ParamMap &p) {
    const int64_t out = getInt(p, "out_features");
    return checkedAdd(checkedMul(getInt(p, "in_features"), out, "the weight count"), biasCount(p, out),
                      "the parameter count");
  };
  return op;
}

OpDef conv1d() {
  OpDef op;
  op.name = "Conv1d";
  op.convolutionDims = 1;
  op.int8Weights = true;
  op.doc = "A 1-D convolution over a [C, L] input.";
  op.params = convParams(P::Int);
  op.infer = [](const std::vector<Shape> &in, ParamMap &p) {
    requireRank(in[0], 2, "Conv1d", "[C, L]");
    inferValue(p, "in_channels", in[0][0], "the channels C of the incoming shape");
  };
  op.shape = [](const std::vector<Shape> &in, const ParamMap &p) {
    checkGroups(p);
    const int64_t l = windowOutput(in[0][1], getInt(p, "kernel_size"), getInt(p, "stride"), getInt(p, "padding"),
                                   getInt(p, "dilation"), false, "L");
    return Shape{getInt(p, "out_channels"), l};
  };
  op.paramCount = [](const std::vector<Shape> &, const ParamMap &p) {
    const int64_t out = getInt(p, "out_channels");
    return checkedAdd(checkedProduct({out, getInt(p, "in_channels") / getInt(p, "groups"), getInt(p, "kernel_size")},
                                     "the weight count"),
                      biasCount(p, out), "the parameter count");
  };
  return op;
}

OpDef conv2d() {
  OpDef op;
  op.name = "Conv2d";
  op.convolutionDims = 2;
  op.int8Weights = true;
  op.doc = "A 2-D convolution over a [C, H, W] input.";
  op.params = convParams(P::IntPair);
  op.infer = [](const std::vector<Shape> &in, ParamMap &p) {
    requireRank(in[0], 3, "Conv2d", "[C, H, W]");
    inferValue(p, "in_channels", in[0][0], "the channels C of the incoming shape");
  };
  op.shape = [](const std::vector<Shape> &in, const ParamMap &p) {
    checkGroups(p);
    const IntList &k = getInts(p, "kernel_size"), &s = getInts(p, "stride"), &pad = getInts(p, "padding"),
                  &d = getInts(p, "dilation");
    const int64_t h = windowOutput(in[0][1], k[0], s[0], pad[0], d[0], false, "H");
    const int64_t w = windowOutput(in[0][2], k[1], s[1], pad[1], d[1], false, "W");
    return Shape{getInt(p, "out_channels"), h, w};
  };
  op.paramCount = [](const std::vector<Shape> &, const ParamMap &p) {
    const int64_t out = getInt(p, "out_channels");
    const IntList &k = getInts(p, "kernel_size");
    return checkedAdd(checkedProduct({out, getInt(p, "in_channels") / getInt(p, "groups"), k[0], k[1]}, "the weight count"),
                      biasCount(p, out), "the parameter count");
  };
  return op;
}

int64_t affineCount(const ParamMap &p, const char *flag, int64_t features) {
  return getBool(p, flag) ? checkedMul(2, features, "the parameter count") : 0;
}

OpDef batchNorm1d() {
  OpDef op;
  op.name = "BatchNorm1d";
  op.category = OpCategory::Normalization;
  op.doc = "Batch normalisation over the channels of a [C] or [C, L] input.";
  op.params = batchNormParams();
  op.infer = [](const std::vector<Shape> &in, ParamMap &p) {
    if (in[0].size() != 1 && in[0].size() != 2)
      throw ShapeError("", "BatchNorm1d expects a [C] or [C, L] input, got " + formatShape(in[0]));
    inferValue(p, "num_features", in[0][0], "the channels C of the incoming shape");
  };
  op.shape = [](const std::vector<Shape> &in, const ParamMap &) { return in[0]; };
  op.paramCount = [](const std::vector<Shape> &, const ParamMap &p) {
    return affineCount(p, "affine", getInt(p, "num_features"));
  };
  return op;
}

OpDef batchNorm2d() {
  OpDef op = batchNorm1d();
  op.name = "BatchNorm2d";
  op.doc = "Batch normalisation over the channels of a [C, H, W] input.";
  op.infer = [](const std::vector<Shape> &in, ParamMap &p) {
    requireRank(in[0], 3, "BatchNorm2d", "[C, H, W]");
    inferValue(p, "num_features", in[0][0], "the channels C of the incoming shape");
  };
  return op;
}

OpDef layerNorm() {
  OpDef op;
  op.name = "LayerNorm";
  op.category = OpCategory::Normalization;
  op.doc = "Layer normalisation over the last dimension.";
  op.params = {inferredParam("normalized_shape", P::Int, "Size of the last dimension; taken from the incoming shape."),
               optionalParam("eps", P::Float, 1e-5, "Added to the variance for numerical stability.", 0.0),
               optionalParam("elementwise_affine", P::Bool, true, "Learns a per-element scale and shift.")};
  op.infer = [](const std::vector<Shape> &in, ParamMap &p) {
    if (in[0].empty()) throw ShapeError("", "LayerNorm needs an input with at least one dimension, got []");
    inferValue(p, "normalized_shape", in[0].back(), "the last dimension of the incoming shape");
  };
  op.shape = [](const std::vector<Shape> &in, const ParamMap &) { return in[0]; };
  op.paramCount = [](const std::vector<Shape> &, const ParamMap &p) {
    return affineCount(p, "elementwise_affine", getInt(p, "normalized_shape"));
  };
  return op;
}

OpDef embedding() {
  OpDef op;
  op.name = "Embedding";
  op.takesIndices = true;
  op.doc = "A lookup table from int64 indices to learned vectors: [*] becomes [*, embedding_dim].";
  op.params = {requiredParam("num_embeddings", P::Int, "Number of distinct indices (vocabulary size).", 1),
               requiredParam("embedding_dim", P::Int, "Size of each embedding vector.", 1)};
  op.shape = [](const std::vector<Shape> &in, const ParamMap &p) {
    Shape out = in[0];
    out.push_back(getInt(p, "embedding_dim"));
    return out;
  };
  op.paramCount = [](const std::vector<Shape> &, const ParamMap &p) {
    return checkedMul(getInt(p, "num_embeddings"), getInt(p, "embedding_dim"), "the parameter count");
  };
  return op;
}

}  // namespace

void addLayerOps(std::vector<OpDef> &ops) {
  for (OpDef op : {input(), linear(), conv1d(), conv2d(), batchNorm1d(), batchNorm2d(), layerNorm(), embedding()})
    ops.push_back(std::move(op));
}

}  // namespace tw::spec::detail
