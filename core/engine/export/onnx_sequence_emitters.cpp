// ONNX for the sequence ops: attention written out as MatMul, Softmax and the reshapes between
// heads, on the graph's (N, T, E) layout, as LibTorch computes it.
#include "core/engine/export/onnx_emit.h"
#include "core/engine/export/onnx_emitters.h"
#include "core/engine/export/onnx_patterns.h"
#include "core/spec/param.h"

#include <cmath>
#include <limits>

namespace tw::engine::onnx_ops {

namespace {

using A = OnnxAttr;

// x @ W^T + b for the parameters "<prefix>weight" and "<prefix>bias" (bias optional).
std::string linear(OnnxEmit &e, const std::string &x, const std::string &prefix, const std::string &s) {
  const std::string wt = e.op("Transpose", {e.param(prefix + "weight")}, s + "/weight_t", {A::list("perm", {1, 0})});
  const std::string y = e.op("MatMul", {x, wt}, s + "/matmul");
  return e.has(prefix + "bias") ? e.op("Add", {y, e.param(prefix + "bias")}, s) : y;
}

// Self-attention of x (N, T, E) with the parameters under `prefix`, as LibTorch computes it: the
// query scaled by 1/sqrt(head_dim) before the product, dropout off.
std::string attention(OnnxEmit &e, const std::string &x, const std::string &prefix, int64_t embed, int64_t heads,
                      bool causal, const std::string &s) {
  const int64_t headDim = embed / heads;
  const std::string wt =
      e.op("Transpose", {e.param(prefix + "in_proj_weight")}, s + "/in_proj_t", {A::list("perm", {1, 0})});
  std::string qkv = e.op("MatMul", {x, wt}, s + "/in_proj");
  if (e.has(prefix + "in_proj_bias")) qkv = e.op("Add", {qkv, e.param(prefix + "in_proj_bias")}, s + "/in_proj_bias");
  const auto parts = e.ops("Split", {qkv, e.ints(s + "/split", {embed, embed, embed})}, {s + "/q", s + "/k", s + "/v"},
                           {A::integer("axis", -1)});
  const std::string heads4 = e.ints(s + "/heads_shape", {0, 0, heads, headDim});
  const std::string scale = e.constant(s + "/scale", torch::tensor(static_cast<float>(std::pow(double(headDim), -0.5))));
  const std::string q = e.op("Transpose", {e.op("Reshape", {e.op("Mul", {parts[0], scale}, s + "/q_scaled"), heads4}, s + "/q_heads")},
                             s + "/q_t", {A::list("perm", {0, 2, 1, 3})});
  const std::string k = e.op("Transpose", {e.op("Reshape", {parts[1], heads4}, s + "/k_heads")}, s + "/k_t",
                             {A::list("perm", {0, 2, 3, 1})});
  const std::string v = e.op("Transpose", {e.op("Reshape", {parts[2], heads4}, s + "/v_heads")}, s + "/v_t",
                             {A::list("perm", {0, 2, 1, 3})});
  std::string scores = e.op("MatMul", {q, k}, s + "/scores");
  if (causal) {
    // The sequence length is fixed by the model's Input, so the mask is a constant [T, T].
    const int64_t t = e.node().inputShapes[0][0];
    const torch::Tensor mask = torch::full({t, t}, -std::numeric_limits<float>::infinity()).triu(1);
    scores = e.op("Add", {scores, e.constant(s + "/causal_mask", mask)}, s + "/masked_scores");
  }
  const std::string w = e.op("Softmax", {scores}, s + "/weights", {A::integer("axis", -1)});
  const std::string o = e.op("Transpose", {e.op("MatMul", {w, v}, s + "/context")}, s + "/context_t",
                             {A::list("perm", {0, 2, 1, 3})});
  const std::string merged = e.op("Reshape", {o, e.ints(s + "/merged_shape", {0, 0, embed})}, s + "/merged");
  const std::string owt =
      e.op("Transpose", {e.param(prefix + "out_proj.weight")}, s + "/out_proj_t", {A::list("perm", {1, 0})});
  const std::string y = e.op("MatMul", {merged, owt}, s + "/out_proj");
  return e.has(prefix + "out_proj.bias") ? e.op("Add", {y, e.param(prefix + "out_proj.bias")}, s) : y;
}

}  // namespace

void Reshape(OnnxEmit &e) {
  std::vector<int64_t> shape{0};
  shape.insert(shape.end(), e.node().outputShape.begin(), e.node().outputShape.end());
  e.finish("Reshape", {e.input(), e.ints("shape", shape)});
}

void PositionalEmbedding(OnnxEmit &e) { e.finish("Add", {e.input(), e.param("weight")}); }

void MultiheadAttention(OnnxEmit &e) {
  const auto &p = e.node().params;
  e.alias(attention(e, e.input(), "", spec::getInt(p, "embed_dim"), spec::getInt(p, "num_heads"),
                    spec::getBool(p, "causal"), "attn"));
}

// LibTorch 1.13's layer: post-norm, x = norm1(x + attn(x)); x = norm2(x + ff(x)).
void TransformerEncoderLayer(OnnxEmit &e) {
  const auto &p = e.node().params;
  const int64_t embed = spec::getInt(p, "d_model");
  const std::string attn = attention(e, e.input(), "self_attn.", embed, spec::getInt(p, "nhead"),
                                     spec::getBool(p, "causal"), "attn");
  const double eps = 1e-5;  // LibTorch builds the layer's norms with LayerNormOptions' default
  const std::string a = onnxLayerNorm(e, e.op("Add", {e.input(), attn}, "residual1"), e.param("norm1.weight"),
                                      e.param("norm1.bias"), eps, "norm1");
  const std::string hidden = linear(e, a, "linear1.", "linear1");
  const std::string act = spec::getString(p, "activation") == "gelu" ? onnxGelu(e, hidden, "gelu")
                                                                      : e.op("Relu", {hidden}, "relu");
  const std::string ff = linear(e, act, "linear2.", "linear2");
  e.alias(onnxLayerNorm(e, e.op("Add", {a, ff}, "residual2"), e.param("norm2.weight"), e.param("norm2.bias"), eps,
                        "norm2"));
}

void SequenceMean(OnnxEmit &e) {
  e.finish("ReduceMean", {e.input()}, {A::list("axes", {1}), A::integer("keepdims", 0)});
}

}  // namespace tw::engine::onnx_ops
