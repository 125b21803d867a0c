#include "core/spec/analysis.h"

#include "core/spec/analysis_params.h"
#include "core/spec/checked_math.h"
#include "core/spec/registry.h"

#include <algorithm>
#include <map>
#include <set>

namespace tw::spec {

namespace {

using detail::closestName;

// What analyze() knows about one node while it works.
struct Work {
  const Node *node = nullptr;
  const OpDef *def = nullptr;
  ParamMap params;
  std::vector<size_t> inputs;  // indices into the work list
  bool failed = false;         // a problem of its own was reported
  bool blocked = false;        // it or something upstream failed: no shape
  std::string dtype = "float32";
};

std::string join(const std::vector<std::string> &items, const std::string &sep = ", ") {
  std::string out;
  for (const std::string &s : items) out += (out.empty() ? "" : sep) + s;
  return out;
}

std::string countText(int n, const char *what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

std::string arityText(const OpDef &def) {
  if (def.maxInputs == 0) return "no inputs";
  if (def.minInputs == def.maxInputs) return "exactly " + countText(def.minInputs, "input");
  if (def.maxInputs < 0) return "at least " + countText(def.minInputs, "input");
  return std::to_string(def.minInputs) + " to " + countText(def.maxInputs, "input");
}

// Ops that only move or merge values keep the element type (OpDef::keepsDtype); Embedding turns
// indices into floats (takesIndices); everything else computes in float32 and refuses int64.
bool keepsDtype(const std::string &op) {
  const OpDef *def = Registry::instance().find(op);
  return def && def->keepsDtype;
}
bool takesIndices(const std::string &op) {
  const OpDef *def = Registry::instance().find(op);
  return def && def->takesIndices;
}

class Analyzer {
 public:
  explicit Analyzer(const ModelSpec &spec) : m_spec(spec) {}

  Analysis run() {
    collectNodes();
    checkGraph();
    std::vector<size_t> order;
    if (sortTopologically(order)) inferShapes(order);
    return std::move(m_result);
  }

 private:
  void report(const SourceLocation &where, const std::string &node, const std::string &field, const std::string &msg) {
    m_result.diagnostics.push_back({where, node, field, msg});
  }
  void report(Work &w, const std::string &field, const std::string &msg) {
    report(w.node->locationOf(field), w.node->id, field, msg);
    w.failed = true;
  }

  void collectNodes() {
    const Registry &registry = Registry::instance();
    for (const Node &node : m_spec.nodes) m_hasInput = m_hasInput || node.op == "Input";
    for (const Node &node : m_spec.nodes) {
      if (!m_index.emplace(node.id, m_work.size()).second) {
        const Node &first = *m_work[m_index[node.id]].node;
        report(node.where, node.id, "id",
               "duplicate id '" + node.id + "' (first used on line " + std::to_string(first.where.line) + ")");
        continue;
      }
      Work w;
      w.node = &node;
      w.def = registry.find(node.op);
      m_work.push_back(std::move(w));
    }
    for (Work &w : m_work) {
      if (!w.def) {
        const std::string guess = closestName(w.node->op, registry.names());
        report(w, "op", w.node->op.empty() ? "the node has no 'op'"
                                            : "unknown op '" + w.node->op + "'" +
                                                  (guess.empty() ? "" : "; did you mean '" + guess + "'?"));
      }
      checkInputs(w);
      if (w.def) convertParams(w);
    }
  }

  void checkInputs(Work &w) {
    for (const std::string &input : w.node->inputs) {
      auto it = m_index.find(input);
      if (it == m_index.end()) {
        std::vector<std::string> ids;
        for (const auto &entry : m_index) ids.push_back(entry.first);
        const std::string guess = closestName(input, ids);
        report(w, "inputs", "unknown input '" + input + "': no node has that id" +
                                (guess.empty() ? "" : "; did you mean '" + guess + "'?"));
      } else {
        w.inputs.push_back(it->second);
      }
    }
    if (!w.def) return;
    const int n = static_cast<int>(w.node->inputs.size());
    if (n < w.def->minInputs && n == 0 && !m_hasInput) {
      w.failed = true;  // "the model has no Input node" explains it
    } else if (n < w.def->minInputs || (w.def->maxInputs >= 0 && n > w.def->maxInputs)) {
      report(w, "inputs", w.def->name + " takes " + arityText(*w.def) + ", got " + std::to_string(n) +
                              (n ? " (" + join(w.node->inputs) + ")" : ""));
    }
  }

  void convertParams(Work &w) {
    const OpDef &def = *w.def;
    std::set<std::string> suggested;  // a misspelt name is reported once, not also as missing
    for (const auto &[name, value] : w.node->params) {
      const ParamDef *pd = def.param(name);
      if (!pd) {
        std::vector<std::string> names;
        for (const ParamDef &p : def.params) names.push_back(p.name);
        const std::string guess = closestName(name, names);
        suggested.insert(guess);
        report(w, name, "unknown parameter '" + name + "' for " + def.name +
                            (guess.empty() ? "" : "; did you mean '" + guess + "'?") +
                            (names.empty() ? " (" + def.name + " takes no parameters)"
                                           : " (" + def.name + " takes " + join(names) + ")"));
        continue;
      }
      ParamValue converted;
      if (auto problem = detail::convertParam(*pd, value, converted)) {
        report(w, name, *problem);
        continue;
      }
      w.params[name] = converted;
    }
    for (const ParamDef &pd : def.params) {
      if (w.node->params.count(pd.name)) continue;
      if (pd.defaultValue) {
        w.params[pd.name] = *pd.defaultValue;
      } else if (!pd.inferred && !suggested.count(pd.name)) {
        report(w, pd.name, "missing required parameter '" + pd.name + "' (" + paramTypeName(pd.type) + "): " + pd.doc);
      }
    }
  }

  void checkGraph() {
    if (!m_hasInput && !m_work.empty()) {
      report({m_spec.file, 0, 0}, "", "", "the model has no Input node; start with {op: Input, shape: [...]}");
    } else if (m_work.empty()) {
      report({m_spec.file, 0, 0}, "", "nodes", "the model has no nodes");
    }
    m_result.output = m_spec.output.empty() && !m_work.empty() ? m_work.back().node->id : m_spec.output;
    if (!m_work.empty() && !m_index.count(m_result.output)) {
      SourceLocation where = m_spec.outputWhere;
      if (where.file.empty()) where.file = m_spec.file;
      report(where, "", "output", "output '" + m_result.output + "' is not a node of the model");
    }
  }

  // Kahn's algorithm, always taking the ready node that comes first in the file.
  bool sortTopologically(std::vector<size_t> &order) {
    const size_t n = m_work.size();
    std::vector<size_t> pending(n, 0);
    std::vector<std::vector<size_t>> users(n);
    for (size_t i = 0; i < n; ++i) {
      for (size_t in : m_work[i].inputs) {
        ++pending[i];
        users[in].push_back(i);
      }
    }
    std::set<size_t> ready;
    for (size_t i = 0; i < n; ++i)
      if (!pending[i]) ready.insert(i);
    while (!ready.empty()) {
      const size_t i = *ready.begin();
      ready.erase(ready.begin());
      order.push_back(i);
      for (size_t u : users[i])
        if (--pending[u] == 0) ready.insert(u);
    }
    if (order.size() == n) return true;
    reportCycles(pending, users);
    return false;
  }

  // Every node left by Kahn's algorithm waits on a cycle; walking back along waiting inputs
  // must reach one. Nodes downstream of a reported cycle are not reported again.
  void reportCycles(const std::vector<size_t> &pending, const std::vector<std::vector<size_t>> &users) {
    std::vector<bool> explained(pending.size(), false);
    for (size_t start = 0; start < pending.size(); ++start) {
      if (!pending[start] || explained[start]) continue;
      std::vector<size_t> path;
      std::map<size_t, size_t> position;
      size_t at = start;
      while (!position.count(at)) {
        position[at] = path.size();
        path.push_back(at);
        for (size_t in : m_work[at].inputs) {
          if (pending[in]) {
            at = in;
            break;
          }
        }
      }
      std::vector<size_t> cycle(path.begin() + position[at], path.end());
      std::reverse(cycle.begin(), cycle.end());  // walked against the edges
      std::rotate(cycle.begin(), std::min_element(cycle.begin(), cycle.end()), cycle.end());
      std::vector<std::string> names;
      for (size_t i : cycle) names.push_back("'" + m_work[i].node->id + "'");
      names.push_back(names.front());
      Work &first = m_work[cycle.front()];
      report(first, "inputs", "cycle: " + join(names, " -> ") + "; a model must be a directed acyclic graph");
      std::vector<size_t> stack(cycle.begin(), cycle.end());
      while (!stack.empty()) {
        const size_t i = stack.back();
        stack.pop_back();
        if (explained[i]) continue;
        explained[i] = true;
        for (size_t u : users[i]) stack.push_back(u);
      }
    }
  }

  std::string describeInputs(const Work &w) const {
    std::vector<std::string> parts;
    for (size_t in : w.inputs)
      parts.push_back("'" + m_work[in].node->id + "' gives " + formatShape(m_result.nodes[m_position.at(in)].outputShape, true));
    return parts.empty() ? std::string() : " (" + join(parts, "; ") + ")";
  }

  bool checkDtype(Work &w) {
    if (w.node->op == "Input") {
      w.dtype = getString(w.params, "dtype");
      return true;
    }
    for (size_t in : w.inputs) {
      const Work &src = m_work[in];
      if (takesIndices(w.node->op) && src.dtype != "int64") {
        report(w, "inputs", w.node->op + " needs int64 indices, but '" + src.node->id + "' gives " + src.dtype +
                                " values; declare the Input with dtype: int64");
        return false;
      }
      if (!takesIndices(w.node->op) && !keepsDtype(w.node->op) && src.dtype != "float32") {
        report(w, "inputs", w.node->op + " needs float32 values, but '" + src.node->id + "' gives " + src.dtype +
                                " indices; map them through an Embedding first");
        return false;
      }
    }
    w.dtype = keepsDtype(w.node->op) && !w.inputs.empty() ? m_work[w.inputs.front()].dtype : "float32";
    return true;
  }

  void inferShapes(const std::vector<size_t> &order) {
    for (size_t i : order) {
      Work &w = m_work[i];
      NodeInfo info;
      info.id = w.node->id;
      info.op = w.node->op;
      info.trainable = w.node->trainable;
      info.lrFactor = w.node->lrFactor;
      info.checkpointSegment = w.node->checkpointSegment;
      info.inputs = w.node->inputs;
      bool blocked = w.failed;
      for (size_t in : w.inputs) {
        blocked = blocked || m_work[in].blocked;
        info.inputShapes.push_back(m_result.nodes[m_position.at(in)].outputShape);
      }
      if (!blocked) blocked = !evaluate(w, info);
      w.blocked = blocked;
      info.params = w.params;
      m_position[i] = m_result.nodes.size();
      if (!blocked) addToTotal(w, info);
      m_result.nodes.push_back(std::move(info));
    }
  }

  // The model's total stays a true count: a sum beyond int64 is the node's problem that tipped it.
  void addToTotal(Work &w, const NodeInfo &info) {
    int64_t total = 0;
    if (__builtin_add_overflow(m_result.totalParams, info.paramCount, &total)) {
      report(w, "", "the model's parameter count is beyond int64 (" + std::to_string(m_result.totalParams) +
                        " + " + std::to_string(info.paramCount) + " of this node)");
      w.blocked = true;
      return;
    }
    m_result.totalParams = total;
    if (info.trainable) m_result.trainableParams += info.paramCount;
  }

  bool evaluate(Work &w, NodeInfo &info) {
    if (!checkDtype(w)) return false;
    try {
      if (w.def->infer) w.def->infer(info.inputShapes, w.params);
      info.outputShape = w.def->shape(info.inputShapes, w.params);
      // One sample of every output must be countable: the builder, the memory estimate and the
      // summary multiply its dimensions.
      checkedNumel(info.outputShape, "the output's element count " + formatShape(info.outputShape, true));
      if (w.def->paramCount) info.paramCount = w.def->paramCount(info.inputShapes, w.params);
      return true;
    } catch (const ShapeError &e) {
      report(w, e.field, e.what() + describeInputs(w));
    } catch (const std::exception &e) {
      report(w, "", std::string("cannot infer the output shape: ") + e.what() + describeInputs(w));
    }
    return false;
  }

  const ModelSpec &m_spec;
  Analysis m_result;
  std::vector<Work> m_work;             // one per distinct id, in file order
  std::map<std::string, size_t> m_index;  // id -> index into m_work
  std::map<size_t, size_t> m_position;    // index into m_work -> index into m_result.nodes
  bool m_hasInput = false;
};

}  // namespace

const NodeInfo *Analysis::find(const std::string &id) const {
  for (const NodeInfo &node : nodes)
    if (node.id == id) return &node;
  return nullptr;
}

Analysis analyze(const ModelSpec &spec) { return Analyzer(spec).run(); }

Analysis analyzeOrThrow(const ModelSpec &spec) {
  Analysis analysis = analyze(spec);
  if (!analysis.ok()) throw SpecError(analysis.diagnostics);
  return analysis;
}

}  // namespace tw::spec
