#pragma once
// One small model per registry op, with an input that suits it, and rows with the non-default
// parameters most likely to be mistranslated (into LibTorch options, TorchScript or ONNX). The
// registry test and the export tests walk the same table, so a new op needs one row here.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace tw::testing {

struct Case {
  std::string inputs;  // YAML node lines for the Input nodes (ids x, y)
  std::string node;    // the op node's YAML map without id/op, e.g. "out_features: 3"
  int64_t indexRange = 0;  // > 0: integer inputs drawn from [0, indexRange)
};

inline const std::string kImage = "  - {id: x, op: Input, shape: [4, 9, 9]}\n";
inline const std::string kTwoImages = kImage + "  - {id: y, op: Input, shape: [4, 9, 9]}\n";
inline const std::string kFeatures = "  - {id: x, op: Input, shape: [6]}\n";
inline const std::string kSequence = "  - {id: x, op: Input, shape: [4, 12]}\n";
// Differs from every dimension of the inputs above, so a batch/sequence mix-up changes a shape.
constexpr int64_t kBatch = 3;

// One row per registry op.
inline const std::map<std::string, Case> &defaultCases() {
  static const std::map<std::string, Case> cases = {
      {"Input", {kImage, ""}},
      {"Linear", {kFeatures, "out_features: 3"}},
      {"Conv1d", {kSequence, "out_channels: 5, kernel_size: 3"}},
      {"Conv2d", {kImage, "out_channels: 6, kernel_size: 3"}},
      {"BatchNorm1d", {kFeatures, ""}},
      {"BatchNorm2d", {kImage, ""}},
      {"LayerNorm", {kSequence, ""}},
      {"Dropout", {kFeatures, ""}},
      {"ReLU", {kImage, ""}},
      {"LeakyReLU", {kImage, ""}},
      {"GELU", {kFeatures, ""}},
      {"SiLU", {kFeatures, ""}},
      {"Tanh", {kFeatures, ""}},
      {"Sigmoid", {kFeatures, ""}},
      {"ReLU6", {kImage, ""}},
      {"Hardsigmoid", {kImage, ""}},
      {"Hardswish", {kImage, ""}},
      {"MaxPool2d", {kImage, "kernel_size: 2"}},
      {"AvgPool2d", {kImage, "kernel_size: 3"}},
      {"AdaptiveAvgPool2d", {kImage, "output_size: [2, 3]"}},
      {"Flatten", {kImage, ""}},
      {"Add", {kTwoImages, "inputs: [x, y]"}},
      {"Mul", {kTwoImages, "inputs: [x, y]"}},
      {"Concat", {kTwoImages, "inputs: [x, y]"}},
      {"Softmax", {kFeatures, ""}},
      {"LogSoftmax", {kFeatures, ""}},
      {"Embedding",
       {"  - {id: x, op: Input, shape: [7], dtype: int64}\n", "num_embeddings: 11, embedding_dim: 4", 11}},
      {"Reshape", {kImage, "shape: [-1, 9]"}},
      {"PositionalEmbedding", {kSequence, ""}},
      {"MultiheadAttention", {kSequence, "num_heads: 3"}},
      {"TransformerEncoderLayer", {kSequence, "nhead: 3, dim_feedforward: 20"}},
      {"SequenceMean", {kSequence, ""}},
      {"Transpose", {kSequence, ""}},
      {"Permute", {kImage, "dims: [3, 1, 2]"}},
      {"Max", {kSequence, ""}},
      {"Mean", {kImage, ""}},
      {"Sum", {kSequence, ""}},
      {"ChannelShuffle", {kImage, "groups: 2"}},
      {"Slice", {kImage, "end: 3"}},
  };
  return cases;
}

// Row name -> (op, case): non-default parameters.
inline const std::vector<std::pair<std::string, std::pair<std::string, Case>>> &extraCases() {
  static const std::vector<std::pair<std::string, std::pair<std::string, Case>>> rows = {
      {"Conv2d stride 2 padding 1 groups 2",
       {"Conv2d", {kImage, "out_channels: 6, kernel_size: [3, 2], stride: 2, padding: 1, groups: 2, bias: false"}}},
      {"Conv2d dilation 2", {"Conv2d", {kImage, "out_channels: 2, kernel_size: 3, dilation: 2"}}},
      {"Conv1d stride 2 padding 2 groups 4",
       {"Conv1d", {kSequence, "out_channels: 8, kernel_size: 3, stride: 2, padding: 2, groups: 4"}}},
      {"MaxPool2d ceil_mode", {"MaxPool2d", {kImage, "kernel_size: 2, ceil_mode: true"}}},
      {"MaxPool2d stride 1 padding 1", {"MaxPool2d", {kImage, "kernel_size: 3, stride: 1, padding: 1"}}},
      {"AvgPool2d ceil_mode padding",
       {"AvgPool2d", {kImage, "kernel_size: 2, padding: 1, ceil_mode: true, count_include_pad: false"}}},
      {"Flatten start_dim 2", {"Flatten", {kImage, "start_dim: 2"}}},
      {"Linear no bias on images", {"Linear", {kImage, "out_features: 5, bias: false"}}},
      {"BatchNorm2d no affine", {"BatchNorm2d", {kImage, "affine: false"}}},
      {"LayerNorm no affine", {"LayerNorm", {kSequence, "elementwise_affine: false"}}},
      {"Concat last dim", {"Concat", {kTwoImages, "inputs: [x, y], dim: 3"}}},
      {"Add three inputs",
       {"Add", {kTwoImages + "  - {id: z, op: Input, shape: [4, 9, 9]}\n", "inputs: [x, y, z]"}}},
      {"Mul channel gate", {"Mul", {kImage + "  - {id: y, op: Input, shape: [4, 1, 1]}\n", "inputs: [y, x]"}}},
      {"Mul broadcast both ways",
       {"Mul", {"  - {id: x, op: Input, shape: [4, 1, 9]}\n  - {id: y, op: Input, shape: [1, 9, 1]}\n", "inputs: [x, y]"}}},
      {"GELU tanh", {"GELU", {kFeatures, "approximate: tanh"}}},
      {"Softmax dim 1 on images", {"Softmax", {kImage, "dim: 1"}}},
      {"Reshape exact", {"Reshape", {kImage, "shape: [36, 3, 3]"}}},
      {"MultiheadAttention no bias dropout",
       {"MultiheadAttention", {kSequence, "num_heads: 2, bias: false, dropout: 0.3"}}},
      {"TransformerEncoderLayer gelu defaults", {"TransformerEncoderLayer", {kSequence, "nhead: 4, activation: gelu"}}},
      {"MultiheadAttention causal", {"MultiheadAttention", {kSequence, "num_heads: 3, causal: true"}}},
      {"TransformerEncoderLayer causal",
       {"TransformerEncoderLayer", {kSequence, "nhead: 3, dim_feedforward: 20, dropout: 0.0, causal: true"}}},
      {"Transpose first and last", {"Transpose", {kImage, "dim0: 1, dim1: -1"}}},
      {"Permute torch form", {"Permute", {kImage, "dims: [0, 2, 3, 1]"}}},
      {"Permute of indices",
       {"Permute", {"  - {id: x, op: Input, shape: [4, 7], dtype: int64}\n", "dims: [-1, 1]", 11}}},
      {"Max keepdim", {"Max", {kImage, "dim: 1, keepdim: true"}}},
      {"Mean negative keepdim", {"Mean", {kImage, "dim: -2, keepdim: true"}}},
      {"Sum dim 2", {"Sum", {kImage, "dim: 2"}}},
      {"ChannelShuffle 3 groups of 2",
       {"ChannelShuffle", {"  - {id: x, op: Input, shape: [6, 5, 4]}\n", "groups: 3"}}},
      {"ChannelShuffle over a sequence", {"ChannelShuffle", {kSequence, "groups: 4"}}},
      {"Slice last dim", {"Slice", {kImage, "dim: -1, start: 2, end: 7"}}},
      {"Slice middle channels", {"Slice", {kImage, "start: 1, end: 3"}}},
  };
  return rows;
}

// The model file of one row: its inputs and the op as node `blk.n` (a dotted id, as a block's
// member has), which is the output.
inline std::string modelYaml(const std::string &op, const Case &c) {
  std::string yaml = "name: one_op\nnodes:\n" + c.inputs;
  if (op != "Input") {
    yaml += "  - {id: blk.n, op: " + op + (c.node.empty() ? "" : ", " + c.node) + "}\n";
    yaml += "output: blk.n\n";
  }
  return yaml;
}

}  // namespace tw::testing
