#include "core/engine/export/onnx_emitters.h"

#include "core/engine/export/onnx_emit.h"
#include "core/engine/export/onnx_patterns.h"
#include "core/engine/node_params.h"
#include "core/spec/param.h"

#include <cmath>

namespace tw::engine::onnx_ops {

namespace {

using spec::getBool;
using spec::getFloat;
using spec::getInt;
using A = OnnxAttr;

// A torch dimension (negative counts from the end) as an axis of a rank-`rank` tensor.
int64_t axis(int64_t dim, int64_t rank) { return dim < 0 ? dim + rank : dim; }

// The batch copied, every other dimension as analysis inferred it.
std::vector<int64_t> batchShape(const std::vector<int64_t> &sample) {
  std::vector<int64_t> shape{0};
  shape.insert(shape.end(), sample.begin(), sample.end());
  return shape;
}

void unary(OnnxEmit &e, const std::string &type, const std::vector<OnnxAttr> &attrs = {}) {
  e.finish(type, {e.input()}, attrs);
}

// Torch's pooling windows, which in ceil mode never start in the right padding, as ONNX pads:
// the end pads grow until floor mode gives torch's output size. Returns the extra per dimension.
std::vector<int64_t> poolPads(OnnxEmit &e, const std::vector<int64_t> &kernel, const std::vector<int64_t> &stride,
                              const std::vector<int64_t> &padding, const std::vector<int64_t> &dilation, bool ceil,
                              std::vector<int64_t> &extra) {
  const std::vector<int64_t> &in = e.node().inputShapes.at(0);
  extra.assign(2, 0);
  for (size_t i = 0; i < 2; ++i) {
    const int64_t size = in[in.size() - 2 + i];
    const int64_t span = dilation[i] * (kernel[i] - 1) + 1;
    int64_t out = (size + 2 * padding[i] - span + (ceil ? stride[i] - 1 : 0)) / stride[i] + 1;
    if (ceil && (out - 1) * stride[i] >= size + padding[i]) --out;
    extra[i] = std::max<int64_t>(0, (out - 1) * stride[i] + span - (size + 2 * padding[i]));
  }
  return {padding[0], padding[1], padding[0] + extra[0], padding[1] + extra[1]};
}

}  // namespace

void Input(OnnxEmit &e) { e.alias(e.input()); }

void Linear(OnnxEmit &e) {
  const std::string w = e.weight("weight");
  const std::string x = e.quantizedInput();
  const bool bias = e.has("bias");
  if (e.rank() == 2) {
    std::vector<std::string> in{x, w};
    if (bias) in.push_back(e.param("bias"));
    e.finish("Gemm", in, {A::integer("transB", 1)});
    return;
  }
  const std::string wt = e.op("Transpose", {w}, "weight_t", {A::list("perm", {1, 0})});
  if (!bias) {
    e.finish("MatMul", {x, wt});
    return;
  }
  e.finish("Add", {e.op("MatMul", {x, wt}, "matmul"), e.param("bias")});
}

namespace {

void conv(OnnxEmit &e, const std::vector<int64_t> &kernel, const std::vector<int64_t> &stride,
          const std::vector<int64_t> &padding, const std::vector<int64_t> &dilation) {
  std::vector<std::string> in{e.quantizedInput(), e.weight("weight")};
  if (e.has("bias")) in.push_back(e.param("bias"));
  std::vector<int64_t> pads = padding;
  pads.insert(pads.end(), padding.begin(), padding.end());
  e.finish("Conv", in,
           {A::list("kernel_shape", kernel), A::list("strides", stride), A::list("pads", pads),
            A::list("dilations", dilation), A::integer("group", getInt(e.node().params, "groups"))});
}

}  // namespace

void Conv1d(OnnxEmit &e) {
  const auto &p = e.node().params;
  conv(e, {getInt(p, "kernel_size")}, {getInt(p, "stride")}, {getInt(p, "padding")}, {getInt(p, "dilation")});
}

void Conv2d(OnnxEmit &e) {
  const auto &p = e.node().params;
  conv(e, pairParam(p, "kernel_size"), pairParam(p, "stride"), pairParam(p, "padding"), pairParam(p, "dilation"));
}

void BatchNorm(OnnxEmit &e) {
  const auto &p = e.node().params;
  const int64_t features = getInt(p, "num_features");
  const std::string scale = e.has("weight") ? e.param("weight") : e.constant("scale", torch::ones({features}));
  const std::string shift = e.has("bias") ? e.param("bias") : e.constant("shift", torch::zeros({features}));
  e.finish("BatchNormalization", {e.input(), scale, shift, e.param("running_mean"), e.param("running_var")},
           {A::real("epsilon", getFloat(p, "eps"))});
}

void LayerNorm(OnnxEmit &e) {
  const auto &p = e.node().params;
  const int64_t n = getInt(p, "normalized_shape");
  const std::string scale = e.has("weight") ? e.param("weight") : e.constant("scale", torch::ones({n}));
  e.alias(onnxLayerNorm(e, e.input(), scale, e.has("bias") ? e.param("bias") : std::string(), getFloat(p, "eps"), "norm"));
}

void Identity(OnnxEmit &e) { e.alias(e.input()); }

void Embedding(OnnxEmit &e) { e.finish("Gather", {e.param("weight"), e.input()}, {A::integer("axis", 0)}); }

void ReLU(OnnxEmit &e) { unary(e, "Relu"); }
void LeakyReLU(OnnxEmit &e) { unary(e, "LeakyRelu", {A::real("alpha", getFloat(e.node().params, "negative_slope"))}); }
void Tanh(OnnxEmit &e) { unary(e, "Tanh"); }
void Sigmoid(OnnxEmit &e) { unary(e, "Sigmoid"); }

// Clip takes its bounds as inputs from opset 11 on; every opset the exporter writes is later.
void ReLU6(OnnxEmit &e) {
  e.finish("Clip", {e.input(), e.constant("min", torch::tensor(0.0f)), e.constant("max", torch::tensor(6.0f))});
}

// torch's hardsigmoid is relu6(x + 3) / 6: ONNX's HardSigmoid with alpha 1/6 and beta 1/2.
void Hardsigmoid(OnnxEmit &e) { unary(e, "HardSigmoid", {A::real("alpha", 1.0 / 6.0), A::real("beta", 0.5)}); }

// HardSwish arrived in opset 14; before it, x * HardSigmoid(x) is the operator's own definition.
void Hardswish(OnnxEmit &e) {
  if (e.opset() >= 14) {
    unary(e, "HardSwish");
    return;
  }
  const std::string gate =
      e.op("HardSigmoid", {e.input()}, "gate", {A::real("alpha", 1.0 / 6.0), A::real("beta", 0.5)});
  e.finish("Mul", {e.input(), gate});
}

void GELU(OnnxEmit &e) {
  e.alias(onnxGelu(e, e.input(), "gelu", spec::getString(e.node().params, "approximate") == "tanh"));
}

void SiLU(OnnxEmit &e) { e.finish("Mul", {e.input(), e.op("Sigmoid", {e.input()}, "sigmoid")}); }

void Softmax(OnnxEmit &e) { unary(e, "Softmax", {A::integer("axis", axis(getInt(e.node().params, "dim"), e.rank()))}); }
void LogSoftmax(OnnxEmit &e) {
  unary(e, "LogSoftmax", {A::integer("axis", axis(getInt(e.node().params, "dim"), e.rank()))});
}

void MaxPool2d(OnnxEmit &e) {
  const auto &p = e.node().params;
  const auto kernel = pairParam(p, "kernel_size"), stride = poolStrideParam(p), dilation = pairParam(p, "dilation");
  std::vector<int64_t> extra;
  const auto pads = poolPads(e, kernel, stride, pairParam(p, "padding"), dilation, getBool(p, "ceil_mode"), extra);
  unary(e, "MaxPool",
        {A::list("kernel_shape", kernel), A::list("strides", stride), A::list("pads", pads),
         A::list("dilations", dilation)});
}

void AvgPool2d(OnnxEmit &e) {
  const auto &p = e.node().params;
  const auto kernel = pairParam(p, "kernel_size"), stride = poolStrideParam(p);
  const bool countPad = getBool(p, "count_include_pad");
  std::vector<int64_t> extra;
  const auto pads = poolPads(e, kernel, stride, pairParam(p, "padding"), {1, 1}, getBool(p, "ceil_mode"), extra);
  if (countPad && (extra[0] > 0 || extra[1] > 0)) {
    e.fail("ceil_mode with count_include_pad makes windows that overhang the padding, which torch divides by the "
           "padded window and ONNX's AveragePool by the whole window; set count_include_pad: false or ceil_mode: "
           "false to export this model");
  }
  unary(e, "AveragePool",
        {A::list("kernel_shape", kernel), A::list("strides", stride), A::list("pads", pads),
         A::integer("count_include_pad", countPad ? 1 : 0)});
}

// Equal windows are one AveragePool. Unequal ones (9 rows into 2) are torch's windows
// [floor(i*H/oh), ceil((i+1)*H/oh)) written out: a window's mean is the mean over its columns of
// the mean over its rows, so the rows are pooled band by band, then the columns.
void AdaptiveAvgPool2d(OnnxEmit &e) {
  const std::vector<int64_t> out = pairParam(e.node().params, "output_size");
  const std::vector<int64_t> &in = e.node().inputShapes.at(0);
  const int64_t h = in[in.size() - 2], w = in[in.size() - 1];
  if (out[0] == 1 && out[1] == 1) {
    unary(e, "GlobalAveragePool");
    return;
  }
  if (h % out[0] == 0 && w % out[1] == 0) {
    const std::vector<int64_t> kernel{h / out[0], w / out[1]};
    unary(e, "AveragePool", {A::list("kernel_shape", kernel), A::list("strides", kernel)});
    return;
  }
  std::string x = e.input();
  const int64_t rank = e.rank();
  for (int dim = 0; dim < 2; ++dim) {
    const int64_t size = dim == 0 ? h : w, cells = out[dim], ax = rank - 2 + dim;
    const std::string name = dim == 0 ? "rows" : "cols";
    std::vector<std::string> bands;
    for (int64_t i = 0; i < cells; ++i) {
      const int64_t start = i * size / cells, end = ((i + 1) * size + cells - 1) / cells;
      const std::string tag = name + std::to_string(i);
      const std::string band = e.op("Slice", {x, e.ints(tag + "/start", {start}), e.ints(tag + "/end", {end}),
                                              e.ints(tag + "/axis", {ax})}, tag + "/slice");
      bands.push_back(e.op("ReduceMean", {band}, tag, {A::list("axes", {ax}), A::integer("keepdims", 1)}));
    }
    x = e.op("Concat", bands, name, {A::integer("axis", ax)});
  }
  e.alias(x);
}

void Flatten(OnnxEmit &e) { e.finish("Reshape", {e.input(), e.ints("shape", batchShape(e.node().outputShape))}); }

void Add(OnnxEmit &e) {
  if (e.inputs().size() == 1) {
    e.alias(e.input());
  } else if (e.inputs().size() == 2) {
    e.finish("Add", e.inputs());
  } else {
    e.finish("Sum", e.inputs());
  }
}

void Mul(OnnxEmit &e) { e.finish("Mul", e.inputs()); }

void Concat(OnnxEmit &e) {
  e.finish("Concat", e.inputs(), {A::integer("axis", axis(getInt(e.node().params, "dim"), e.rank()))});
}

void Transpose(OnnxEmit &e) {
  const auto &p = e.node().params;
  std::vector<int64_t> perm(static_cast<size_t>(e.rank()));
  for (size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<int64_t>(i);
  std::swap(perm[axis(getInt(p, "dim0"), e.rank())], perm[axis(getInt(p, "dim1"), e.rank())]);
  unary(e, "Transpose", {A::list("perm", perm)});
}

void Permute(OnnxEmit &e) {
  std::vector<int64_t> dims = spec::getInts(e.node().params, "dims");
  if (dims.size() == e.node().inputShapes.at(0).size()) dims.insert(dims.begin(), 0);
  for (int64_t &d : dims) d = axis(d, e.rank());
  unary(e, "Transpose", {A::list("perm", dims)});
}

namespace {

void reduce(OnnxEmit &e, const std::string &type) {
  const auto &p = e.node().params;
  const int64_t a = axis(getInt(p, "dim"), e.rank());
  const int64_t keep = getBool(p, "keepdim") ? 1 : 0;
  if (type == "ReduceSum") {  // axes became an input in opset 13
    e.finish(type, {e.input(), e.ints("axes", {a})}, {A::integer("keepdims", keep)});
  } else {
    unary(e, type, {A::list("axes", {a}), A::integer("keepdims", keep)});
  }
}

}  // namespace

void Max(OnnxEmit &e) { reduce(e, "ReduceMax"); }
void Mean(OnnxEmit &e) { reduce(e, "ReduceMean"); }
void Sum(OnnxEmit &e) { reduce(e, "ReduceSum"); }

// Reshape, Transpose, Reshape, as torch.onnx writes torch.nn.ChannelShuffle (a 0 copies the batch).
void ChannelShuffle(OnnxEmit &e) {
  const std::vector<int64_t> &in = e.node().inputShapes.at(0);
  const int64_t groups = getInt(e.node().params, "groups");
  std::vector<int64_t> split{0, groups, in[0] / groups}, perm{0, 2, 1};
  for (size_t i = 1; i < in.size(); ++i) {
    split.push_back(in[i]);
    perm.push_back(static_cast<int64_t>(i) + 2);
  }
  const std::string grouped = e.op("Reshape", {e.input(), e.ints("groups_shape", split)}, "grouped");
  const std::string swapped = e.op("Transpose", {grouped}, "swapped", {A::list("perm", perm)});
  e.finish("Reshape", {swapped, e.ints("shape", batchShape(in))});
}

void Slice(OnnxEmit &e) {
  const auto &p = e.node().params;
  e.finish("Slice", {e.input(), e.ints("starts", {getInt(p, "start")}), e.ints("ends", {getInt(p, "end")}),
                     e.ints("axes", {axis(getInt(p, "dim"), e.rank())})});
}

}  // namespace tw::engine::onnx_ops
