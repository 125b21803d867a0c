// Found from the Softmax outwards, each value checked to be read by the next node alone (Shape
// nodes aside, which read only sizes), so that folding the block loses nothing; then every node
// between the projections' input and the output is either one of those or shape arithmetic, or the
// block is noted as not folded. What the structure cannot show (the head split's sizes, which chunk
// is which) is computed when the block is built (onnx_attention_build.cpp).
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <set>

#include "core/engine/import/onnx_attention.h"

namespace tw::engine::onnx_import {

namespace {

struct Miss {
  std::string why;
};

[[noreturn]] void fail(const std::string &why) { throw Miss{why}; }

bool isOp(const GraphIndex &ix, int i, const char *op) { return i >= 0 && ix.node(i).op_type() == op; }
bool computed(const GraphIndex &ix, const std::string &v) { return !v.empty() && !ix.isConstant(v); }
bool transposeIs(const GraphIndex &ix, int i, const std::vector<int64_t> &perm) {
  return isOp(ix, i, "Transpose") && ix.attrInts(i, "perm") == perm;
}
const std::string &out0(const GraphIndex &ix, int i) { return ix.node(i).output(0); }

// A Softmax between a MatMul of two computed values (through a mask's Add, a scale's Div or Mul)
// and a MatMul of its output with another computed value: attention, whatever else surrounds it.
bool looksLikeAttention(const GraphIndex &ix, int s) {
  auto computedMatMul = [&](int i) {
    return isOp(ix, i, "MatMul") && computed(ix, ix.node(i).input(0)) && computed(ix, ix.node(i).input(1));
  };
  static const std::set<std::string> through{"Add", "Div", "Mul", "Sub", "Where", "Cast"};
  int scores = ix.producer(ix.node(s).input(0));
  for (int step = 0; step < 4 && scores >= 0 && !computedMatMul(scores); ++step) {
    if (!through.count(ix.node(scores).op_type())) return false;
    std::string next;
    for (const std::string &in : ix.node(scores).input())
      if (computed(ix, in) && next.empty()) next = in;
    scores = next.empty() ? -1 : ix.producer(next);
  }
  if (!computedMatMul(scores)) return false;
  std::vector<std::string> outs{out0(ix, s)};
  for (int r : ix.readers(outs[0]))
    if (isOp(ix, r, "Dropout")) outs.push_back(out0(ix, r));
  for (const std::string &v : outs)
    for (int r : ix.readers(v))
      if (computedMatMul(r)) return true;
  return false;
}

class Matcher {
 public:
  Matcher(const GraphIndex &ix, AttentionMatch &m) : ix(ix), m(m) {}

  const GraphIndex &ix;
  AttentionMatch &m;
  std::vector<int> seen;

  // The one reader of `value` besides Shape nodes (which only read its size, and are folded with
  // the block), when it has operator `op` and the value is no graph output; else -1.
  int sole(const std::string &value, const char *op) const {
    int found = -1;
    for (int r : ix.readers(value)) {
      if (ix.node(r).op_type() == "Shape") continue;
      if (found >= 0 && found != r) return -1;
      found = r;
    }
    return found >= 0 && !ix.isGraphOutput(value) && ix.node(found).op_type() == op ? found : -1;
  }
  int see(int i) {
    seen.push_back(i);
    return i;
  }
  // The node reading `value`, alone and with operator `op`.
  int next(const std::string &value, const char *op, const std::string &why) {
    const int r = sole(value, op);
    if (r < 0) fail(why);
    return see(r);
  }
  // A constant's value: an initializer, a Constant node's tensor or value_float.
  torch::Tensor tensor(const std::string &value) const {
    const auto t = ix.constant(value);
    if (!t) fail("the constant '" + value + "' is not a tensor the importer reads");
    return *t;
  }
  // The constant operand of a two-input node and the other, computed, one.
  bool split(int i, std::string &constant, std::string &data) const {
    const onnx::NodeProto &n = ix.node(i);
    if (n.input_size() != 2) return false;
    for (int k = 0; k < 2; ++k) {
      if (ix.isConstant(n.input(k)) && computed(ix, n.input(1 - k))) {
        constant = n.input(k), data = n.input(1 - k);
        return true;
      }
    }
    return false;
  }

  void scores() {
    const int s = m.softmax;
    const int64_t axis = ix.attrInt(s, "axis", ix.opset() >= 13 ? -1 : 1);
    if (axis != -1 && axis != 2)
      fail("the Softmax is over axis " + std::to_string(axis) + ", not the keys' (the last)");
    std::string into = ix.node(s).input(0), constant, data;
    int p = ix.producer(into);
    if (isOp(ix, p, "Add")) {
      if (!split(p, constant, data))
        fail("the scores' Add adds a computed value, a mask the registry's causal switch cannot express");
      m.maskAdd = see(p);
      m.mask = tensor(constant);
      if (sole(data, "Add") != p) fail("the scores are read by other nodes than the mask's Add");
      p = ix.producer(into = data);
    }
    if (isOp(ix, p, "Mul") && split(p, constant, data) && ix.scalarIs(constant, 1.0)) {  // baddbmm's alpha
      m.maskMul = see(p);
      if (sole(data, "Mul") != p) fail("the scores are read by other nodes than the Mul by 1");
      p = ix.producer(into = data);
    }
    if (!isOp(ix, p, "MatMul"))
      fail("the Softmax does not read a MatMul of the queries and keys (through a constant mask)");
    m.scores = see(p);
    const int reader = m.maskMul >= 0 ? m.maskMul : m.maskAdd >= 0 ? m.maskAdd : s;
    if (sole(into, ix.node(reader).op_type().c_str()) != reader) fail("the scores are read by other nodes too");
    const std::string scaled = ix.node(p).input(0), keys = ix.node(p).input(1);
    const int sc = ix.producer(scaled);
    std::string q;
    if (isOp(ix, sc, "Div") && ix.isConstant(ix.node(sc).input(1))) {
      q = ix.node(sc).input(0), constant = ix.node(sc).input(1);
    } else if (!(isOp(ix, sc, "Mul") && split(sc, constant, q))) {
      fail("the queries are not scaled by a constant (Div or Mul) before the scores' MatMul");
    }
    const auto c = ix.constant(constant);
    if (!c || c->numel() != 1 || !c->is_floating_point()) fail("the queries' scale is not one constant number");
    m.scale = see(sc);
    m.scaleDivides = ix.node(sc).op_type() == "Div";
    m.scaleValue = c->to(torch::kDouble).item<double>();
    if (sole(scaled, "MatMul") != p) fail("the scaled queries are read by other nodes too");
    m.heads[0] = see(ix.producer(q));
    if (!transposeIs(ix, m.heads[0], {1, 0, 2}) || sole(q, ix.node(sc).op_type().c_str()) != sc)
      fail("the queries are not a Transpose (1, 0, 2) of their head split read by the scale alone");
    m.heads[1] = see(ix.producer(keys));
    if (!transposeIs(ix, m.heads[1], {1, 2, 0}) || sole(keys, "MatMul") != p)
      fail("the keys are not a Transpose (1, 2, 0) of their head split read by the scores' MatMul alone");
    m.context = sole(out0(ix, s), "MatMul");
    if (m.context < 0 || ix.node(m.context).input(0) != out0(ix, s))
      fail("the attention weights (the Softmax's output) are read by other nodes than one MatMul with the values");
    see(m.context);
    const std::string values = ix.node(m.context).input(1);
    m.heads[2] = see(ix.producer(values));
    if (!transposeIs(ix, m.heads[2], {1, 0, 2}) || sole(values, "MatMul") != m.context)
      fail("the values are not a Transpose (1, 0, 2) of their head split read by the context's MatMul alone");
    for (int i = 0; i < 3; ++i) {
      const std::string cut = ix.node(m.heads[i]).input(0);
      m.reshape[i] = ix.producer(cut);
      if (!isOp(ix, m.reshape[i], "Reshape") || sole(cut, "Transpose") != m.heads[i])
        fail(std::string("the ") + kRoles[i] + "' heads are not split by a Reshape read by their Transpose alone");
      see(m.reshape[i]);
    }
  }

  // The projection that reshape i reads: whole, a Slice of a packed one or an output of its Split.
  void projection(int i) {
    const std::string value = ix.node(m.reshape[i]).input(0);
    AttentionMatch::Projection &pr = m.qkv[i];
    const std::string role = kRole[i];
    if (sole(value, "Reshape") != m.reshape[i]) fail("the " + role + " projection is read by other nodes too");
    std::string whole = value, constant, data;
    const int p = ix.producer(value);
    if (isOp(ix, p, "Slice") || isOp(ix, p, "Split")) {
      pr.part = see(p);
      whole = ix.node(p).input(0);
      const auto &outs = ix.node(p).output();
      pr.partOutput = static_cast<int>(std::find(outs.begin(), outs.end(), value) - outs.begin());
    }
    int mm = ix.producer(whole);
    if (isOp(ix, mm, "Add") && split(mm, constant, data)) {
      pr.biasAdd = see(mm);
      pr.bias = tensor(constant).reshape({-1});
      if (sole(data, "Add") != mm)
        fail("the " + role + " projection's MatMul is read by other nodes than its bias Add");
      mm = ix.producer(data);
    }
    if (!isOp(ix, mm, "MatMul") || !ix.isConstant(ix.node(mm).input(1)))
      fail("the " + role + " projection is not a MatMul by a constant weight (and an Add of a constant bias)");
    pr.matmul = see(mm);
    pr.weight = tensor(ix.node(mm).input(1));
    if (pr.weight.dim() != 2)
      fail("the " + role + " projection's weight has " + std::to_string(pr.weight.dim()) + " dimensions");
    if (pr.bias.defined() && pr.bias.numel() != pr.weight.size(1))
      fail("the " + role + " projection's bias has " + std::to_string(pr.bias.numel()) + " values for " +
           std::to_string(pr.weight.size(1)) + " outputs");
    const std::string &x = ix.node(mm).input(0);
    if (m.projected.empty()) m.projected = x;
    if (x != m.projected)
      fail(std::string("the ") + kRoles[i] + " are projected from '" + x + "', the queries from '" + m.projected +
           "': cross-attention, where the registry's MultiheadAttention attends a sequence to itself");
  }

  // Transpose, Reshape [T*N, E], out_proj (Gemm, or MatMul and an Add), Reshape [T, N, E], Transpose.
  std::string output() {
    m.merge = next(out0(ix, m.context), "Transpose", "the context is not read by one Transpose alone");
    if (!transposeIs(ix, m.merge, {1, 0, 2})) fail("the context's Transpose is not (1, 0, 2)");
    m.flatten = next(out0(ix, m.merge), "Reshape", "the context's Transpose is not read by one Reshape alone");
    const std::string flat = out0(ix, m.flatten);
    int o = sole(flat, "Gemm");
    if (o < 0) o = sole(flat, "MatMul");
    if (o < 0 || ix.node(o).input(0) != flat)
      fail("the merged heads are not read by one out_proj (Gemm or MatMul) alone");
    m.outProj = see(o);
    const onnx::NodeProto &n = ix.node(o);
    std::string result = out0(ix, o), constant, data;
    if (n.op_type() == "Gemm") {
      if (!ix.isConstant(n.input(1)) || (n.input_size() > 2 && !n.input(2).empty() && !ix.isConstant(n.input(2))) ||
          ix.attrInt(o, "transA", 0) != 0)
        fail("out_proj's Gemm does not multiply by a constant weight (and add a constant bias)");
      float alpha = 1, beta = 1;
      for (const auto &a : n.attribute()) {
        if (a.name() == "alpha") alpha = a.f();
        if (a.name() == "beta") beta = a.f();
      }
      const torch::Tensor w = tensor(n.input(1));
      m.outWeight = (ix.attrInt(o, "transB", 0) ? w : w.t()) * alpha;
      if (n.input_size() > 2 && !n.input(2).empty()) m.outBias = tensor(n.input(2)).reshape({-1}) * beta;
    } else if (n.op_type() == "MatMul" && ix.isConstant(n.input(1))) {
      m.outWeight = tensor(n.input(1)).t();
      const int add = sole(result, "Add");
      if (add >= 0 && split(add, constant, data)) {
        m.outBiasAdd = see(add);
        m.outBias = tensor(constant).reshape({-1});
        result = out0(ix, add);
      }
    } else {
      fail("out_proj is not a Gemm or a MatMul by a constant weight");
    }
    if (m.outWeight.dim() != 2) fail("out_proj's weight is not a matrix");
    m.unflatten = next(result, "Reshape", "out_proj is not read by one Reshape alone");
    if (ix.node(m.unflatten).input(0) != result) fail("out_proj's result is the target of its Reshape");
    m.transposeOut = next(out0(ix, m.unflatten), "Transpose", "the output is not read by one Transpose alone");
    if (!transposeIs(ix, m.transposeOut, {1, 0, 2}))
      fail("the output's Transpose is not (1, 0, 2): the block does not give the batch back its place");
    return out0(ix, m.transposeOut);
  }

  // Every node between x' and the output: those matched and shape arithmetic, nothing read outside.
  std::vector<int> members(const std::string &y) {
    std::set<int> forward, block;
    std::vector<int> stack(ix.readers(m.projected));
    while (!stack.empty()) {
      const int i = stack.back();
      stack.pop_back();
      if (!forward.insert(i).second) continue;
      for (const std::string &o : ix.node(i).output())
        if (o != y)
          for (int r : ix.readers(o)) stack.push_back(r);
    }
    stack = {m.transposeOut};
    while (!stack.empty()) {
      const int i = stack.back();
      stack.pop_back();
      if (!block.insert(i).second) continue;
      for (const std::string &in : ix.node(i).input()) {
        const int p = in.empty() || in == m.projected ? -1 : ix.producer(in);
        if (p >= 0 && forward.count(p)) stack.push_back(p);
      }
    }
    for (int i : forward)
      if (!block.count(i))
        fail(ix.node(i).op_type() + " '" + ix.name(i) +
             "' reads a value inside the block but does not lead to its output "
             "(the attention weights returned too?)");
    const std::set<int> core(m.core.begin(), m.core.end());
    block.insert(m.transposeIn);
    for (int i : block) {
      for (const std::string &o : ix.node(i).output())
        if (o != y && ix.isGraphOutput(o)) fail("'" + o + "' inside the block is a graph output");
      for (const std::string &in : ix.node(i).input()) {
        const int p = ix.producer(in);
        if (in.empty() || (p >= 0 && block.count(p)) || (i == m.transposeIn) || shapeValue(in)) continue;
        fail(ix.node(i).op_type() + " '" + ix.name(i) + "' reads '" + in + "', computed outside the block from data");
      }
      // Outside the matched nodes only integers: a Shape, or arithmetic on shapes and constants.
      bool shapes = ix.node(i).op_type() == "Shape" || shapeOps().count(ix.node(i).op_type());
      for (const std::string &in : ix.node(i).input())
        shapes = shapes && (in.empty() || shapeValue(in) || ix.node(i).op_type() == "Shape");
      if (!core.count(i) && !shapes)
        fail(ix.node(i).op_type() + " '" + ix.name(i) + "' inside the block is not part of torch's attention");
    }
    return std::vector<int>(block.begin(), block.end());
  }

 private:
  static const std::set<std::string> &shapeOps() {
    static const std::set<std::string> ops{
        "Gather", "Unsqueeze", "Squeeze", "Concat",  "Cast",     "Add",      "Sub",
        "Mul",    "Div",       "Slice",   "Reshape", "Identity", "Constant", "ConstantOfShape"};
    return ops;
  }
  // A value computed from constants and Shape nodes only: integers the driver can fold.
  bool shapeValue(const std::string &v) {
    auto it = m_shapeValue.find(v);
    if (it != m_shapeValue.end()) return it->second;
    m_shapeValue[v] = false;  // a cycle is no shape
    bool is = ix.isConstant(v);
    const int p = ix.producer(v);
    if (!is && p >= 0) {
      is = ix.node(p).op_type() == "Shape";
      if (!is && shapeOps().count(ix.node(p).op_type())) {
        is = true;
        for (const std::string &in : ix.node(p).input()) is = is && (in.empty() || shapeValue(in));
      }
    }
    return m_shapeValue[v] = is;
  }
  std::map<std::string, bool> m_shapeValue;
};

}  // namespace

void matchAttention(const std::shared_ptr<const GraphIndex> &index, int softmax, Fusions &out) {
  const GraphIndex &ix = *index;
  if (!looksLikeAttention(ix, softmax)) return;
  auto m = std::make_shared<AttentionMatch>();
  m->index = index;
  m->softmax = softmax;
  Matcher mt(ix, *m);
  mt.see(softmax);
  try {
    mt.scores();
    for (int i = 0; i < 3; ++i) mt.projection(i);
    m->transposeIn = ix.producer(m->projected);
    if (!transposeIs(ix, m->transposeIn, {1, 0, 2}) || !computed(ix, ix.node(m->transposeIn).input(0)))
      fail("the projections read '" + m->projected + "', which is not a Transpose (1, 0, 2) of a batch-first sequence");
    mt.see(m->transposeIn);
    const std::string y = mt.output();
    m->core = mt.seen;
    Fusion f;
    f.op = "MultiheadAttention";
    f.input = ix.node(m->transposeIn).input(0);
    f.output = y;
    f.members = mt.members(y);
    const bool packed =
        m->qkv[0].part >= 0 && m->qkv[0].matmul == m->qkv[1].matmul && m->qkv[1].matmul == m->qkv[2].matmul;
    f.form = std::string("self-attention: in_proj as ") +
             (packed ? std::string("one MatMul cut by ") + ix.node(m->qkv[0].part).op_type() : "three MatMuls") +
             (m->mask.defined() ? ", a constant mask" : "") + ", out_proj as " + ix.node(m->outProj).op_type();
    f.attention = m;
    for (int i : f.members) out.memberOf[i] = out.found.size();
    out.found.push_back(std::move(f));
  } catch (const Miss &miss) {
    out.notes.push_back("attention at Softmax '" + ix.name(softmax) +
                        "' is not folded: it is not nn.MultiheadAttention's self-attention as torch writes it (" +
                        miss.why + "; nodes seen: " + memberList(ix, mt.seen) +
                        "); the importer folds only that into the registry's MultiheadAttention");
  }
}

}  // namespace tw::engine::onnx_import
