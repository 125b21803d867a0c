#include "core/spec/registry_ops.h"
#include "core/spec/checked_math.h"

namespace tw::spec::detail {

namespace {

using P = ParamType;

// Attention ops see one sample as T tokens of E features: [T, E].
void requireSequence(const Shape &shape, const std::string &op) { requireRank(shape, 2, op, "[T, E]"); }

void checkHeads(const ParamMap &p, const std::string &heads, const std::string &width) {
  const int64_t h = getInt(p, heads), e = getInt(p, width);
  if (e % h != 0) {
    throw ShapeError(heads, heads + " " + std::to_string(h) + " must divide " + width + " (" + std::to_string(e) +
                                "): each head attends over " + width + " / " + heads + " features");
  }
}

// Query, key and value projections packed in one [3E, E] matrix, plus the output projection;
// with bias, a bias for each of the four. The same count as torch's nn.MultiheadAttention.
int64_t attentionCount(int64_t e, bool bias) {
  const std::string what = "the parameter count";
  return checkedAdd(checkedProduct({4, e, e}, what), bias ? checkedMul(4, e, what) : 0, what);
}

OpDef reshape() {
  OpDef op;
  op.name = "Reshape";
  op.keepsDtype = true;
  op.category = OpCategory::Reshape;
  op.doc = "Gives each sample a new shape with the same number of elements; one dimension may be -1 (inferred).";
  // min -1 lets the wildcard through the range check; the shape rule refuses 0 and a second -1.
  op.params = {requiredParam("shape", P::IntList, "Dimensions of one output sample without the batch, e.g. [28, 28].",
                             -1)};
  op.shape = [](const std::vector<Shape> &in, const ParamMap &p) {
    const IntList &target = getInts(p, "shape");
    if (target.empty()) throw ShapeError("shape", "expected at least one dimension, got []");
    const int64_t count = checkedNumel(in[0], "the element count of the input");
    int64_t known = 1;
    int wildcards = 0;
    for (int64_t d : target) {
      if (d == 0) throw ShapeError("shape", "dimensions must be >= 1 or -1 (inferred), got " + formatShape(target));
      if (d == -1) {
        ++wildcards;
      } else {
        known = checkedMul(known, d, "the element count of shape " + formatShape(target));
      }
    }
    if (wildcards > 1) throw ShapeError("shape", "at most one dimension may be -1, got " + formatShape(target));
    Shape out = target;
    if (wildcards == 1) {
      if (count % known != 0) {
        throw ShapeError("shape", formatShape(target) + " cannot hold the " + std::to_string(count) +
                                      " elements of the input: " + std::to_string(count) + " is not a multiple of " +
                                      std::to_string(known));
      }
      for (int64_t &d : out)
        if (d == -1) d = count / known;
    } else if (known != count) {
      throw ShapeError("shape", formatShape(target) + " holds " + std::to_string(known) + " elements, the input " +
                                    std::to_string(count) + "; the element count must stay the same");
    }
    return out;
  };
  return op;
}

// A language model predicts each position from the ones before it, so its attention must not see
// later positions; the same switch on both attention ops.
ParamDef causalParam() {
  return optionalParam("causal", P::Bool, false,
                       "Each position attends only to itself and earlier positions (a language model's mask).");
}

OpDef positionalEmbedding() {
  OpDef op;
  op.name = "PositionalEmbedding";
  op.doc = "Adds a learned vector to each position of a [T, E] sequence, so that attention can tell positions apart.";
  op.params = {inferredParam("max_len", P::Int, "Number of positions T; taken from the incoming shape."),
               inferredParam("embed_dim", P::Int, "Features per position E; taken from the incoming shape.")};
  op.infer = [](const std::vector<Shape> &in, ParamMap &p) {
    requireSequence(in[0], "PositionalEmbedding");
    inferValue(p, "max_len", in[0][0], "the positions T of the incoming shape");
    inferValue(p, "embed_dim", in[0][1], "the features E of the incoming shape");
  };
  op.shape = [](const std::vector<Shape> &in, const ParamMap &) { return in[0]; };
  op.paramCount = [](const std::vector<Shape> &, const ParamMap &p) {
    return checkedMul(getInt(p, "max_len"), getInt(p, "embed_dim"), "the parameter count");
  };
  return op;
}

OpDef multiheadAttention() {
  OpDef op;
  op.name = "MultiheadAttention";
  op.doc = "Multi-head self-attention over a [T, E] sequence: every position attends to every other.";
  op.params = {inferredParam("embed_dim", P::Int, "Features per position E; taken from the incoming shape."),
               requiredParam("num_heads", P::Int, "Parallel attention heads; must divide embed_dim.", 1),
               optionalParam("dropout", P::Float, 0.0, "Dropout on the attention weights while training.", 0.0, 1.0),
               optionalParam("bias", P::Bool, true, "Adds learnable biases to the input and output projections."),
               causalParam()};
  op.infer = [](const std::vector<Shape> &in, ParamMap &p) {
    requireSequence(in[0], "MultiheadAttention");
    inferValue(p, "embed_dim", in[0][1], "the features E of the incoming shape");
  };
  op.shape = [](const std::vector<Shape> &in, const ParamMap &p) {
    checkHeads(p, "num_heads", "embed_dim");
    return in[0];
  };
  op.paramCount = [](const std::vector<Shape> &, const ParamMap &p) {
    return attentionCount(getInt(p, "embed_dim"), getBool(p, "bias"));
  };
  return op;
}

OpDef transformerEncoderLayer() {
  OpDef op;
  op.name = "TransformerEncoderLayer";
  op.category = OpCategory::Block;
  op.doc = "One Transformer encoder layer on a [T, E] sequence: self-attention, then a feed-forward network, "
           "each with a residual connection and LayerNorm after it.";
  ParamDef activation = optionalParam("activation", P::String, std::string("relu"),
                                      "Activation of the feed-forward network.");
  activation.choices = {"relu", "gelu"};
  op.params = {inferredParam("d_model", P::Int, "Features per position E; taken from the incoming shape."),
               requiredParam("nhead", P::Int, "Parallel attention heads; must divide d_model.", 1),
               optionalParam("dim_feedforward", P::Int, int64_t{2048}, "Width of the feed-forward network.", 1),
               optionalParam("dropout", P::Float, 0.1, "Dropout in attention, feed-forward and residual paths.", 0.0,
                             1.0),
               activation, causalParam()};
  op.infer = [](const std::vector<Shape> &in, ParamMap &p) {
    requireSequence(in[0], "TransformerEncoderLayer");
    inferValue(p, "d_model", in[0][1], "the features E of the incoming shape");
  };
  op.shape = [](const std::vector<Shape> &in, const ParamMap &p) {
    checkHeads(p, "nhead", "d_model");
    return in[0];
  };
  op.paramCount = [](const std::vector<Shape> &, const ParamMap &p) {
    const int64_t d = getInt(p, "d_model"), ff = getInt(p, "dim_feedforward");
    const std::string what = "the parameter count";
    const int64_t weights = checkedMul(d, ff, what);  // each of the two feed-forward matrices
    const int64_t feedForward = checkedAdd(checkedAdd(weights, ff, what), checkedAdd(weights, d, what), what);
    const int64_t norms = checkedMul(4, d, what);
    return checkedAdd(checkedAdd(attentionCount(d, true), feedForward, what), norms, what);
  };
  return op;
}

OpDef sequenceMean() {
  OpDef op;
  op.name = "SequenceMean";
  op.category = OpCategory::Pooling;
  op.doc = "Averages a [T, E] sequence over its T positions, giving one [E] vector per sample.";
  op.shape = [](const std::vector<Shape> &in, const ParamMap &) {
    requireSequence(in[0], "SequenceMean");
    return Shape{in[0][1]};
  };
  return op;
}

}  // namespace

void addSequenceOps(std::vector<OpDef> &ops) {
  for (OpDef op : {reshape(), positionalEmbedding(), multiheadAttention(), transformerEncoderLayer(), sequenceMean()})
    ops.push_back(std::move(op));
}

}  // namespace tw::spec::detail
