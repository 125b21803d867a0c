// The mappers for layers with weights and for pooling: Conv, BatchNormalization, LayerNormalization, Gemm, MatMul,
// MaxPool, AveragePool, GlobalAveragePool. Their initializers become the registry node's LibTorch
// tensors ("weight", "bias", "running_mean", "running_var").
#include "core/engine/import/onnx_mappers.h"

#include <optional>

namespace tw::engine::onnx_import {

namespace {

const char *dimName(size_t i, size_t spatial) {
  static const char *names2[] = {"H", "W"};
  return spatial == 2 ? names2[i] : "L";
}

// The ONNX window of a convolution or pooling node as symmetric padding per spatial dimension.
// auto_pad SAME pads so that the output is ceil(size / stride); the registry pads both sides
// equally, so an odd total (or written pads that differ) is refused with the values.
std::vector<int64_t> symmetricPads(NodeImport &n, const spec::Shape &in, const std::vector<int64_t> &kernel,
                                   const std::vector<int64_t> &stride, const std::vector<int64_t> &dilation) {
  const size_t spatial = kernel.size();
  const std::string autoPad = n.attrString("auto_pad", "NOTSET");
  std::vector<int64_t> pads(2 * spatial, 0);
  if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    for (size_t i = 0; i < spatial; ++i) {
      const int64_t size = in[in.size() - spatial + i];
      const int64_t out = (size + stride[i] - 1) / stride[i];
      const int64_t total = std::max<int64_t>(0, (out - 1) * stride[i] + (kernel[i] - 1) * dilation[i] + 1 - size);
      const int64_t small = total / 2, large = total - small;
      pads[i] = autoPad == "SAME_UPPER" ? small : large;
      pads[i + spatial] = autoPad == "SAME_UPPER" ? large : small;
    }
  } else if (autoPad == "NOTSET" || autoPad.empty()) {
    pads = n.attrInts("pads", pads);
    if (pads.size() != 2 * spatial) n.refuse("pads has " + std::to_string(pads.size()) + " values, expected " + std::to_string(2 * spatial));
  } else if (autoPad != "VALID") {
    n.refuse("auto_pad '" + autoPad + "' is not an ONNX padding mode");
  }
  std::vector<int64_t> out(spatial);
  for (size_t i = 0; i < spatial; ++i) {
    if (pads[i] != pads[i + spatial]) {
      n.refuse("pads " + intsText(pads) + " pad " + dimName(i, spatial) + " by " + std::to_string(pads[i]) +
               " before and " + std::to_string(pads[i + spatial]) +
               " after; the registry's layers pad both sides equally (asymmetric padding is not imported)");
    }
    out[i] = pads[i];
  }
  return out;
}

spec::ParamValue spatialValue(const std::vector<int64_t> &v) {
  return v.size() == 1 ? spec::ParamValue(v[0]) : spec::ParamValue(spec::IntList(v));
}

std::vector<int64_t> ones(size_t n) { return std::vector<int64_t>(n, 1); }

// A window attribute (kernel_shape, strides, dilations): one positive value per spatial
// dimension, checked before any window arithmetic reads or divides by it.
std::vector<int64_t> windowInts(NodeImport &n, const std::string &name, size_t spatial,
                                std::optional<std::vector<int64_t>> fallback = std::nullopt) {
  const std::vector<int64_t> v = fallback ? n.attrInts(name, *fallback) : n.attrInts(name);
  if (v.size() != spatial)
    n.refuse(name + " has " + std::to_string(v.size()) + " values, expected " + std::to_string(spatial));
  for (int64_t x : v)
    if (x < 1) n.refuse(name + " " + intsText(v) + " has a value below 1");
  return v;
}

}  // namespace

void Conv(NodeImport &n) {
  const ImportValue &x = n.activation(0, "the input X");
  const torch::Tensor &w = n.constant(1, "the weight W");
  const size_t spatial = x.shape.size() - 1;
  if (spatial != 1 && spatial != 2)
    n.refuse("a " + std::to_string(spatial) + "-D convolution over " + spec::formatShape(x.shape, true) +
             "; the registry has Conv1d and Conv2d");
  if (w.dim() != static_cast<int64_t>(spatial) + 2) n.refuse("its weight W has " + std::to_string(w.dim()) + " dimensions");
  const int64_t groups = n.attrInt("group", 1);
  std::vector<int64_t> kernel(w.sizes().begin() + 2, w.sizes().end());
  if (n.hasAttr("kernel_shape") && n.attrInts("kernel_shape") != kernel)
    n.refuse("kernel_shape " + intsText(n.attrInts("kernel_shape")) + " differs from its weight's " + intsText(kernel));
  if (w.size(1) * groups != x.shape[0]) {
    n.refuse("its weight takes " + std::to_string(w.size(1)) + " x " + std::to_string(groups) + " groups channels, the input has " +
             std::to_string(x.shape[0]));
  }
  const std::vector<int64_t> stride = windowInts(n, "strides", spatial, ones(spatial));
  const std::vector<int64_t> dilation = windowInts(n, "dilations", spatial, ones(spatial));
  const std::vector<int64_t> padding = symmetricPads(n, x.shape, kernel, stride, dilation);
  spec::ParamMap p{{"out_channels", w.size(0)},
                   {"kernel_size", spatialValue(kernel)},
                   {"stride", spatialValue(stride)},
                   {"padding", spatialValue(padding)},
                   {"dilation", spatialValue(dilation)},
                   {"groups", groups},
                   {"bias", n.hasInput(2)}};
  std::map<std::string, torch::Tensor> tensors{{"weight", w}};
  if (n.hasInput(2)) tensors["bias"] = n.constant(2, "the bias B");
  n.add(spatial == 2 ? "Conv2d" : "Conv1d", std::move(p), {x.node}, std::move(tensors), n.inputName(1));
}

// Kept as a BatchNorm node with its running statistics (folding it into the convolution before it
// would be exact too, but the designer should show the network as it was built, and a frozen or
// fine-tuned BatchNorm needs its statistics). ONNX's momentum weighs the running value; torch's
// weighs the batch.
void BatchNormalization(NodeImport &n) {
  const ImportValue &x = n.activation(0, "the input X");
  if (n.attrInt("training_mode", 0) != 0) n.refuse("training_mode 1: it normalises with the batch's statistics");
  for (size_t k = 1; k < 3; ++k)
    if (n.readers(k) > 0) n.refuse("its running statistics outputs are read (a training graph)");
  const size_t rank = x.shape.size() + 1;
  if (rank != 2 && rank != 3 && rank != 4)
    n.refuse("a batch norm over " + spec::formatShape(x.shape, true) + "; the registry has BatchNorm1d and BatchNorm2d");
  const float momentum = n.attrFloat("momentum", 0.9f);
  std::map<std::string, torch::Tensor> tensors{{"weight", n.constant(1, "the scale")},
                                               {"bias", n.constant(2, "the bias B")},
                                               {"running_mean", n.constant(3, "the mean")},
                                               {"running_var", n.constant(4, "the variance")}};
  for (const auto &[name, t] : tensors)
    if (t.numel() != x.shape[0]) n.refuse("its " + name + " has " + std::to_string(t.numel()) + " values for " + std::to_string(x.shape[0]) + " channels");
  n.add(rank == 4 ? "BatchNorm2d" : "BatchNorm1d",
        {{"eps", tidyFloat(n.attrFloat("epsilon", 1e-5f))},
         {"momentum", tidyFloat(static_cast<float>(1.0 - tidyFloat(momentum)))}},
        {x.node}, std::move(tensors), n.inputName(1));
}

// Opset 17's LayerNormalization over the last axis: LayerNorm with the scale as its weight and
// the bias (zeros when absent) as its bias. Normalising several trailing axes is refused: the
// registry's LayerNorm normalises the last one.
void LayerNormalization(NodeImport &n) {
  const ImportValue &x = n.activation(0, "the input X");
  for (size_t k = 1; k < 3; ++k)
    if (n.readers(k) > 0) n.refuse("its Mean or InvStdDev output is read (a training graph)");
  const int64_t rank = static_cast<int64_t>(x.shape.size()) + 1;
  const int64_t axis = axisOf(n, n.attrInt("axis", -1), rank, "axis");
  if (axis == 0) n.refuse("it normalises over the batch (axis 0)");
  if (axis != rank - 1)
    n.refuse("axis " + std::to_string(axis) + " normalises the last " + std::to_string(rank - axis) +
             " axes together; the registry's LayerNorm normalises the last axis only");
  const int64_t features = x.shape.back();
  const torch::Tensor &scale = n.constant(1, "the scale");
  if (scale.numel() != features)
    n.refuse("its scale has " + std::to_string(scale.numel()) + " values for " + std::to_string(features) + " features");
  torch::Tensor bias = torch::zeros({features});
  if (n.hasInput(2)) {
    bias = n.constant(2, "the bias B");
    if (bias.numel() != features)
      n.refuse("its bias has " + std::to_string(bias.numel()) + " values for " + std::to_string(features) + " features");
  }
  n.add("LayerNorm", {{"eps", tidyFloat(n.attrFloat("epsilon", 1e-5f))}}, {x.node},
        {{"weight", scale.reshape({features})}, {"bias", bias.reshape({features})}}, n.inputName(1));
}

// Y = alpha * A B' + beta * C, with B' = B or its transpose: Linear with weight alpha * B' as
// [out, in] and bias beta * C.
void Gemm(NodeImport &n) {
  const ImportValue &a = n.activation(0, "the input A");
  if (a.shape.size() != 1) n.refuse("its input A is " + spec::formatShape(a.shape, true) + "; Gemm takes [N, K]");
  if (n.attrInt("transA", 0) != 0) n.refuse("transA 1 transposes the batch into the features");
  const torch::Tensor &b = n.constant(1, "the weight B");
  if (b.dim() != 2) n.refuse("its weight B has " + std::to_string(b.dim()) + " dimensions");
  const float alpha = n.attrFloat("alpha", 1.0f), beta = n.attrFloat("beta", 1.0f);
  torch::Tensor weight = (n.attrInt("transB", 0) != 0 ? b : b.t()) * alpha;
  const int64_t out = weight.size(0);
  if (weight.size(1) != a.shape[0])
    n.refuse("its weight takes " + std::to_string(weight.size(1)) + " features, the input has " + std::to_string(a.shape[0]));
  std::map<std::string, torch::Tensor> tensors{{"weight", weight}};
  if (n.hasInput(2)) {
    const torch::Tensor &c = n.constant(2, "the bias C");
    if (c.numel() == out) tensors["bias"] = c.reshape({out}) * beta;
    else if (c.numel() == 1) tensors["bias"] = c.reshape({1}).expand({out}) * beta;
    else n.refuse("its bias C has shape [" + intsText(c.sizes().vec()) + "]; Linear's bias is one value per output");
  }
  const bool bias = tensors.count("bias") > 0;
  n.add("Linear", {{"out_features", out}, {"bias", bias}}, {a.node}, std::move(tensors), n.inputName(1));
}

// x W with a constant W of [in, out] is Linear without bias; an Add of a constant after it folds
// in as the bias (onnx_mappers.cpp).
void MatMul(NodeImport &n) {
  const ImportValue &a = n.activation(0, "the input A");
  if (!n.input(1).constant()) n.refuse("it multiplies two computed values; the registry's Linear needs a constant weight");
  const torch::Tensor &b = n.constant(1, "the weight B");
  if (b.dim() != 2) n.refuse("its weight B has " + std::to_string(b.dim()) + " dimensions; Linear's has 2");
  if (b.size(0) != a.shape.back())
    n.refuse("its weight takes " + std::to_string(b.size(0)) + " features, the input has " + std::to_string(a.shape.back()));
  n.add("Linear", {{"out_features", b.size(1)}, {"bias", false}}, {a.node}, {{"weight", b.t()}}, n.inputName(1));
}

namespace {

struct Window {
  std::vector<int64_t> kernel, stride, padding, dilation;
  bool ceil = false;
};

// Pooling over [N, C, H, W] only; the output size must be the one torch computes (in ceil mode
// torch drops a last window that would start in the padding, ONNX up to opset 18 does not).
Window poolWindow(NodeImport &n, const ImportValue &x, bool dilations) {
  if (x.shape.size() != 3) n.refuse("pooling over " + spec::formatShape(x.shape, true) + "; the registry pools [N, C, H, W]");
  Window w;
  w.kernel = windowInts(n, "kernel_shape", 2);
  w.stride = windowInts(n, "strides", 2, ones(2));
  w.dilation = dilations ? windowInts(n, "dilations", 2, ones(2)) : ones(2);
  w.ceil = n.attrInt("ceil_mode", 0) != 0;
  w.padding = symmetricPads(n, x.shape, w.kernel, w.stride, w.dilation);
  for (size_t i = 0; i < 2 && w.ceil; ++i) {
    const int64_t size = x.shape[1 + i], span = (w.kernel[i] - 1) * w.dilation[i] + 1;
    const int64_t out = (size + 2 * w.padding[i] - span + w.stride[i] - 1) / w.stride[i] + 1;
    if ((out - 1) * w.stride[i] >= size + w.padding[i]) {
      n.refuse("in ceil mode its last window along " + std::string(dimName(i, 2)) +
               " starts in the padding, which ONNX counts and torch drops: the output sizes differ");
    }
  }
  return w;
}

}  // namespace

void MaxPool(NodeImport &n) {
  const ImportValue &x = n.activation(0, "the input X");
  if (n.readers(1) > 0) n.refuse("its Indices output is read; the registry's MaxPool2d gives the maxima only");
  const Window w = poolWindow(n, x, true);
  n.add("MaxPool2d",
        {{"kernel_size", spec::IntList(w.kernel)},
         {"stride", spec::IntList(w.stride)},
         {"padding", spec::IntList(w.padding)},
         {"dilation", spec::IntList(w.dilation)},
         {"ceil_mode", w.ceil}},
        {x.node});
}

void AveragePool(NodeImport &n) {
  const ImportValue &x = n.activation(0, "the input X");
  const Window w = poolWindow(n, x, false);
  n.add("AvgPool2d",
        {{"kernel_size", spec::IntList(w.kernel)},
         {"stride", spec::IntList(w.stride)},
         {"padding", spec::IntList(w.padding)},
         {"ceil_mode", w.ceil},
         {"count_include_pad", n.attrInt("count_include_pad", 0) != 0}},
        {x.node});
}

void GlobalAveragePool(NodeImport &n) {
  const ImportValue &x = n.activation(0, "the input X");
  if (x.shape.size() != 3) n.refuse("global pooling over " + spec::formatShape(x.shape, true) + "; the registry pools [N, C, H, W]");
  n.add("AdaptiveAvgPool2d", {{"output_size", spec::IntList{1, 1}}}, {x.node});
}

}  // namespace tw::engine::onnx_import
