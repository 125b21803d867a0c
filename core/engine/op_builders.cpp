#include "core/engine/op_builders.h"

#include "core/engine/export/onnx_emitters.h"
#include "core/engine/export/torchscript_emitters.h"
#include "core/engine/import/onnx_mappers.h"
#include "core/engine/node_params.h"
#include "core/engine/sequence_builders.h"
#include "core/spec/param.h"

#include <map>
#include <stdexcept>

namespace tw::engine {

namespace {

using spec::getBool;
using spec::getFloat;
using spec::getInt;
using spec::getInts;
using spec::getString;
using spec::NodeInfo;

torch::ExpandingArray<2> pair(const spec::ParamMap &params, const std::string &name) {
  const std::vector<int64_t> v = pairParam(params, name);
  return torch::ExpandingArray<2>({v[0], v[1]});
}

torch::ExpandingArray<2> poolStride(const spec::ParamMap &params) {
  const std::vector<int64_t> v = poolStrideParam(params);
  return torch::ExpandingArray<2>({v[0], v[1]});
}

// A forward that applies one module to the node's single input.
template <typename Holder>
BuiltOp unary(Holder holder) {
  BuiltOp op;
  op.module = holder.ptr();
  op.forward = [holder](const std::vector<torch::Tensor> &in) mutable { return holder->forward(in[0]); };
  return op;
}

BuiltOp stateless(std::function<torch::Tensor(const torch::Tensor &)> fn) {
  BuiltOp op;
  op.forward = [fn = std::move(fn)](const std::vector<torch::Tensor> &in) { return fn(in[0]); };
  return op;
}

BuiltOp buildInput(const NodeInfo &node) {
  const spec::IntList shape = getInts(node.params, "shape");
  const bool integer = spec::has(node.params, "dtype") && getString(node.params, "dtype") == "int64";
  const torch::ScalarType dtype = integer ? torch::kLong : torch::kFloat;
  const std::string id = node.id;
  BuiltOp op;
  op.forward = [shape, dtype, id](const std::vector<torch::Tensor> &in) {
    const torch::Tensor &x = in[0];
    bool matches = x.dim() == static_cast<int64_t>(shape.size()) + 1;
    for (size_t i = 0; matches && i < shape.size(); ++i) matches = x.size(i + 1) == shape[i];
    if (!matches) {
      throw std::runtime_error("input '" + id + "': expected " + spec::formatShape(shape, true) +
                               ", got " + spec::formatShape(x.sizes().vec()));
    }
    return x.scalar_type() == dtype ? x : x.to(dtype);
  };
  return op;
}

BuiltOp buildLinear(const NodeInfo &node) {
  return unary(torch::nn::Linear(
      torch::nn::LinearOptions(getInt(node.params, "in_features"), getInt(node.params, "out_features"))
          .bias(getBool(node.params, "bias"))));
}

BuiltOp buildConv1d(const NodeInfo &node) {
  const auto &p = node.params;
  return unary(torch::nn::Conv1d(
      torch::nn::Conv1dOptions(getInt(p, "in_channels"), getInt(p, "out_channels"), getInt(p, "kernel_size"))
          .stride(getInt(p, "stride"))
          .padding(torch::ExpandingArray<1>(getInt(p, "padding")))
          .dilation(getInt(p, "dilation"))
          .groups(getInt(p, "groups"))
          .bias(getBool(p, "bias"))));
}

BuiltOp buildConv2d(const NodeInfo &node) {
  const auto &p = node.params;
  return unary(torch::nn::Conv2d(
      torch::nn::Conv2dOptions(getInt(p, "in_channels"), getInt(p, "out_channels"), pair(p, "kernel_size"))
          .stride(pair(p, "stride"))
          .padding(pair(p, "padding"))
          .dilation(pair(p, "dilation"))
          .groups(getInt(p, "groups"))
          .bias(getBool(p, "bias"))));
}

template <typename Module, typename Options>
BuiltOp buildBatchNorm(const NodeInfo &node) {
  const auto &p = node.params;
  return unary(Module(Options(getInt(p, "num_features"))
                          .eps(getFloat(p, "eps"))
                          .momentum(getFloat(p, "momentum"))
                          .affine(getBool(p, "affine"))));
}

BuiltOp buildLayerNorm(const NodeInfo &node) {
  const auto &p = node.params;
  return unary(torch::nn::LayerNorm(torch::nn::LayerNormOptions({getInt(p, "normalized_shape")})
                                        .eps(getFloat(p, "eps"))
                                        .elementwise_affine(getBool(p, "elementwise_affine"))));
}

BuiltOp buildDropout(const NodeInfo &node) {
  return unary(torch::nn::Dropout(torch::nn::DropoutOptions(getFloat(node.params, "p"))));
}

BuiltOp buildEmbedding(const NodeInfo &node) {
  return unary(torch::nn::Embedding(
      torch::nn::EmbeddingOptions(getInt(node.params, "num_embeddings"), getInt(node.params, "embedding_dim"))));
}

BuiltOp buildReLU(const NodeInfo &) {
  return stateless([](const torch::Tensor &x) { return torch::relu(x); });
}

BuiltOp buildLeakyReLU(const NodeInfo &node) {
  const double slope = getFloat(node.params, "negative_slope");
  return stateless([slope](const torch::Tensor &x) { return torch::leaky_relu(x, slope); });
}

BuiltOp buildGELU(const NodeInfo &node) {
  const std::string approximate = getString(node.params, "approximate");
  return stateless([approximate](const torch::Tensor &x) { return torch::gelu(x, approximate); });
}

BuiltOp buildSiLU(const NodeInfo &) {
  return stateless([](const torch::Tensor &x) { return torch::silu(x); });
}

BuiltOp buildTanh(const NodeInfo &) {
  return stateless([](const torch::Tensor &x) { return torch::tanh(x); });
}

BuiltOp buildSigmoid(const NodeInfo &) {
  return stateless([](const torch::Tensor &x) { return torch::sigmoid(x); });
}

BuiltOp buildReLU6(const NodeInfo &) {
  return stateless([](const torch::Tensor &x) { return torch::hardtanh(x, 0.0, 6.0); });
}

BuiltOp buildHardsigmoid(const NodeInfo &) {
  return stateless([](const torch::Tensor &x) { return torch::hardsigmoid(x); });
}

BuiltOp buildHardswish(const NodeInfo &) {
  return stateless([](const torch::Tensor &x) { return torch::hardswish(x); });
}

BuiltOp buildMaxPool2d(const NodeInfo &node) {
  const auto &p = node.params;
  const auto kernel = pair(p, "kernel_size"), stride = poolStride(p), padding = pair(p, "padding"),
             dilation = pair(p, "dilation");
  const bool ceil = getBool(p, "ceil_mode");
  return stateless([=](const torch::Tensor &x) {
    return torch::max_pool2d(x, kernel, stride, padding, dilation, ceil);
  });
}

BuiltOp buildAvgPool2d(const NodeInfo &node) {
  const auto &p = node.params;
  const auto kernel = pair(p, "kernel_size"), stride = poolStride(p), padding = pair(p, "padding");
  const bool ceil = getBool(p, "ceil_mode"), countPad = getBool(p, "count_include_pad");
  return stateless([=](const torch::Tensor &x) {
    return torch::avg_pool2d(x, kernel, stride, padding, ceil, countPad);
  });
}

BuiltOp buildAdaptiveAvgPool2d(const NodeInfo &node) {
  const auto size = pair(node.params, "output_size");
  return stateless([size](const torch::Tensor &x) { return torch::adaptive_avg_pool2d(x, size); });
}

BuiltOp buildFlatten(const NodeInfo &node) {
  const int64_t start = getInt(node.params, "start_dim"), end = getInt(node.params, "end_dim");
  return stateless([start, end](const torch::Tensor &x) { return torch::flatten(x, start, end); });
}

BuiltOp buildSoftmax(const NodeInfo &node) {
  const int64_t dim = getInt(node.params, "dim");
  return stateless([dim](const torch::Tensor &x) { return torch::softmax(x, dim); });
}

BuiltOp buildLogSoftmax(const NodeInfo &node) {
  const int64_t dim = getInt(node.params, "dim");
  return stateless([dim](const torch::Tensor &x) { return torch::log_softmax(x, dim); });
}

// The dims are the ones analysis checked (torch numbering, negatives allowed), so torch resolves
// them exactly as the shape rule did.
BuiltOp buildTranspose(const NodeInfo &node) {
  const int64_t a = getInt(node.params, "dim0"), b = getInt(node.params, "dim1");
  return stateless([a, b](const torch::Tensor &x) { return x.transpose(a, b); });
}

BuiltOp buildPermute(const NodeInfo &node) {
  std::vector<int64_t> dims = getInts(node.params, "dims");
  // Without the batch's leading 0 (the short form), put it back: the batch stays first.
  if (dims.size() == node.inputShapes.at(0).size()) dims.insert(dims.begin(), 0);
  return stateless([dims](const torch::Tensor &x) { return x.permute(dims); });
}

// Max, Mean and Sum: `reduce(x, dim, keepdim)` with the node's two parameters.
template <typename Reduce>
BuiltOp reduction(const NodeInfo &node, Reduce reduce) {
  const int64_t dim = getInt(node.params, "dim");
  const bool keep = getBool(node.params, "keepdim");
  return stateless([dim, keep, reduce](const torch::Tensor &x) { return reduce(x, dim, keep); });
}

BuiltOp buildMax(const NodeInfo &node) {
  // torch.max(x, dim) also returns the indices; the node's value is the maxima.
  return reduction(node, [](const torch::Tensor &x, int64_t d, bool k) { return std::get<0>(x.max(d, k)); });
}

BuiltOp buildMean(const NodeInfo &node) {
  return reduction(node, [](const torch::Tensor &x, int64_t d, bool k) { return x.mean(d, k); });
}

BuiltOp buildSum(const NodeInfo &node) {
  return reduction(node, [](const torch::Tensor &x, int64_t d, bool k) { return x.sum(d, k); });
}

// [N, C, ...] as [N, groups, C / groups, ...], the two swapped, merged back (torch.nn.ChannelShuffle).
BuiltOp buildChannelShuffle(const NodeInfo &node) {
  const int64_t groups = getInt(node.params, "groups");
  return stateless([groups](const torch::Tensor &x) {
    std::vector<int64_t> split{x.size(0), groups, x.size(1) / groups};
    for (int64_t d = 2; d < x.dim(); ++d) split.push_back(x.size(d));
    return x.reshape(split).transpose(1, 2).reshape(x.sizes());
  });
}

BuiltOp buildSlice(const NodeInfo &node) {
  const int64_t dim = getInt(node.params, "dim"), start = getInt(node.params, "start"), end = getInt(node.params, "end");
  return stateless([dim, start, end](const torch::Tensor &x) { return x.narrow(dim, start, end - start); });
}

BuiltOp buildAdd(const NodeInfo &) {
  BuiltOp op;
  op.forward = [](const std::vector<torch::Tensor> &in) {
    if (in.size() == 1) return in[0];
    torch::Tensor sum = in[0] + in[1];  // a fresh tensor, so the in-place adds below touch no input
    for (size_t i = 2; i < in.size(); ++i) sum.add_(in[i]);
    return sum;
  };
  return op;
}

// The shape rule allows only dimensions of 1 to differ, which torch broadcasts as ONNX does.
BuiltOp buildMul(const NodeInfo &) {
  BuiltOp op;
  op.forward = [](const std::vector<torch::Tensor> &in) { return in[0] * in[1]; };
  return op;
}

BuiltOp buildConcat(const NodeInfo &node) {
  const int64_t dim = getInt(node.params, "dim");
  BuiltOp op;
  op.forward = [dim](const std::vector<torch::Tensor> &in) { return torch::cat(in, dim); };
  return op;
}

namespace im = onnx_import;

// The op table: every registry op's builder, its emitters and the ONNX operators imported as it,
// one row each.
const std::map<std::string, OpEntry> &table() {
  static const std::map<std::string, OpEntry> ops = {
      {"Input", {buildInput, ts::Input, onnx_ops::Input}},
      {"Linear", {buildLinear, ts::Linear, onnx_ops::Linear, {{"Gemm", im::Gemm}, {"MatMul", im::MatMul}}}},
      {"Conv1d", {buildConv1d, ts::Conv1d, onnx_ops::Conv1d}},
      {"Conv2d", {buildConv2d, ts::Conv2d, onnx_ops::Conv2d, {{"Conv", im::Conv}}}},
      {"BatchNorm1d", {buildBatchNorm<torch::nn::BatchNorm1d, torch::nn::BatchNorm1dOptions>, ts::BatchNorm, onnx_ops::BatchNorm}},
      {"BatchNorm2d", {buildBatchNorm<torch::nn::BatchNorm2d, torch::nn::BatchNorm2dOptions>, ts::BatchNorm, onnx_ops::BatchNorm, {{"BatchNormalization", im::BatchNormalization}}}},
      {"LayerNorm", {buildLayerNorm, ts::LayerNorm, onnx_ops::LayerNorm, {{"LayerNormalization", im::LayerNormalization}, {"Pow", im::mappers::powNode}, {"Sqrt", im::mappers::sqrtNode}}}},
      {"Dropout", {buildDropout, ts::Identity, onnx_ops::Identity}},
      {"Embedding", {buildEmbedding, ts::Embedding, onnx_ops::Embedding}},
      {"ReLU", {buildReLU, ts::ReLU, onnx_ops::ReLU, {{"Relu", im::mappers::relu}}}},
      {"LeakyReLU", {buildLeakyReLU, ts::LeakyReLU, onnx_ops::LeakyReLU, {{"LeakyRelu", im::mappers::leakyRelu}}}},
      {"GELU", {buildGELU, ts::GELU, onnx_ops::GELU, {{"Erf", im::mappers::erfNode}}}},
      {"SiLU", {buildSiLU, ts::SiLU, onnx_ops::SiLU}},
      {"Tanh", {buildTanh, ts::Tanh, onnx_ops::Tanh, {{"Tanh", im::mappers::tanh}}}},
      {"Sigmoid", {buildSigmoid, ts::Sigmoid, onnx_ops::Sigmoid, {{"Sigmoid", im::mappers::sigmoid}}}},
      {"ReLU6", {buildReLU6, ts::ReLU6, onnx_ops::ReLU6, {{"Clip", im::mappers::clip}}}},
      {"Hardsigmoid", {buildHardsigmoid, ts::Hardsigmoid, onnx_ops::Hardsigmoid, {{"HardSigmoid", im::mappers::hardSigmoid}}}},
      {"Hardswish", {buildHardswish, ts::Hardswish, onnx_ops::Hardswish, {{"HardSwish", im::mappers::hardSwish}}}},
      {"MaxPool2d", {buildMaxPool2d, ts::MaxPool2d, onnx_ops::MaxPool2d, {{"MaxPool", im::MaxPool}}}},
      {"AvgPool2d", {buildAvgPool2d, ts::AvgPool2d, onnx_ops::AvgPool2d, {{"AveragePool", im::AveragePool}}}},
      {"AdaptiveAvgPool2d", {buildAdaptiveAvgPool2d, ts::AdaptiveAvgPool2d, onnx_ops::AdaptiveAvgPool2d, {{"GlobalAveragePool", im::GlobalAveragePool}}}},
      {"Flatten", {buildFlatten, ts::Flatten, onnx_ops::Flatten, {{"Flatten", im::mappers::flatten}}}},
      {"Softmax", {buildSoftmax, ts::Softmax, onnx_ops::Softmax, {{"Softmax", im::mappers::softmaxNode}}}},
      {"LogSoftmax", {buildLogSoftmax, ts::LogSoftmax, onnx_ops::LogSoftmax, {{"LogSoftmax", im::mappers::logSoftmax}}}},
      {"Add", {buildAdd, ts::Add, onnx_ops::Add, {{"Add", im::mappers::add}, {"Sum", im::mappers::sum}}}},
      {"Mul", {buildMul, ts::Mul, onnx_ops::Mul, {{"Mul", im::mappers::mul}}}},
      {"Concat", {buildConcat, ts::Concat, onnx_ops::Concat, {{"Concat", im::mappers::concat}}}},
      {"Reshape", {buildReshape, ts::Reshape, onnx_ops::Reshape, {{"Reshape", im::mappers::reshape}}}},
      {"PositionalEmbedding", {buildPositionalEmbedding, ts::PositionalEmbedding, onnx_ops::PositionalEmbedding}},
      {"MultiheadAttention", {buildMultiheadAttention, ts::MultiheadAttention, onnx_ops::MultiheadAttention}},
      {"TransformerEncoderLayer", {buildTransformerEncoderLayer, ts::TransformerEncoderLayer, onnx_ops::TransformerEncoderLayer}},
      {"SequenceMean", {buildSequenceMean, ts::SequenceMean, onnx_ops::SequenceMean}},
      {"Transpose", {buildTranspose, ts::Transpose, onnx_ops::Transpose, {{"Transpose", im::Transpose}}}},
      {"Permute", {buildPermute, ts::Permute, onnx_ops::Permute}},
      {"Max", {buildMax, ts::Max, onnx_ops::Max}},
      {"Mean", {buildMean, ts::Mean, onnx_ops::Mean, {{"ReduceMean", im::ReduceMean}}}},
      {"Sum", {buildSum, ts::Sum, onnx_ops::Sum}},
      {"ChannelShuffle", {buildChannelShuffle, ts::ChannelShuffle, onnx_ops::ChannelShuffle}},
      {"Slice", {buildSlice, ts::Slice, onnx_ops::Slice, {{"Slice", im::Slice}, {"Split", im::Split}}}},
  };
  return ops;
}

}  // namespace

const std::map<std::string, OpEntry> &opTable() { return table(); }

const OpEntry *findOp(const std::string &op) {
  auto it = table().find(op);
  return it == table().end() ? nullptr : &it->second;
}

OpBuilder findOpBuilder(const std::string &op) {
  const OpEntry *entry = findOp(op);
  return entry ? entry->build : nullptr;
}

}  // namespace tw::engine
