#include "core/spec/registry_ops.h"
#include "core/spec/checked_math.h"

#include <algorithm>

namespace tw::spec::detail {

namespace {

using P = ParamType;

IntList pairOf(int64_t v) { return {v, v}; }

// Stride defaults to the kernel size, as in torch.
void inferPoolStride(const std::vector<Shape> &in, ParamMap &p, const std::string &op) {
  requireRank(in[0], 3, op, "[C, H, W]");
  if (!has(p, "stride")) p["stride"] = getInts(p, "kernel_size");
}

void checkPoolPadding(const ParamMap &p) {
  const IntList &k = getInts(p, "kernel_size"), &pad = getInts(p, "padding");
  for (size_t i = 0; i < 2; ++i) {
    if (pad[i] > k[i] / 2) {
      throw ShapeError("padding", "expected at most half the kernel size (" + pairText(k) + " allows " +
                                      std::to_string(k[i] / 2) + "), got " + pairText(pad));
    }
  }
}

std::vector<ParamDef> poolParams() {
  return {requiredParam("kernel_size", P::IntPair, "Size of the pooling window.", 1),
          inferredParam("stride", P::IntPair, "Step between windows; defaults to kernel_size."),
          optionalParam("padding", P::IntPair, pairOf(0), "Implicit padding on each side; at most half the kernel.", 0)};
}

OpDef maxPool2d() {
  OpDef op;
  op.name = "MaxPool2d";
  op.category = OpCategory::Pooling;
  op.doc = "Maximum over sliding windows of a [C, H, W] input.";
  op.params = poolParams();
  op.params.push_back(optionalParam("dilation", P::IntPair, pairOf(1), "Spacing between window elements.", 1));
  op.params.push_back(optionalParam("ceil_mode", P::Bool, false, "Rounds the output size up instead of down."));
  op.infer = [](const std::vector<Shape> &in, ParamMap &p) { inferPoolStride(in, p, "MaxPool2d"); };
  op.shape = [](const std::vector<Shape> &in, const ParamMap &p) {
    checkPoolPadding(p);
    const IntList &k = getInts(p, "kernel_size"), &s = getInts(p, "stride"), &pad = getInts(p, "padding"),
                  &d = getInts(p, "dilation");
    const bool ceil = getBool(p, "ceil_mode");
    return Shape{in[0][0], windowOutput(in[0][1], k[0], s[0], pad[0], d[0], ceil, "H"),
                 windowOutput(in[0][2], k[1], s[1], pad[1], d[1], ceil, "W")};
  };
  return op;
}

OpDef avgPool2d() {
  OpDef op;
  op.name = "AvgPool2d";
  op.category = OpCategory::Pooling;
  op.doc = "Average over sliding windows of a [C, H, W] input.";
  op.params = poolParams();
  op.params.push_back(optionalParam("ceil_mode", P::Bool, false, "Rounds the output size up instead of down."));
  op.params.push_back(optionalParam("count_include_pad", P::Bool, true, "Counts padding zeros in the average."));
  op.infer = [](const std::vector<Shape> &in, ParamMap &p) { inferPoolStride(in, p, "AvgPool2d"); };
  op.shape = [](const std::vector<Shape> &in, const ParamMap &p) {
    checkPoolPadding(p);
    const IntList &k = getInts(p, "kernel_size"), &s = getInts(p, "stride"), &pad = getInts(p, "padding");
    const bool ceil = getBool(p, "ceil_mode");
    return Shape{in[0][0], windowOutput(in[0][1], k[0], s[0], pad[0], 1, ceil, "H"),
                 windowOutput(in[0][2], k[1], s[1], pad[1], 1, ceil, "W")};
  };
  return op;
}

OpDef adaptiveAvgPool2d() {
  OpDef op;
  op.name = "AdaptiveAvgPool2d";
  op.category = OpCategory::Pooling;
  op.doc = "Average pooling to a fixed output size, whatever the input's height and width.";
  op.params = {requiredParam("output_size", P::IntPair, "Height and width of the output.", 1)};
  op.shape = [](const std::vector<Shape> &in, const ParamMap &p) {
    requireRank(in[0], 3, "AdaptiveAvgPool2d", "[C, H, W]");
    const IntList &size = getInts(p, "output_size");
    return Shape{in[0][0], size[0], size[1]};
  };
  return op;
}

OpDef flatten() {
  OpDef op;
  op.name = "Flatten";
  op.keepsDtype = true;
  op.category = OpCategory::Reshape;
  op.doc = "Merges dimensions start_dim..end_dim (torch numbering, 0 is the batch) into one.";
  op.params = {optionalParam("start_dim", P::Int, int64_t{1}, "First dimension to merge; 0 (the batch) is refused."),
               optionalParam("end_dim", P::Int, int64_t{-1}, "Last dimension to merge; -1 is the last.")};
  op.shape = [](const std::vector<Shape> &in, const ParamMap &p) {
    const Shape &x = in[0];
    const int64_t start = torchDim(getInt(p, "start_dim"), x.size(), "start_dim", "Flatten");
    const int64_t end = torchDim(getInt(p, "end_dim"), x.size(), "end_dim", "Flatten");
    if (end < start) {
      throw ShapeError("end_dim", "end_dim resolves to dimension " + std::to_string(end) +
                                      ", before start_dim's " + std::to_string(start));
    }
    Shape out(x.begin(), x.begin() + (start - 1));
    int64_t merged = 1;
    for (int64_t i = start; i <= end; ++i) merged = checkedMul(merged, x[i - 1], "the merged dimension");
    out.push_back(merged);
    out.insert(out.end(), x.begin() + end, x.end());
    return out;
  };
  return op;
}

OpDef add() {
  OpDef op;
  op.name = "Add";
  op.keepsDtype = true;
  op.category = OpCategory::Merge;
  op.doc = "Element-wise sum of two or more inputs of the same shape (no broadcasting).";
  op.minInputs = 2;
  op.maxInputs = -1;
  op.shape = [](const std::vector<Shape> &in, const ParamMap &) {
    for (size_t i = 1; i < in.size(); ++i) {
      if (in[i] != in[0]) {
        throw ShapeError("", "Add needs inputs of equal shape (no broadcasting); input 1 is " + formatShape(in[0]) +
                                 ", input " + std::to_string(i + 1) + " is " + formatShape(in[i]));
      }
    }
    return in[0];
  };
  return op;
}

// Squeeze-and-excitation scales each channel of [C, H, W] by a [C, 1, 1] gate: a product with
// broadcasting over dimensions of size 1. Equal ranks only, so that no dimension is matched with
// the batch by right-alignment.
OpDef mul() {
  OpDef op;
  op.name = "Mul";
  op.category = OpCategory::Merge;
  op.doc = "Element-wise product of two inputs of equal rank; a dimension of 1 in either is broadcast over the other's.";
  op.minInputs = op.maxInputs = 2;
  op.shape = [](const std::vector<Shape> &in, const ParamMap &) {
    bool match = in[1].size() == in[0].size();
    Shape out = in[0];
    for (size_t d = 0; match && d < out.size(); ++d) {
      match = in[0][d] == in[1][d] || in[0][d] == 1 || in[1][d] == 1;
      out[d] = std::max(in[0][d], in[1][d]);
    }
    if (!match) {
      throw ShapeError("", "Mul needs inputs of equal rank whose dimensions are equal or 1; input 1 is " +
                               formatShape(in[0]) + ", input 2 is " + formatShape(in[1]));
    }
    return out;
  };
  return op;
}

OpDef concat() {
  OpDef op;
  op.name = "Concat";
  op.keepsDtype = true;
  op.category = OpCategory::Merge;
  op.doc = "Joins two or more inputs along dim (torch numbering, 0 is the batch); other dimensions must match.";
  op.minInputs = 2;
  op.maxInputs = -1;
  op.params = {optionalParam("dim", P::Int, int64_t{1}, "Dimension to join along; 1 is the channels/features.")};
  op.shape = [](const std::vector<Shape> &in, const ParamMap &p) {
    const int64_t dim = torchDim(getInt(p, "dim"), in[0].size(), "dim", "Concat");
    Shape out = in[0];
    for (size_t i = 1; i < in.size(); ++i) {
      bool match = in[i].size() == in[0].size();
      for (size_t d = 0; match && d < in[0].size(); ++d) match = d + 1 == size_t(dim) || in[i][d] == in[0][d];
      if (!match) {
        throw ShapeError("", "Concat along dim " + std::to_string(dim) + " needs all other dimensions equal; input 1 is " +
                                 formatShape(in[0]) + ", input " + std::to_string(i + 1) + " is " + formatShape(in[i]));
      }
      out[dim - 1] = checkedAdd(out[dim - 1], in[i][dim - 1], "the joined dimension");
    }
    return out;
  };
  return op;
}

}  // namespace

void addStructureOps(std::vector<OpDef> &ops) {
  for (OpDef op : {maxPool2d(), avgPool2d(), adaptiveAvgPool2d(), flatten(), add(), mul(), concat()})
    ops.push_back(std::move(op));
}

}  // namespace tw::spec::detail
