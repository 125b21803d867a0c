#include "core/spec/registry_ops.h"

#include <algorithm>

namespace tw::spec::detail {

namespace {

using P = ParamType;

std::string listText(const IntList &values) { return "[" + pairText(values) + "]"; }

OpDef transpose() {
  OpDef op;
  op.name = "Transpose";
  op.keepsDtype = true;
  op.category = OpCategory::Reshape;
  op.doc = "Swaps two dimensions (torch numbering, 0 is the batch and stays); the default swaps the last two, "
           "e.g. [T, E] becomes [E, T].";
  op.params = {optionalParam("dim0", P::Int, int64_t{-2}, "First dimension to swap; negative counts from the end."),
               optionalParam("dim1", P::Int, int64_t{-1}, "Second dimension to swap; negative counts from the end.")};
  op.shape = [](const std::vector<Shape> &in, const ParamMap &p) {
    const int64_t a = torchDim(getInt(p, "dim0"), in[0].size(), "dim0", "Transpose");
    const int64_t b = torchDim(getInt(p, "dim1"), in[0].size(), "dim1", "Transpose");
    Shape out = in[0];
    std::swap(out[a - 1], out[b - 1]);
    return out;
  };
  return op;
}

// Permute's dims, resolved to torch numbering with the batch first: [0, p1, ..., pr].
IntList permutation(const IntList &dims, size_t rank) {
  const size_t full = rank + 1;
  if (dims.size() != rank && dims.size() != full) {
    throw ShapeError("dims", "expected " + std::to_string(rank) + " entries (a permutation of 1.." +
                                 std::to_string(rank) + "; the batch stays first) or " + std::to_string(full) +
                                 " starting with 0, got " + std::to_string(dims.size()) + ": " + listText(dims));
  }
  IntList out{0};
  size_t first = 0;
  if (dims.size() == full) {
    // The full torch form, copied from x.permute(0, ...): the batch must stay where it is.
    if (dims[0] != 0 && dims[0] != -static_cast<int64_t>(full)) {
      throw ShapeError("dims", "the first entry of " + listText(dims) +
                                   " must be 0: the batch stays first (or leave it out: " + std::to_string(rank) +
                                   " entries)");
    }
    first = 1;
  }
  for (size_t i = first; i < dims.size(); ++i) {
    const int64_t d = torchDim(dims[i], rank, "dims", "Permute");
    if (std::find(out.begin(), out.end(), d) != out.end())
      throw ShapeError("dims", "dimension " + std::to_string(d) + " appears twice in " + listText(dims));
    out.push_back(d);
  }
  return out;
}

OpDef permute() {
  OpDef op;
  op.name = "Permute";
  op.keepsDtype = true;
  op.category = OpCategory::Reshape;
  op.doc = "Reorders the dimensions of each sample as torch's permute does (torch numbering, 0 is the batch): "
           "dims [2, 1] or [0, 2, 1] turns [T, E] into [E, T].";
  op.params = {requiredParam("dims", P::IntList,
                             "The new order of the dimensions 1..rank (negative counts from the end); a leading 0 "
                             "for the batch may be written, as in x.permute(0, 2, 1).")};
  op.shape = [](const std::vector<Shape> &in, const ParamMap &p) {
    const IntList order = permutation(getInts(p, "dims"), in[0].size());
    Shape out;
    for (size_t i = 1; i < order.size(); ++i) out.push_back(in[0][order[i] - 1]);
    return out;
  };
  return op;
}

// Max, Mean and Sum over one dimension, as torch.max(x, dim).values, x.mean(dim), x.sum(dim).
OpDef reduction(std::string name, std::string doc) {
  OpDef op;
  op.name = name;
  op.category = OpCategory::Pooling;
  op.doc = std::move(doc);
  op.params = {optionalParam("dim", P::Int, int64_t{-1},
                             "Dimension to reduce (torch numbering; 0, the batch, is refused); -1 is the last."),
               optionalParam("keepdim", P::Bool, false, "Keeps the reduced dimension with size 1.")};
  op.shape = [name](const std::vector<Shape> &in, const ParamMap &p) {
    const int64_t d = torchDim(getInt(p, "dim"), in[0].size(), "dim", name);
    Shape out = in[0];
    if (getBool(p, "keepdim")) {
      out[d - 1] = 1;
      return out;
    }
    // A scalar per sample fits no later op (Linear, the losses all need a feature dimension).
    if (out.size() == 1) {
      throw ShapeError("keepdim", name + " over the only dimension of a " + formatShape(in[0]) +
                                      " input leaves nothing per sample; set keepdim: true to keep it as [1]");
    }
    out.erase(out.begin() + (d - 1));
    return out;
  };
  return op;
}

// ShuffleNet's channel shuffle: [C, ...] viewed as [groups, C / groups, ...], the first two
// swapped, and merged back, so that the next grouped convolution sees channels from every group.
OpDef channelShuffle() {
  OpDef op;
  op.name = "ChannelShuffle";
  op.keepsDtype = true;
  op.category = OpCategory::Reshape;
  op.doc = "Interleaves the channels of groups groups (ShuffleNet's channel shuffle, torch.nn.ChannelShuffle): "
           "channel g * (C / groups) + k moves to k * groups + g; the shape is unchanged.";
  op.params = {requiredParam("groups", P::Int, "Number of channel groups; the channels must divide into them.", 1)};
  op.shape = [](const std::vector<Shape> &in, const ParamMap &p) {
    const int64_t groups = getInt(p, "groups");
    if (in[0].size() < 2)
      throw ShapeError("", "ChannelShuffle needs [C, ...] with at least one dimension after the channels, got " +
                               formatShape(in[0]));
    if (in[0][0] % groups != 0)
      throw ShapeError("groups", std::to_string(in[0][0]) + " channels do not divide into " + std::to_string(groups) +
                                     " groups");
    return in[0];
  };
  return op;
}

// x.narrow(dim, start, end - start): the part of one dimension that torch.chunk, torch.split and
// x[:, start:end] take.
OpDef slice() {
  OpDef op;
  op.name = "Slice";
  op.keepsDtype = true;
  op.category = OpCategory::Reshape;
  op.doc = "Keeps positions start..end-1 of one dimension (x[:, start:end] for dim 1, torch.narrow); "
           "torch.chunk and torch.split are one Slice per part.";
  op.params = {optionalParam("dim", P::Int, int64_t{1}, "Dimension to slice (torch numbering; 0, the batch, is refused)."),
               optionalParam("start", P::Int, int64_t{0}, "First position kept.", 0),
               requiredParam("end", P::Int, "One past the last position kept; at most the dimension's size.", 1)};
  op.shape = [](const std::vector<Shape> &in, const ParamMap &p) {
    const int64_t d = torchDim(getInt(p, "dim"), in[0].size(), "dim", "Slice");
    const int64_t start = getInt(p, "start"), end = getInt(p, "end"), size = in[0][d - 1];
    if (end > size)
      throw ShapeError("end", "end " + std::to_string(end) + " is past dimension " + std::to_string(d) + "'s size " +
                                  std::to_string(size));
    if (start >= end)
      throw ShapeError("start", "start " + std::to_string(start) + " is not before end " + std::to_string(end) +
                                    ": the slice would be empty");
    Shape out = in[0];
    out[d - 1] = end - start;
    return out;
  };
  return op;
}

}  // namespace

void addDimensionOps(std::vector<OpDef> &ops) {
  for (OpDef op : {transpose(), permute(),
                   reduction("Max", "Maximum over one dimension (torch.max(x, dim).values); keepdim keeps it as size 1."),
                   reduction("Mean", "Mean over one dimension; keepdim keeps it as size 1. Mean with dim 1 on [T, E] "
                                     "is SequenceMean."),
                   reduction("Sum", "Sum over one dimension; keepdim keeps it as size 1."), channelShuffle(), slice()})
    ops.push_back(std::move(op));
}

}  // namespace tw::spec::detail
