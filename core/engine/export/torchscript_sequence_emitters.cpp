// TorchScript for the sequence ops. LibTorch's attention modules are written out as the
// operations they perform (linear projections, scaled dot products, softmax), on the graph's
// (N, T, E) layout, so the file needs nothing beyond built-in tensor operations.
#include "core/engine/export/torchscript_emit.h"
#include "core/engine/export/torchscript_emitters.h"
#include "core/spec/param.h"

#include <cmath>

namespace tw::engine::ts {

namespace {

// Self-attention of `x` (N, T, E) with the parameters under `prefix` ("" or "self_attn."),
// assigned to `out`. As LibTorch computes it: the query scaled by 1/sqrt(head_dim) before the
// product, dropout off (evaluation mode).
void attention(TorchScriptEmit &e, const std::string &x, const std::string &prefix, int64_t embed, int64_t heads,
               bool causal, const std::string &out) {
  const int64_t headDim = embed / heads;
  const std::string n = e.temp("n"), qkv = e.temp("qkv"), q = e.temp("q"), k = e.temp("k"), v = e.temp("v"),
                    w = e.temp("w");
  const std::string split = "[" + n + ", -1, " + std::to_string(heads) + ", " + std::to_string(headDim) + "]";
  e.line(n + " = " + x + ".size(0)");
  e.line(qkv + " = torch.linear(" + x + ", " + e.param(prefix + "in_proj_weight") + ", " +
         e.optionalParam(prefix + "in_proj_bias") + ").chunk(3, -1)");
  e.line(q + " = (" + qkv + "[0] * " + TorchScriptEmit::number(std::pow(double(headDim), -0.5)) + ").reshape(" +
         split + ").transpose(1, 2)");
  e.line(k + " = " + qkv + "[1].reshape(" + split + ").transpose(1, 2)");
  e.line(v + " = " + qkv + "[2].reshape(" + split + ").transpose(1, 2)");
  std::string scores = "torch.matmul(" + q + ", " + k + ".transpose(-2, -1))";
  if (causal) {
    // -inf above the diagonal: position t sees positions 0..t, as the trained model did.
    const std::string t = e.temp("t");
    e.line(t + " = " + x + ".size(1)");
    scores += " + torch.full([" + t + ", " + t + "], float(\"-inf\"), dtype=" + x + ".dtype, device=" + x +
              ".device).triu(1)";
  }
  e.line(w + " = torch.softmax(" + scores + ", -1)");
  e.line(out + " = torch.linear(torch.matmul(" + w + ", " + v + ").transpose(1, 2).reshape([" + n + ", -1, " +
         std::to_string(embed) + "]), " + e.param(prefix + "out_proj.weight") + ", " +
         e.optionalParam(prefix + "out_proj.bias") + ")");
}

std::string layerNorm(TorchScriptEmit &e, const std::string &x, const std::string &prefix, int64_t embed) {
  // LibTorch's TransformerEncoderLayer builds its norms with LayerNormOptions' default eps.
  return "torch.layer_norm(" + x + ", [" + std::to_string(embed) + "], " + e.param(prefix + "weight") + ", " +
         e.param(prefix + "bias") + ", 1.0000000000000001e-05)";
}

}  // namespace

void Reshape(TorchScriptEmit &e) {
  std::vector<int64_t> dims = e.node().outputShape;  // -1 already resolved by analysis
  std::string list = "[" + e.input() + ".size(0)";
  for (int64_t d : dims) list += ", " + std::to_string(d);
  e.assign(e.input() + ".reshape(" + list + "])");
}

void PositionalEmbedding(TorchScriptEmit &e) { e.assign(e.input() + " + " + e.param("weight")); }

void MultiheadAttention(TorchScriptEmit &e) {
  const auto &p = e.node().params;
  attention(e, e.input(), "", spec::getInt(p, "embed_dim"), spec::getInt(p, "num_heads"), spec::getBool(p, "causal"),
            e.output());
}

// LibTorch 1.13's layer: post-norm, x = norm1(x + attn(x)); x = norm2(x + ff(x)).
void TransformerEncoderLayer(TorchScriptEmit &e) {
  const auto &p = e.node().params;
  const int64_t embed = spec::getInt(p, "d_model");
  const std::string attn = e.temp("attn"), a = e.temp("a"), ff = e.temp("ff");
  attention(e, e.input(), "self_attn.", embed, spec::getInt(p, "nhead"), spec::getBool(p, "causal"), attn);
  e.line(a + " = " + layerNorm(e, e.input() + " + " + attn, "norm1.", embed));
  const std::string act = spec::getString(p, "activation") == "gelu" ? "torch.gelu" : "torch.relu";
  e.line(ff + " = torch.linear(" + act + "(torch.linear(" + a + ", " + e.param("linear1.weight") + ", " +
         e.param("linear1.bias") + ")), " + e.param("linear2.weight") + ", " + e.param("linear2.bias") + ")");
  e.assign(layerNorm(e, a + " + " + ff, "norm2.", embed));
}

void SequenceMean(TorchScriptEmit &e) { e.assign(e.input() + ".mean(1)"); }

}  // namespace tw::engine::ts
