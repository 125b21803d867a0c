// The mappers for nodes that move or reduce whole dimensions of an activation: Transpose, Split,
// Slice, ReduceMean, and the channel shuffle that ShuffleNet writes as Reshape, Transpose, Reshape
// (folded into one ChannelShuffle node when the Reshape after the Transpose closes the pattern).
#include "core/engine/import/onnx_mappers.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <numeric>

namespace tw::engine::onnx_import {

namespace {

using Fate = ImportRow::Fate;

std::vector<int64_t> ints(const torch::Tensor &t) {
  const torch::Tensor c = t.to(torch::kLong).contiguous().reshape({-1});
  return std::vector<int64_t>(c.data_ptr<int64_t>(), c.data_ptr<int64_t>() + c.numel());
}

int64_t rankOf(const ImportValue &v) { return static_cast<int64_t>(v.shape.size()) + 1; }  // with the batch

const int64_t *intParam(const spec::ParamMap &params, const std::string &name) {
  auto it = params.find(name);
  return it == params.end() ? nullptr : std::get_if<int64_t>(&it->second);
}

}  // namespace

// perm [0, ...]: the batch stays first. Two axes swapped is a Transpose, any other order a Permute.
void Transpose(NodeImport &n) {
  const ImportValue &x = n.activation(0, "the data");
  const int64_t rank = rankOf(x);
  std::vector<int64_t> perm = n.attrInts("perm");
  if (perm.empty())
    for (int64_t d = rank; d-- > 0;) perm.push_back(d);
  if (static_cast<int64_t>(perm.size()) != rank)
    n.refuse("perm " + intsText(perm) + " has " + std::to_string(perm.size()) + " entries for a value of rank " +
             std::to_string(rank));
  for (int64_t &d : perm) d = axisOf(n, d, rank, "perm entry");
  if (perm[0] != 0)
    n.refuse("perm " + intsText(perm) + " moves the batch (axis 0); the registry keeps the batch first");
  std::vector<int64_t> moved;
  for (int64_t d = 0; d < rank; ++d)
    if (perm[d] != d) moved.push_back(d);
  if (moved.empty()) return n.alias(0, x, Fate::Dropped, "a no-op: perm " + intsText(perm));
  if (moved.size() == 2) {
    n.add("Transpose", {{"dim0", moved[0]}, {"dim1", moved[1]}}, {x.node});
    return;
  }
  n.add("Permute", {{"dims", spec::IntList(perm.begin() + 1, perm.end())}}, {x.node});
}

// One Slice node per part read (torch.chunk and torch.split write Split).
void Split(NodeImport &n) {
  const ImportValue &x = n.activation(0, "the input");
  const int64_t rank = rankOf(x);
  const int64_t axis = axisOf(n, n.attrInt("axis", 0), rank, "axis");
  if (axis == 0) n.refuse("it splits the batch (axis 0)");
  const int64_t size = x.shape[axis - 1];
  const size_t parts = static_cast<size_t>(n.proto().output_size());
  std::vector<int64_t> sizes;
  if (n.opset() >= 13 && n.hasInput(1)) sizes = ints(n.constant(1, "the split sizes"));
  else if (n.opset() < 13) sizes = n.attrInts("split");
  if (sizes.empty()) {
    if (size % static_cast<int64_t>(parts) != 0)
      n.refuse("dimension " + std::to_string(axis) + " of size " + std::to_string(size) + " does not split into " +
               std::to_string(parts) + " equal parts");
    sizes.assign(parts, size / static_cast<int64_t>(parts));
  }
  if (sizes.size() != parts || std::accumulate(sizes.begin(), sizes.end(), int64_t{0}) != size)
    n.refuse("split sizes " + intsText(sizes) + " for " + std::to_string(parts) +
             " outputs do not add up to dimension " + std::to_string(axis) + "'s size " + std::to_string(size));
  int64_t start = 0;
  for (size_t k = 0; k < parts; ++k) {
    if (n.readers(k) > 0 && sizes[k] > 0)
      n.addFor(k, "Slice", {{"dim", axis}, {"start", start}, {"end", start + sizes[k]}}, {x.node});
    start += sizes[k];
  }
  n.row().note = std::to_string(parts) + " parts of [" + intsText(sizes) + "] along dimension " + std::to_string(axis);
}

// A Slice of an activation along one dimension with step 1 (a Slice of constants is folded).
void Slice(NodeImport &n) {
  const ImportValue &x = n.activation(0, "the data");
  if (n.opset() < 10) n.refuse("opset " + std::to_string(n.opset()) + "'s Slice (attributes) is not read");
  const std::vector<int64_t> starts = ints(n.constant(1, "starts")), ends = ints(n.constant(2, "ends"));
  const std::vector<int64_t> axes = n.hasInput(3) ? ints(n.constant(3, "axes")) : std::vector<int64_t>{0};
  const std::vector<int64_t> steps = n.hasInput(4) ? ints(n.constant(4, "steps")) : std::vector<int64_t>{1};
  if (starts.size() != 1 || ends.size() != 1 || axes.size() != 1 || steps.size() != 1)
    n.refuse("it slices " + std::to_string(starts.size()) + " axes at once; the registry's Slice takes one");
  if (steps[0] != 1) n.refuse("step " + std::to_string(steps[0]) + "; the registry's Slice takes every position");
  const int64_t rank = rankOf(x);
  const int64_t axis = axisOf(n, axes[0], rank, "axes");
  if (axis == 0) n.refuse("it slices the batch (axis 0)");
  const int64_t size = x.shape[axis - 1];
  // ONNX clamps out-of-range starts and ends (torch writes INT64_MAX for "to the end").
  auto clampIndex = [size](int64_t i) { return std::clamp<int64_t>(i < 0 ? i + size : i, 0, size); };
  const int64_t begin = clampIndex(starts[0]), end = clampIndex(ends[0]);
  if (begin >= end)
    n.refuse("it keeps nothing of dimension " + std::to_string(axis) + " (" + std::to_string(begin) + ".." +
             std::to_string(end) + ")");
  if (begin == 0 && end == size) return n.alias(0, x, Fate::Dropped, "a no-op: the whole dimension");
  n.add("Slice", {{"dim", axis}, {"start", begin}, {"end", end}}, {x.node});
}

// x.mean([2, 3]) over [N, C, H, W] is global average pooling (Flatten after it without keepdims);
// a mean over one axis is Mean.
void ReduceMean(NodeImport &n) {
  const ImportValue &x = n.activation(0, "the data");
  const int64_t rank = rankOf(x);
  const bool keep = n.attrInt("keepdims", 1) != 0;
  std::vector<int64_t> axes = n.attrInts("axes");
  if (axes.empty()) n.refuse("it averages over every axis, the batch included");
  for (int64_t &a : axes) a = axisOf(n, a, rank, "axes");
  std::sort(axes.begin(), axes.end());
  if (rank == 4 && axes == std::vector<int64_t>{2, 3}) {
    const size_t pool = n.add("AdaptiveAvgPool2d", {{"output_size", spec::IntList{1, 1}}}, {x.node});
    if (!keep) {
      const size_t flatten = n.add("Flatten", {}, {pool});
      // torchvision writes x.mean([2, 3]) outside any module: the Flatten gets an id of its own.
      std::string &name = n.graph().nodes[flatten].onnxName;
      name = name.substr(0, name.rfind('/') + 1) + "Flatten";
    }
    n.row().note = keep ? "global average pooling" : "global average pooling (AdaptiveAvgPool2d) and Flatten";
    return;
  }
  if (axes.size() != 1)
    n.refuse("a mean over axes " + intsText(axes) + "; the registry has Mean over one axis and global average pooling "
             "over axes 2, 3 of [N, C, H, W]");
  if (axes[0] == 0) n.refuse("it averages over the batch (axis 0)");
  n.add("Mean", {{"dim", axes[0]}, {"keepdim", keep}}, {x.node});
}

// The Reshape that closes [N, C, ...] -> Reshape [N, g, C / g, ...] -> Transpose(1, 2) -> Reshape
// [N, C, ...]: the first Reshape becomes the ChannelShuffle, the Transpose is removed, and this
// node is folded into it. Each step must be read by the next alone.
bool foldChannelShuffle(NodeImport &n, const ImportValue &x, const spec::Shape &target) {
  ImportGraph &g = n.graph();
  ImportNode &swap = g.nodes[x.node];
  if (swap.op != "Transpose" || swap.onnxOp != "Transpose" || swap.inputs.size() != 1) return false;
  const int64_t *dim0 = intParam(swap.params, "dim0"), *dim1 = intParam(swap.params, "dim1");
  if (!dim0 || !dim1 || *dim0 != 1 || *dim1 != 2) return false;
  const size_t groupedIndex = swap.inputs[0];
  ImportNode &grouped = g.nodes[groupedIndex];
  if (grouped.op != "Reshape" || grouped.onnxOp != "Reshape" || grouped.inputs.size() != 1) return false;
  const spec::Shape &in = g.nodes[grouped.inputs[0]].shape;
  const spec::Shape &split = grouped.shape;
  if (in.size() < 2 || split.size() != in.size() + 1 || target != in) return false;
  if (split[0] * split[1] != in[0] || !std::equal(in.begin() + 1, in.end(), split.begin() + 2)) return false;
  if (g.readers[grouped.onnxOutput] != 1 || g.readers[swap.onnxOutput] != 1) return false;

  const int64_t groups = split[0];
  ImportRow *groupedRow = n.rowOfNode(groupedIndex);
  ImportRow *swapRow = n.rowOfNode(x.node);
  grouped.op = "ChannelShuffle";
  grouped.params = {{"groups", groups}};
  grouped.shape = in;
  // torchvision's channel_shuffle is a function: its nodes have no module of their own.
  grouped.onnxName = grouped.onnxName.substr(0, grouped.onnxName.rfind('/') + 1) + "channel_shuffle";
  swap.removed = true;
  if (groupedRow) groupedRow->note = "with the Transpose and Reshape after it";
  if (swapRow) {
    swapRow->fate = Fate::Folded;
    swapRow->node = groupedIndex;
    swapRow->note = "channel shuffle";
  }
  ImportValue shuffled;
  shuffled.node = groupedIndex;
  shuffled.shape = in;
  n.alias(0, shuffled, Fate::Folded, "channel shuffle of " + std::to_string(groups) + " groups");
  return true;
}

}  // namespace tw::engine::onnx_import
