// The shapes the structure cannot show, computed now that the input's [T, E] is known: the number
// of heads from the queries' scale, every reshape's target and the packed projection's cuts for the
// batch sizes checked (the file's, or 2 and 3 when it leaves the batch open), the mask. Then
// torch's packed layout: in_proj_weight [3E, E] of the query, key and value rows.
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/engine/import/onnx_attention.h"
#include "core/engine/import/onnx_mappers.h"
#include "core/engine/import/onnx_shape_eval.h"

namespace tw::engine::onnx_import {

namespace {

const std::string &out0(const GraphIndex &ix, int i) { return ix.node(i).output(0); }

std::string numberText(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

// The chunk (of width E) of its projection that part i takes: Slice's or Split's bounds, for one
// batch size, along the last axis only.
int64_t chunkOf(NodeImport &n, const AttentionMatch &m, ShapeEval &eval, int i, int64_t e) {
  const GraphIndex &ix = *m.index;
  const int p = m.qkv[i].part;
  const onnx::NodeProto &node = ix.node(p);
  const std::vector<int64_t> shape = eval.shapeOf(node.input(0));
  const int64_t rank = static_cast<int64_t>(shape.size());
  int64_t begin = 0, end = shape.back();
  auto refuse = [&](const std::string &why) {
    n.refuse(node.op_type() + " '" + ix.name(p) + "' takes the " + kRoles[i] + " " + why +
             "; torch's chunk cuts the packed projection into three parts along its last axis");
  };
  auto norm = [&](int64_t axis) { return axis < 0 ? axis + rank : axis; };
  if (node.op_type() == "Slice") {
    const std::vector<int64_t> starts = eval.ints(node.input(1)), ends = eval.ints(node.input(2));
    std::vector<int64_t> axes =
        node.input_size() > 3 && !node.input(3).empty() ? eval.ints(node.input(3)) : std::vector<int64_t>{};
    const std::vector<int64_t> steps =
        node.input_size() > 4 && !node.input(4).empty() ? eval.ints(node.input(4)) : std::vector<int64_t>{};
    for (size_t k = 0; k < starts.size() && k < ends.size(); ++k) {
      const int64_t axis = norm(axes.empty() ? static_cast<int64_t>(k) : axes[k]);
      if (axis < 0 || axis >= rank) refuse("along axis " + std::to_string(axis));
      if (!steps.empty() && steps[k] != 1) refuse("with step " + std::to_string(steps[k]));
      const int64_t size = shape[static_cast<size_t>(axis)];
      auto clampIndex = [size](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + size : v, 0, size); };
      const int64_t b = clampIndex(starts[k]), en = std::max(b, clampIndex(ends[k]));
      if (axis == rank - 1)
        begin = b, end = en;
      else if (b != 0 || en != size)
        refuse("cutting axis " + std::to_string(axis) + " too");
    }
  } else {
    if (norm(ix.attrInt(p, "axis", 0)) != rank - 1) refuse("along axis " + std::to_string(ix.attrInt(p, "axis", 0)));
    std::vector<int64_t> sizes =
        node.input_size() > 1 && !node.input(1).empty() ? eval.ints(node.input(1)) : ix.attrInts(p, "split");
    if (sizes.empty()) sizes.assign(static_cast<size_t>(node.output_size()), shape.back() / node.output_size());
    const size_t part = static_cast<size_t>(m.qkv[i].partOutput);
    if (part >= sizes.size()) refuse("as output " + std::to_string(part + 1) + " of " + std::to_string(sizes.size()));
    begin = 0;
    for (size_t k = 0; k < part; ++k) begin += sizes[k];
    end = begin + sizes[part];
  }
  if (end - begin != e || begin % e != 0)
    refuse("from columns " + std::to_string(begin) + " to " + std::to_string(end) + " of " +
           std::to_string(shape.back()) + " (E is " + std::to_string(e) + ")");
  return begin / e;
}

}  // namespace

size_t buildAttention(NodeImport &n, Fusion &f, const ImportValue &x) {
  const AttentionMatch &m = *f.attention;
  const GraphIndex &ix = *m.index;
  ImportGraph &g = n.graph();
  if (x.shape.size() != 2)
    n.refuse("attention over " + spec::formatShape(x.shape, true) +
             "; the registry's MultiheadAttention reads [N, T, E]");
  const int64_t t = x.shape[0], e = x.shape[1];
  for (int i = 0; i < 3; ++i)
    if (m.qkv[i].weight.size(0) != e)
      n.refuse(std::string("the ") + kRole[i] + " projection takes " + std::to_string(m.qkv[i].weight.size(0)) +
               " features, the sequence has " + std::to_string(e));
  const double width = m.scaleDivides ? m.scaleValue * m.scaleValue : 1.0 / (m.scaleValue * m.scaleValue);
  const int64_t hd = std::llround(width);
  if (hd < 1 || std::abs(width - static_cast<double>(hd)) > 1e-3 * static_cast<double>(hd) || e % hd != 0)
    n.refuse("the queries are " + std::string(m.scaleDivides ? "divided" : "multiplied") + " by " +
             numberText(m.scaleValue) + ", which is not 1 / sqrt(E / H) for a number of heads H dividing E = " +
             std::to_string(e) + "; the registry's MultiheadAttention scales by the heads' width");
  const int64_t h = e / hd;
  int64_t chunk[3] = {-1, -1, -1};
  const std::vector<int64_t> batches = g.fileBatch > 0 ? std::vector<int64_t>{g.fileBatch} : std::vector<int64_t>{2, 3};
  for (const int64_t b : batches) {
    std::map<std::string, std::vector<int64_t>> shapes;
    auto set = [&](int node, std::vector<int64_t> shape) {
      if (node >= 0) shapes[out0(ix, node)] = std::move(shape);
    };
    shapes[m.projected] = {t, b, e};
    for (int i = 0; i < 3; ++i) {
      const int64_t w = m.qkv[i].weight.size(1);
      set(m.qkv[i].matmul, {t, b, w});
      set(m.qkv[i].biasAdd, {t, b, w});
      shapes[ix.node(m.reshape[i]).input(0)] = {t, b, e};
      set(m.reshape[i], {t, b * h, hd});
    }
    set(m.heads[0], {b * h, t, hd});
    set(m.heads[1], {b * h, hd, t});
    set(m.heads[2], {b * h, t, hd});
    set(m.scale, {b * h, t, hd});
    for (int node : {m.scores, m.maskMul, m.maskAdd, m.softmax}) set(node, {b * h, t, t});
    set(m.context, {b * h, t, hd});
    set(m.merge, {t, b * h, hd});
    for (int node : {m.flatten, m.outProj, m.outBiasAdd}) set(node, {t * b, e});
    set(m.unflatten, {t, b, e});
    set(m.transposeOut, {b, t, e});
    ShapeEval eval(n, ix, shapes, b);
    auto expect = [&](int r, const std::vector<int64_t> &expected, const std::string &what) {
      std::vector<int64_t> target = eval.ints(ix.node(r).input(1));
      const std::vector<int64_t> in = eval.shapeOf(ix.node(r).input(0));
      int64_t known = 1, count = 1, wildcard = -1;
      for (int64_t d : in) count *= d;
      for (size_t k = 0; k < target.size(); ++k) {
        if (target[k] == 0 && !ix.attrInt(r, "allowzero", 0) && k < in.size()) target[k] = in[k];
        if (target[k] == -1)
          wildcard = static_cast<int64_t>(k);
        else
          known *= target[k];
      }
      if (wildcard >= 0 && known > 0) target[static_cast<size_t>(wildcard)] = count / known;
      if (target != expected)
        n.refuse("Reshape '" + ix.name(r) + "' gives [" + intsText(target) + "] for a batch of " + std::to_string(b) +
                 "; " + what + " [" + intsText(expected) + "] (T " + std::to_string(t) + ", " + std::to_string(h) +
                 " heads of " + std::to_string(hd) + " as the scale says)");
    };
    for (int i = 0; i < 3; ++i)
      expect(m.reshape[i], {t, b * h, hd}, std::string("splitting the ") + kRoles[i] + "' heads gives");
    expect(m.flatten, {t * b, e}, "out_proj reads");
    expect(m.unflatten, {t, b, e}, "attention gives");
    for (int i = 0; i < 3; ++i) {
      if (m.qkv[i].part < 0) continue;
      const int64_t c = chunkOf(n, m, eval, i, e);
      if (chunk[i] >= 0 && chunk[i] != c)
        n.refuse(std::string("which part of the projection the ") + kRoles[i] + " take depends on the batch size");
      chunk[i] = c;
    }
  }

  bool causal = false;
  if (m.mask.defined()) {
    const torch::Tensor mask = m.mask.to(torch::kFloat);
    if (mask.numel() != t * t || mask.size(-1) != t)
      n.refuse("the mask added to the scores has shape [" + intsText(mask.sizes().vec()) + "], not [" +
               std::to_string(t) + ", " + std::to_string(t) + "]");
    const torch::Tensor square = mask.reshape({t, t});
    const torch::Tensor above = torch::ones({t, t}, torch::kBool).triu(1);
    const bool zero = square.eq(0).all().item<bool>();
    causal = square.masked_select(above).eq(-std::numeric_limits<float>::infinity()).all().item<bool>() &&
             square.masked_select(above.logical_not()).eq(0).all().item<bool>();
    if (!zero && !causal)
      n.refuse(
          "the mask added to the scores is neither causal (-inf above the diagonal, 0 elsewhere) nor zero; the "
          "registry's MultiheadAttention masks only causally");
  }

  std::vector<torch::Tensor> weights, biases;
  bool bias = m.outBias.defined();
  for (int i = 0; i < 3; ++i) {
    const AttentionMatch::Projection &pr = m.qkv[i];
    const int64_t c = pr.part >= 0 ? chunk[i] : 0;
    if (pr.part < 0 && pr.weight.size(1) != e)
      n.refuse(std::string("the ") + kRole[i] + " projection gives " + std::to_string(pr.weight.size(1)) +
               " features, not E = " + std::to_string(e));
    weights.push_back(pr.weight.slice(1, c * e, (c + 1) * e).t());
    biases.push_back(pr.bias.defined() ? pr.bias.slice(0, c * e, (c + 1) * e) : torch::zeros({e}));
    bias = bias || pr.bias.defined();
  }
  if (m.outWeight.size(0) != e || m.outWeight.size(1) != e || (m.outBias.defined() && m.outBias.numel() != e))
    n.refuse("out_proj's weight is [" + intsText(m.outWeight.sizes().vec()) + "], not [" + std::to_string(e) + ", " +
             std::to_string(e) + "] with " + std::to_string(e) + " biases");
  std::map<std::string, torch::Tensor> tensors{{"in_proj_weight", torch::cat(weights, 0)},
                                               {"out_proj.weight", m.outWeight}};
  if (bias) {
    // One switch for the four projections: a missing bias is zeros.
    tensors["in_proj_bias"] = torch::cat(biases, 0);
    tensors["out_proj.bias"] = m.outBias.defined() ? m.outBias : torch::zeros({e});
  }
  const size_t node =
      n.add("MultiheadAttention", {{"num_heads", h}, {"bias", bias}, {"causal", causal}}, {x.node}, std::move(tensors));
  // Named after the Softmax's module (encoder.self_attn), not the Transpose it starts at, which
  // may be the caller's; "attention" when the Softmax is in no module ("/Softmax").
  const std::string &softmax = ix.node(m.softmax).name();
  const bool scoped = softmax.find('/', softmax.find_first_not_of('/')) != std::string::npos;
  g.nodes[node].onnxName = scoped ? softmax : "attention";
  f.form += ", " + std::to_string(h) + " heads" + (causal ? ", causal" : "");
  return node;
}

}  // namespace tw::engine::onnx_import
