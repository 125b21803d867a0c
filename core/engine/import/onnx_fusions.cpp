// GELU's and LayerNorm's decompositions found by the graph's structure (who makes and who reads
// each value) and their constants (initializers, Constant nodes, Identity of either), so that a
// match is known before its first node is reached. Each intermediate value must be read by the
// decomposition alone: a value read elsewhere too would have no counterpart once folded.
#include "core/engine/import/onnx_fusions.h"

#include "core/engine/import/onnx_mappers.h"
#include "core/engine/import/onnx_tensor.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

namespace tw::engine::onnx_import {

namespace {

using Fate = ImportRow::Fate;

// Producers, readers and constants of one graph, by value name.
class GraphIndex {
 public:
  GraphIndex(const onnx::GraphProto &graph, const ImportGraph *g) : m_graph(graph), m_g(g) {
    for (int i = 0; i < graph.node_size(); ++i) {
      for (const std::string &out : graph.node(i).output()) m_producer[out] = i;
      for (const std::string &in : graph.node(i).input())
        if (!in.empty()) m_readers[in].push_back(i);
    }
    for (const auto &out : graph.output()) m_outputs.insert(out.name());
    for (const auto &t : graph.initializer()) m_initializers.insert(t.name());
  }

  const onnx::NodeProto &node(int i) const { return m_graph.node(i); }
  std::string name(int i) const {
    return node(i).name().empty() ? node(i).op_type() + " #" + std::to_string(i + 1) : node(i).name();
  }
  int producer(const std::string &value) const {
    auto it = m_producer.find(value);
    return it == m_producer.end() ? -1 : it->second;
  }
  // Reads of `value` by nodes, one per input slot (Mul(d, d) reads d twice).
  const std::vector<int> &readers(const std::string &value) const {
    static const std::vector<int> none;
    auto it = m_readers.find(value);
    return it == m_readers.end() ? none : it->second;
  }
  // The one node reading `value`, when it has operator `op` and the value is no graph output.
  int soleReader(const std::string &value, const std::string &op) const {
    const std::vector<int> &r = readers(value);
    if (r.size() != 1 || m_outputs.count(value) || node(r[0]).op_type() != op) return -1;
    return r[0];
  }
  bool isConstant(const std::string &value) const {
    if (m_initializers.count(value)) return true;
    const int p = producer(value);
    return p >= 0 && (node(p).op_type() == "Constant" || (node(p).op_type() == "Identity" && isConstant(node(p).input(0))));
  }
  // The value of an initializer, a Constant node or an Identity of either (needs the import graph).
  std::optional<torch::Tensor> constant(const std::string &value) const {
    if (m_g) {
      auto it = m_g->values.find(value);
      if (it != m_g->values.end() && it->second.constant() && !it->second.hasBatch()) return it->second.tensor;
    }
    const int p = producer(value);
    if (p < 0) return std::nullopt;
    const onnx::NodeProto &n = node(p);
    if (n.op_type() == "Identity") return constant(n.input(0));
    if (n.op_type() != "Constant") return std::nullopt;
    for (const auto &a : n.attribute()) {
      if (a.name() == "value" && a.has_t()) return tensorFromOnnx(a.t(), m_g ? m_g->file : std::string());
      if (a.name() == "value_float") return torch::tensor(a.f());
    }
    return std::nullopt;
  }
  // A one-element constant equal to `expected` (within `tolerance`).
  bool scalarIs(const std::string &value, double expected, double tolerance = 1e-7) const {
    const auto t = constant(value);
    return t && t->numel() == 1 && t->is_floating_point() &&
           std::abs(t->to(torch::kDouble).item<double>() - expected) <= tolerance;
  }

 private:
  const onnx::GraphProto &m_graph;
  const ImportGraph *m_g;
  std::map<std::string, int> m_producer;
  std::map<std::string, std::vector<int>> m_readers;
  std::set<std::string> m_outputs, m_initializers;
};

// The input of a two-input node other than `value`; "" when neither or both are `value`.
std::string other(const onnx::NodeProto &n, const std::string &value) {
  if (n.input_size() != 2) return {};
  if (n.input(0) == value && n.input(1) != value) return n.input(1);
  if (n.input(1) == value && n.input(0) != value) return n.input(0);
  return {};
}

std::vector<int64_t> axesOf(const onnx::NodeProto &n, int64_t *keepdims) {
  std::vector<int64_t> axes;
  *keepdims = 1;
  for (const auto &a : n.attribute()) {
    if (a.name() == "axes") axes.assign(a.ints().begin(), a.ints().end());
    if (a.name() == "keepdims") *keepdims = a.i();
  }
  return axes;
}

std::string memberList(const GraphIndex &ix, std::vector<int> members) {
  std::sort(members.begin(), members.end());
  std::string text;
  for (int m : members) text += (text.empty() ? "" : ", ") + ix.node(m).op_type() + " '" + ix.name(m) + "'";
  return text;
}

// x * (1 + erf(x / sqrt 2)) * 0.5 as torch writes it, or (x * 0.5) * (1 + erf(x / sqrt 2)) as
// Torchwright's exporter does; anchored on the Erf.
void matchGelu(const GraphIndex &ix, int erf, Fusions &out) {
  const onnx::NodeProto &e = ix.node(erf);
  const int div = ix.producer(e.input(0));
  std::vector<int> seen{erf};
  auto miss = [&](const std::string &why) {
    const int at = *std::min_element(seen.begin(), seen.end());
    out.nearMisses[at] = "Erf '" + ix.name(erf) + "' is not part of GELU's decomposition x * (1 + erf(x / sqrt 2)) * 0.5 (" +
                         why + "; nodes seen: " + memberList(ix, seen) + "); the registry has Erf only inside GELU";
  };
  if (div < 0 || ix.node(div).op_type() != "Div") return miss("its input is not a Div");
  seen.push_back(div);
  const onnx::NodeProto &d = ix.node(div);
  const std::string x = d.input(0);
  if (!ix.scalarIs(d.input(1), std::sqrt(2.0), 1e-6)) return miss("the Div's divisor is not the constant sqrt 2");
  if (ix.isConstant(x)) return miss("it divides a constant");
  if (ix.soleReader(d.output(0), "Erf") != erf) return miss("the Div's result is read by other nodes too");
  const int add = ix.soleReader(e.output(0), "Add");
  if (add < 0 || !ix.scalarIs(other(ix.node(add), e.output(0)), 1.0)) return miss("erf's result is not read by one Add of 1");
  seen.push_back(add);
  Fusion f;
  f.op = "GELU";
  f.input = x;
  const std::string onePlus = ix.node(add).output(0);
  const int mul = ix.soleReader(onePlus, "Mul");
  if (mul < 0) return miss("1 + erf is not read by one Mul");
  seen.push_back(mul);
  const std::string with = other(ix.node(mul), onePlus);
  if (with == x) {  // torch: (x * (1 + erf)) * 0.5
    const int half = ix.soleReader(ix.node(mul).output(0), "Mul");
    if (half < 0 || !ix.scalarIs(other(ix.node(half), ix.node(mul).output(0)), 0.5))
      return miss("x * (1 + erf) is not read by one Mul by 0.5");
    seen.push_back(half);
    f.output = ix.node(half).output(0);
    f.form = "x * (1 + erf(x / sqrt 2)) * 0.5";
  } else {  // Torchwright's exporter: (x * 0.5) * (1 + erf)
    const int half = ix.producer(with);
    if (half < 0 || ix.node(half).op_type() != "Mul" || ix.soleReader(with, "Mul") != mul ||
        other(ix.node(half), x).empty() || !ix.scalarIs(other(ix.node(half), x), 0.5))
      return miss("1 + erf is multiplied by neither x nor x * 0.5");
    seen.push_back(half);
    f.output = ix.node(mul).output(0);
    f.form = "x * 0.5 * (1 + erf(x / sqrt 2))";
  }
  f.members = seen;
  std::sort(f.members.begin(), f.members.end());
  for (int m : f.members) out.memberOf[m] = out.found.size();
  out.found.push_back(std::move(f));
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
  f.members = seen;
  std::sort(f.members.begin(), f.members.end());
  for (int m : f.members) out.memberOf[m] = out.found.size();
  out.found.push_back(std::move(f));
}

}  // namespace

Fusions findFusions(const onnx::GraphProto &graph, const ImportGraph &g) {
  const GraphIndex ix(graph, &g);
  Fusions out;
  for (int i = 0; i < graph.node_size(); ++i) {
    const std::string &op = graph.node(i).op_type();
    if (op == "Erf") matchGelu(ix, i, out);
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
    node = n.add("GELU", {}, {x.node});
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

std::string attentionNote(const onnx::GraphProto &graph) {
  const GraphIndex ix(graph, nullptr);
  auto computedMatMul = [&](int i) {
    return i >= 0 && ix.node(i).op_type() == "MatMul" && !ix.isConstant(ix.node(i).input(0)) &&
           !ix.isConstant(ix.node(i).input(1));
  };
  std::vector<std::string> blocks;
  for (int s = 0; s < graph.node_size(); ++s) {
    if (graph.node(s).op_type() != "Softmax") continue;
    // The scores: a MatMul of two computed values, through a mask's Add, a scale's Div or Mul.
    int scores = ix.producer(graph.node(s).input(0));
    for (int step = 0; step < 4 && scores >= 0 && !computedMatMul(scores); ++step) {
      const onnx::NodeProto &p = ix.node(scores);
      static const std::set<std::string> through{"Add", "Div", "Mul", "Sub", "Where", "Cast"};
      if (!through.count(p.op_type())) break;
      std::string next;
      for (const std::string &in : p.input())
        if (!in.empty() && !ix.isConstant(in) && next.empty()) next = in;
      scores = next.empty() ? -1 : ix.producer(next);
    }
    // The context: a MatMul of the weights (through Dropout) with the values.
    int context = -1;
    std::vector<std::string> outs{graph.node(s).output(0)};
    for (int r : ix.readers(graph.node(s).output(0)))
      if (ix.node(r).op_type() == "Dropout") outs.push_back(ix.node(r).output(0));
    for (const std::string &v : outs)
      for (int r : ix.readers(v))
        if (computedMatMul(r)) context = r;
    if (computedMatMul(scores) && context >= 0)
      blocks.push_back("'" + ix.name(scores) + "', '" + ix.name(s) + "', '" + ix.name(context) + "'");
  }
  if (blocks.empty()) return {};
  std::string text = "Attention import is not supported yet: " + std::to_string(blocks.size()) +
                     " attention block" + (blocks.size() == 1 ? "" : "s") + " (MatMul, Softmax, MatMul: ";
  for (size_t i = 0; i < blocks.size() && i < 4; ++i) text += (i ? "; " : "") + blocks[i];
  if (blocks.size() > 4) text += "; and " + std::to_string(blocks.size() - 4) + " more";
  return text + ") over heads split by Reshape and Transpose: the importer does not fold attention into the "
                "registry's MultiheadAttention or TransformerEncoderLayer.\n";
}

}  // namespace tw::engine::onnx_import
