// GELU's (both forms) and LayerNorm's decompositions found by the graph's structure (who makes and
// who reads each value) and their constants (initializers, Constant nodes, Identity of either), so
// that a match is known before its first node is reached. Each intermediate value must be read by
// the decomposition alone: a value read elsewhere too would have no counterpart once folded.
// Attention is found and built by onnx_attention.h.
#include "core/engine/import/onnx_fusions.h"

#include "core/engine/import/onnx_attention.h"
#include "core/engine/import/onnx_graph_index.h"
#include "core/engine/import/onnx_mappers.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>

namespace tw::engine::onnx_import {

namespace {

std::vector<int64_t> axesOf(const onnx::NodeProto &n, int64_t *keepdims) {
  std::vector<int64_t> axes;
  *keepdims = 1;
  for (const auto &a : n.attribute()) {
    if (a.name() == "axes") axes.assign(a.ints().begin(), a.ints().end());
    if (a.name() == "keepdims") *keepdims = a.i();
  }
  return axes;
}

void record(Fusion f, std::vector<int> members, Fusions &out) {
  std::sort(members.begin(), members.end());
  f.members = std::move(members);
  for (int m : f.members) out.memberOf[m] = out.found.size();
  out.found.push_back(std::move(f));
}

// The tail both GELU forms share, after `inner` (erf's or tanh's result): x * (1 + inner) * 0.5 as
// torch writes it, or (x * 0.5) * (1 + inner) as Torchwright's exporter does. Sets f.output and
// f.form; returns "" or why the nodes differ.
std::string matchGeluTail(const GraphIndex &ix, const std::string &x, int innerNode, const std::string &word,
                          std::vector<int> &seen, Fusion &f) {
  const std::string inner = ix.node(innerNode).output(0);
  const int add = ix.soleReader(inner, "Add");
  if (add < 0 || !ix.scalarIs(other(ix.node(add), inner), 1.0)) return word + "'s result is not read by one Add of 1";
  seen.push_back(add);
  const std::string onePlus = ix.node(add).output(0);
  const int mul = ix.soleReader(onePlus, "Mul");
  if (mul < 0) return "1 + " + word + " is not read by one Mul";
  seen.push_back(mul);
  const std::string with = other(ix.node(mul), onePlus);
  if (with == x) {  // torch: (x * (1 + inner)) * 0.5
    const int half = ix.soleReader(ix.node(mul).output(0), "Mul");
    if (half < 0 || !ix.scalarIs(other(ix.node(half), ix.node(mul).output(0)), 0.5))
      return "x * (1 + " + word + ") is not read by one Mul by 0.5";
    seen.push_back(half);
    f.output = ix.node(half).output(0);
    f.form = "x * (1 + " + f.form + ") * 0.5";
  } else {  // Torchwright's exporter: (x * 0.5) * (1 + inner)
    const int half = ix.producer(with);
    if (half < 0 || ix.node(half).op_type() != "Mul" || ix.soleReader(with, "Mul") != mul ||
        other(ix.node(half), x).empty() || !ix.scalarIs(other(ix.node(half), x), 0.5))
      return "1 + " + word + " is multiplied by neither x nor x * 0.5";
    seen.push_back(half);
    f.output = ix.node(mul).output(0);
    f.form = "x * 0.5 * (1 + " + f.form + ")";
  }
  return {};
}

// nn.GELU(): x * (1 + erf(x / sqrt 2)) * 0.5, anchored on the Erf.
void matchGelu(const GraphIndex &ix, int erf, Fusions &out) {
  const onnx::NodeProto &e = ix.node(erf);
  const int div = ix.producer(e.input(0));
  std::vector<int> seen{erf};
  auto miss = [&](const std::string &why) {
    const int at = *std::min_element(seen.begin(), seen.end());
    out.nearMisses[at] = "Erf '" + ix.name(erf) +
                         "' is not part of GELU's decomposition x * (1 + erf(x / sqrt 2)) * 0.5 (" + why +
                         "; nodes seen: " + memberList(ix, seen) + "); the registry has Erf only inside GELU";
  };
  if (div < 0 || ix.node(div).op_type() != "Div") return miss("its input is not a Div");
  seen.push_back(div);
  const onnx::NodeProto &d = ix.node(div);
  const std::string x = d.input(0);
  if (!ix.scalarIs(d.input(1), std::sqrt(2.0), 1e-6)) return miss("the Div's divisor is not the constant sqrt 2");
  if (ix.isConstant(x)) return miss("it divides a constant");
  if (ix.soleReader(d.output(0), "Erf") != erf) return miss("the Div's result is read by other nodes too");
  Fusion f;
  f.op = "GELU";
  f.input = x;
  f.form = "erf(x / sqrt 2)";
  const std::string why = matchGeluTail(ix, x, erf, "erf", seen, f);
  if (!why.empty()) return miss(why);
  record(std::move(f), seen, out);
}

// nn.GELU(approximate='tanh'): x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 x^3))) * 0.5, anchored on
// the Tanh. Torch writes x^3 as Mul(x, Mul(x, x)); Pow(x, 3) is read too. A Tanh is taken for the
// start of one only when it reads a Mul by sqrt(2 / pi); any other Tanh is a Tanh.
void matchTanhGelu(const GraphIndex &ix, int tanh, Fusions &out) {
  const int scale = ix.producer(ix.node(tanh).input(0));
  if (scale < 0 || ix.node(scale).op_type() != "Mul") return;
  const std::string scaled = ix.node(scale).output(0);
  std::string inner;
  for (const std::string &in : ix.node(scale).input())
    if (ix.scalarIs(in, std::sqrt(2.0 / M_PI), 1e-6)) inner = other(ix.node(scale), in);
  if (inner.empty()) return;
  std::vector<int> seen{scale, tanh};
  // A line under the refusal, not at a node: the constant Muls before the Tanh are refused on
  // their own, and a node after one of them is never reached.
  auto miss = [&](const std::string &why) {
    out.notes.push_back("Tanh '" + ix.name(tanh) +
                        "' of sqrt(2 / pi) * ... begins GELU's tanh approximation x * (1 + tanh(sqrt(2 / pi) * "
                        "(x + 0.044715 x^3))) * 0.5 but differs (" +
                        why + "; nodes seen: " + memberList(ix, seen) + ")");
  };
  if (ix.soleReader(scaled, "Tanh") != tanh) return miss("sqrt(2 / pi) * ... is read by other nodes too");
  const int add = ix.producer(inner);
  if (add < 0 || ix.node(add).op_type() != "Add" || ix.soleReader(inner, "Mul") != scale)
    return miss("what tanh scales is not an Add read by it alone");
  seen.push_back(add);
  // One side of the Add is x, the other 0.044715 * x^3.
  std::string x;
  int cubic = -1, cube = -1, square = -1;
  for (int side = 0; side < 2 && cubic < 0; ++side) {
    const std::string term = ix.node(add).input(side), rest = ix.node(add).input(1 - side);
    const int c = ix.producer(term);
    if (c < 0 || ix.node(c).op_type() != "Mul" || ix.soleReader(term, "Add") != add) continue;
    for (const std::string &in : ix.node(c).input()) {
      if (!ix.scalarIs(in, 0.044715, 1e-7)) continue;
      const std::string cubed = other(ix.node(c), in);
      const int p = ix.producer(cubed);
      if (p < 0 || ix.soleReader(cubed, "Mul") != c) continue;
      const onnx::NodeProto &pn = ix.node(p);
      if (pn.op_type() == "Pow" && pn.input(0) == rest && ix.scalarIs(pn.input(1), 3.0)) {
        cubic = c, cube = p, x = rest;
      } else if (pn.op_type() == "Mul" && pn.input_size() == 2) {
        // x * (x * x), in either order.
        const std::string sq = pn.input(0) == rest ? pn.input(1) : pn.input(1) == rest ? pn.input(0) : std::string();
        const int s = sq.empty() ? -1 : ix.producer(sq);
        if (s >= 0 && ix.node(s).op_type() == "Mul" && ix.node(s).input(0) == rest && ix.node(s).input(1) == rest &&
            ix.soleReader(sq, "Mul") == p)
          cubic = c, cube = p, square = s, x = rest;
      }
    }
  }
  if (cubic < 0) return miss("the Add is not x + 0.044715 * x^3 with x^3 as Pow(x, 3) or x * (x * x) read by it alone");
  if (ix.isConstant(x)) return miss("it computes a constant");
  for (int m : {cubic, cube, square})
    if (m >= 0) seen.push_back(m);
  Fusion f;
  f.op = "GELU";
  f.approximate = "tanh";
  f.input = x;
  f.form = "tanh(sqrt(2 / pi) * (x + 0.044715 x^3))";
  const std::string why = matchGeluTail(ix, x, tanh, "tanh", seen, f);
  if (!why.empty()) return miss(why);
  record(std::move(f), seen, out);
}

// (x - mean(x)) / sqrt(mean((x - mean(x))^2) + eps) * weight + bias over the same axes; anchored
// on a ReduceMean read by one Sub of its own input (x - mean(x)), which nothing else writes.
void matchLayerNorm(const GraphIndex &ix, int first, Fusions &out) {
  const onnx::NodeProto &r1 = ix.node(first);
  const std::string x = r1.input(0);
  const int sub = ix.soleReader(r1.output(0), "Sub");
  if (sub < 0 || ix.node(sub).input(0) != x || ix.node(sub).input(1) != r1.output(0)) return;  // an ordinary mean
  std::vector<int> seen{first, sub};
  auto miss = [&](const std::string &why) {
    out.nearMisses[first] = "it begins a layer norm's decomposition (x - mean(x)) that differs from torch's (" + why +
                            "; nodes seen: " + memberList(ix, seen) +
                            "); the importer folds ReduceMean, Sub, Pow 2, ReduceMean, Add eps, Sqrt, Div, Mul weight, "
                            "Add bias into one LayerNorm";
  };
  int64_t keep1 = 1, keep2 = 1;
  const std::vector<int64_t> axes = axesOf(r1, &keep1);
  if (keep1 != 1) return miss("the mean drops its axes (keepdims 0)");
  const std::string centred = ix.node(sub).output(0);
  int square = -1, div = -1;
  for (int r : ix.readers(centred)) {
    const onnx::NodeProto &n = ix.node(r);
    if (n.op_type() == "Pow" && n.input(0) == centred) square = r;
    else if (n.op_type() == "Mul" && n.input(0) == centred && n.input(1) == centred) square = r;
    else if (n.op_type() == "Div" && n.input(0) == centred) div = r;
  }
  if (square < 0) return miss("x - mean(x) is not squared by a Pow or a Mul of itself");
  seen.push_back(square);
  const onnx::NodeProto &sq = ix.node(square);
  if (sq.op_type() == "Pow" && !ix.scalarIs(sq.input(1), 2.0)) return miss("Pow's exponent is not the constant 2");
  const size_t expectedReads = sq.op_type() == "Mul" ? 3 : 2;
  if (div < 0 || ix.readers(centred).size() != expectedReads) return miss("x - mean(x) is read by other nodes than the square and one Div");
  const int r2 = ix.soleReader(sq.output(0), "ReduceMean");
  if (r2 < 0) return miss("the square is not read by one ReduceMean");
  seen.push_back(r2);
  if (axesOf(ix.node(r2), &keep2) != axes || keep2 != 1) return miss("the two means are over different axes");
  const int addEps = ix.soleReader(ix.node(r2).output(0), "Add");
  if (addEps < 0) return miss("the variance is not read by one Add");
  seen.push_back(addEps);
  const auto eps = ix.constant(other(ix.node(addEps), ix.node(r2).output(0)));
  if (!eps || eps->numel() != 1 || !eps->is_floating_point()) return miss("eps is not a one-value constant");
  const int root = ix.soleReader(ix.node(addEps).output(0), "Sqrt");
  if (root < 0) return miss("variance + eps is not read by one Sqrt");
  seen.push_back(root);
  if (ix.soleReader(ix.node(root).output(0), "Div") != div || ix.node(div).input(1) != ix.node(root).output(0))
    return miss("x - mean(x) is not divided by the Sqrt");
  seen.push_back(div);

  Fusion f;
  f.op = "LayerNorm";
  f.input = x;
  f.axes = axes;
  f.eps = eps->to(torch::kFloat).item<float>();
  f.output = ix.node(div).output(0);
  f.form = "(x - mean) / sqrt(var + eps)";
  // The affine terms: a Mul by a constant, then an Add of one.
  const int mul = ix.soleReader(f.output, "Mul");
  if (mul >= 0 && ix.isConstant(other(ix.node(mul), f.output))) {
    const std::string w = other(ix.node(mul), f.output);
    f.weight = *ix.constant(w);
    f.weightName = w;
    f.output = ix.node(mul).output(0);
    f.form += " * weight";
    seen.push_back(mul);
  }
  const int add = ix.soleReader(f.output, "Add");
  if (add >= 0 && ix.isConstant(other(ix.node(add), f.output))) {
    f.bias = *ix.constant(other(ix.node(add), f.output));
    f.output = ix.node(add).output(0);
    f.form += " + bias";
    seen.push_back(add);
  }
  record(std::move(f), seen, out);
}

}  // namespace

Fusions findFusions(const onnx::GraphProto &graph, const ImportGraph &g) {
  // Shared: attention keeps it to compute its shape arithmetic when built.
  const auto index = std::make_shared<const GraphIndex>(graph, &g);
  const GraphIndex &ix = *index;
  Fusions out;
  for (int i = 0; i < graph.node_size(); ++i) {
    const std::string &op = graph.node(i).op_type();
    if (op == "Erf") matchGelu(ix, i, out);
    else if (op == "Tanh") matchTanhGelu(ix, i, out);
    else if (op == "Softmax") matchAttention(index, i, out);
    else if (op == "ReduceMean" && graph.node(i).input_size() == 1) matchLayerNorm(ix, i, out);
  }
  return out;
}

void buildFusion(NodeImport &n, Fusion &f) {
  ImportGraph &g = n.graph();
  auto it = g.values.find(f.input);
  if (it == g.values.end() || it->second.constant())
    n.refuse(f.op + "'s input '" + f.input + "' is not a computed value");
  const ImportValue x = it->second;
  size_t node = 0;
  if (f.op == "GELU") {
    spec::ParamMap params;
    if (!f.approximate.empty()) params["approximate"] = f.approximate;
    node = n.add("GELU", std::move(params), {x.node});
  } else if (f.op == "MultiheadAttention") {
    node = buildAttention(n, f, x);
  } else {
    const int64_t rank = static_cast<int64_t>(x.shape.size()) + 1;
    std::vector<int64_t> axes = f.axes;
    for (int64_t &a : axes) a = axisOf(n, a, rank, "axes");
    if (axes != std::vector<int64_t>{rank - 1})
      n.refuse("a layer norm over axes " + intsText(axes) + " of a rank-" + std::to_string(rank) +
               " value; the registry's LayerNorm normalises the last axis only");
    const int64_t e = x.shape.back();
    spec::ParamMap params{{"eps", tidyFloat(f.eps)}, {"elementwise_affine", f.weight.defined() || f.bias.defined()}};
    std::map<std::string, torch::Tensor> tensors;
    if (f.weight.defined() || f.bias.defined()) {
      for (const auto &[name, t] : {std::pair<std::string, torch::Tensor>{"weight", f.weight}, {"bias", f.bias}}) {
        if (t.defined() && (t.numel() != e || t.size(-1) != e))
          n.refuse("the layer norm's " + name + " has " + std::to_string(t.numel()) + " values for the last axis's " +
                   std::to_string(e) + "; LayerNorm's is one per feature");
        tensors[name] = t.defined() ? t.reshape({e}) : name == "weight" ? torch::ones({e}) : torch::zeros({e});
      }
    }
    node = n.add("LayerNorm", std::move(params), {x.node}, std::move(tensors), f.weightName);
  }
  // The node computes the decomposition's last value, not its first node's.
  const std::string first = n.proto().output_size() > 0 ? n.proto().output(0) : std::string();
  ImportValue value = g.values.at(first);
  g.values.erase(first);
  g.values[f.output] = value;
  g.nodes[node].onnxOutput = f.output;
  n.row().note = f.form + ", " + std::to_string(f.members.size()) + " nodes";
  f.built = static_cast<int64_t>(node);
}

}  // namespace tw::engine::onnx_import
