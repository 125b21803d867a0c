#include "core/engine/sequence_builders.h"

#include "core/spec/param.h"

#include <limits>

namespace tw::engine {

namespace {

using spec::getBool;
using spec::getFloat;
using spec::getInt;
using spec::getString;

// A learned [T, E] table added to every sample. Its own module so that the table is a named
// parameter ("weight") that the optimiser, checkpoints and parameter counts see.
class PositionalEmbeddingImpl : public torch::nn::Module {
 public:
  PositionalEmbeddingImpl(int64_t maxLen, int64_t embedDim) {
    // Small random values, as BERT and ViT start theirs: positions differ from the first step
    // without drowning the token features they are added to.
    weight = register_parameter("weight", torch::randn({maxLen, embedDim}) * 0.02);
  }
  torch::Tensor forward(const torch::Tensor &x) { return x + weight; }  // broadcasts over the batch
  torch::Tensor weight;
};

// LibTorch 1.13's C++ attention modules take (T, N, E) and have no batch_first option; the graph
// carries (N, T, E), so each call transposes in and out.
torch::Tensor sequenceFirst(const torch::Tensor &x) { return x.transpose(0, 1); }

// The additive mask of causal attention for x (N, T, E): -inf above the diagonal, so position t
// sees positions 0..t; undefined (no mask) when the node is not causal.
torch::Tensor causalMask(const torch::Tensor &x, bool causal) {
  if (!causal) return {};
  const int64_t t = x.size(1);
  return torch::full({t, t}, -std::numeric_limits<float>::infinity(), x.options().dtype(torch::kFloat)).triu(1);
}

}  // namespace

BuiltOp buildReshape(const spec::NodeInfo &node) {
  // The analysed output shape has any -1 already resolved, so the reshape is exact.
  const std::vector<int64_t> sample = node.outputShape;
  BuiltOp op;
  op.forward = [sample](const std::vector<torch::Tensor> &in) {
    std::vector<int64_t> dims{in[0].size(0)};
    dims.insert(dims.end(), sample.begin(), sample.end());
    return in[0].reshape(dims);
  };
  return op;
}

BuiltOp buildPositionalEmbedding(const spec::NodeInfo &node) {
  auto module = std::make_shared<PositionalEmbeddingImpl>(getInt(node.params, "max_len"),
                                                          getInt(node.params, "embed_dim"));
  BuiltOp op;
  op.module = module;
  op.forward = [module](const std::vector<torch::Tensor> &in) { return module->forward(in[0]); };
  return op;
}

BuiltOp buildMultiheadAttention(const spec::NodeInfo &node) {
  const auto &p = node.params;
  torch::nn::MultiheadAttention attention(
      torch::nn::MultiheadAttentionOptions(getInt(p, "embed_dim"), getInt(p, "num_heads"))
          .dropout(getFloat(p, "dropout"))
          .bias(getBool(p, "bias")));
  const bool causal = getBool(p, "causal");
  BuiltOp op;
  op.module = attention.ptr();
  op.forward = [attention, causal](const std::vector<torch::Tensor> &in) mutable {
    const torch::Tensor x = sequenceFirst(in[0]);
    // Self-attention: the sequence is query, key and value. The weights are not needed, and
    // asking for them would cost an extra average over the heads on every step.
    return sequenceFirst(std::get<0>(attention->forward(x, x, x, /*key_padding_mask=*/{}, /*need_weights=*/false,
                                                        causalMask(in[0], causal))));
  };
  return op;
}

BuiltOp buildTransformerEncoderLayer(const spec::NodeInfo &node) {
  const auto &p = node.params;
  torch::nn::TransformerEncoderLayerOptions options(getInt(p, "d_model"), getInt(p, "nhead"));
  options.dim_feedforward(getInt(p, "dim_feedforward")).dropout(getFloat(p, "dropout"));
  if (getString(p, "activation") == "gelu") {
    options.activation(torch::kGELU);
  } else {
    options.activation(torch::kReLU);
  }
  torch::nn::TransformerEncoderLayer layer(options);
  const bool causal = getBool(p, "causal");
  BuiltOp op;
  op.module = layer.ptr();
  op.forward = [layer, causal](const std::vector<torch::Tensor> &in) mutable {
    return sequenceFirst(layer->forward(sequenceFirst(in[0]), causalMask(in[0], causal)));
  };
  return op;
}

BuiltOp buildSequenceMean(const spec::NodeInfo &) {
  BuiltOp op;
  op.forward = [](const std::vector<torch::Tensor> &in) { return in[0].mean(1); };
  return op;
}

}  // namespace tw::engine
