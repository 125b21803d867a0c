// The import driver: the file read and checked (onnx_file.h), every operator looked up before any
// work so that all unmapped nodes are named at once, the graph inputs made Input nodes, then each
// node folded or mapped in file order (ONNX files are topologically sorted), ids chosen, and the
// result checked by the same analysis `check` runs.
#include "core/engine/import/onnx_import.h"

#include "core/engine/import/import_error.h"
#include "core/engine/import/import_ids.h"
#include "core/engine/import/onnx_file.h"
#include "core/engine/import/onnx_fusions.h"
#include "core/engine/import/onnx_mappers.h"
#include "core/engine/import/onnx_tensor.h"
#include "core/spec/analysis.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <filesystem>
#include <set>

namespace tw::engine {

namespace {

using onnx_import::findFolder;
using onnx_import::findMapper;
using onnx_import::Fusion;

std::string nodeName(const onnx::NodeProto &node, int index) {
  return node.name().empty() ? node.op_type() + " #" + std::to_string(index + 1) : node.name();
}

std::string quotedList(const std::vector<std::string> &names, size_t limit = 8) {
  std::string text;
  for (size_t i = 0; i < names.size() && i < limit; ++i) text += (i ? ", '" : "'") + names[i] + "'";
  if (names.size() > limit) text += " and " + std::to_string(names.size() - limit) + " more";
  return text;
}

// Every node whose operator neither table knows, by operator with counts, before anything is
// built: one refusal names them all.
void refuseUnmapped(const onnx::GraphProto &graph, const std::string &file) {
  std::map<std::string, std::vector<std::string>> unmapped;
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto &node = graph.node(i);
    const bool defaultDomain = node.domain().empty() || node.domain() == "ai.onnx";
    if (defaultDomain && (findMapper(node.op_type()) || findFolder(node.op_type()))) continue;
    const std::string op = defaultDomain ? node.op_type() : node.domain() + "::" + node.op_type();
    unmapped[op].push_back(nodeName(node, i));
  }
  if (unmapped.empty()) return;
  std::vector<std::pair<std::string, std::vector<std::string>>> byCount(unmapped.begin(), unmapped.end());
  std::stable_sort(byCount.begin(), byCount.end(), [](const auto &a, const auto &b) { return a.second.size() > b.second.size(); });
  size_t total = 0;
  for (const auto &entry : byCount) total += entry.second.size();
  std::string text = file + ": " + std::to_string(total) + " node" + (total == 1 ? " has" : "s have") +
                     " no registry op, so nothing was imported:\n";
  bool controlFlow = false;
  for (const auto &[op, names] : byCount) {
    text += "  " + op + " x" + std::to_string(names.size()) + ": " + quotedList(names) + "\n";
    controlFlow = controlFlow || op == "Loop" || op == "If" || op == "Scan";
  }
  if (controlFlow)
    text += "Loop, If and Scan are control flow, which a Torchwright model (a fixed graph of layers) cannot express.\n";
  throw ImportError(text);
}

std::string dimText(const onnx::TensorShapeProto::Dimension &d) {
  if (d.has_dim_value()) return std::to_string(d.dim_value());
  return d.has_dim_param() && !d.dim_param().empty() ? "'" + d.dim_param() + "'" : "?";
}

// A graph input as an Input node: the batch dimension may be open (a symbol) or fixed; every
// other dimension must be fixed, by the file or by --input-shape.
void addInput(ImportGraph &g, const onnx::ValueInfoProto &input, const ImportOptions &options, bool single) {
  const std::string what = g.file + ": input '" + input.name() + "'";
  if (!input.type().has_tensor_type()) throw ImportError(what + " is not a tensor");
  const auto &type = input.type().tensor_type();
  if (type.elem_type() != onnx::TensorProto::FLOAT)
    throw ImportError(what + " has ONNX element type " + std::to_string(type.elem_type()) + "; the importer reads float inputs");
  const auto &dims = type.shape().dim();
  if (dims.size() < 2)
    throw ImportError(what + " has " + std::to_string(dims.size()) + " dimensions; expected the batch and at least one more");
  if (dims[0].has_dim_value() && dims[0].dim_value() > 0 && g.fileBatch == 0) g.fileBatch = dims[0].dim_value();
  const std::vector<int64_t> &given = options.inputShape;
  if (!given.empty() && (!single || given.size() != static_cast<size_t>(dims.size() - 1))) {
    throw ImportError(what + " has " + std::to_string(dims.size() - 1) + " dimensions besides the batch; --input-shape gives " +
                      std::to_string(given.size()) + (single ? "" : " (and the model has several inputs)"));
  }
  spec::Shape shape;
  std::string open;
  for (int k = 1; k < dims.size(); ++k) {
    const bool fixed = dims[k].has_dim_value() && dims[k].dim_value() > 0;
    if (!given.empty()) {
      if (fixed && dims[k].dim_value() != given[k - 1])
        throw ImportError(what + " fixes dimension " + std::to_string(k) + " to " + std::to_string(dims[k].dim_value()) +
                          "; --input-shape gives " + std::to_string(given[k - 1]));
      shape.push_back(given[k - 1]);
    } else if (fixed) {
      shape.push_back(dims[k].dim_value());
    } else {
      open += (open.empty() ? "" : ", ") + std::to_string(k) + " (" + dimText(dims[k]) + ")";
      shape.push_back(0);
    }
  }
  if (!open.empty()) {
    std::string shownDims;
    for (int k = 0; k < dims.size(); ++k) shownDims += (k ? ", " : "") + (k == 0 ? std::string("N") : dimText(dims[k]));
    throw ImportError(what + " [" + shownDims + "] leaves dimension " + open +
                      " open; a Torchwright model fixes every dimension but the batch: give one sample's shape with "
                      "--input-shape, e.g. --input-shape " + std::string(dims.size() == 4 ? "3,224,224" : "C,H,W"));
  }
  ImportNode node;
  node.op = "Input";
  node.params["shape"] = spec::IntList(shape);
  node.shape = shape;
  node.onnxName = input.name();
  node.onnxOp = "input";
  ImportValue value;
  value.node = g.nodes.size();
  value.shape = shape;
  g.values[input.name()] = value;
  g.rows.push_back({input.name(), "input", ImportRow::Fate::Mapped, g.nodes.size(), spec::formatShape(shape, true)});
  g.nodes.push_back(std::move(node));
}

// Folds or maps one node. A refusal is the reason alone; the caller names file, node and op.
void importNode(ImportGraph &g, const onnx::NodeProto &node, size_t row) {
  NodeImport n(g, node, row);
  bool allConstant = true;
  for (size_t i = 0; i < n.inputCount(); ++i) allConstant = allConstant && (!n.hasInput(i) || n.input(i).constant());
  const auto folder = findFolder(node.op_type());
  const auto mapper = findMapper(node.op_type());
  try {
    if (folder && allConstant) folder(n);
    else if (mapper) mapper(n);
    else n.refuse(node.op_type() + " of a computed value has no registry op (it is folded only when its inputs are constants)");
  } catch (const c10::Error &e) {
    n.refuse(e.what_without_backtrace());
  }
  for (int k = 0; k < node.output_size(); ++k)
    if (n.readers(static_cast<size_t>(k)) > 0 && !g.values.count(node.output(k)))
      n.refuse("its output " + std::to_string(k + 1) + " ('" + node.output(k) + "') is read, and has no counterpart");
}

// The rows with ids and ops in the words of the report.
std::vector<ImportedRow> reportRows(const ImportGraph &g, const std::vector<std::string> &ids) {
  std::vector<ImportedRow> rows;
  for (const ImportRow &r : g.rows) {
    ImportedRow out{r.name, r.opType, "", "", "", r.note};
    switch (r.fate) {
      case ImportRow::Fate::Mapped: out.fate = "mapped"; break;
      case ImportRow::Fate::Folded: out.fate = "folded"; break;
      case ImportRow::Fate::Constant: out.fate = "constant"; break;
      case ImportRow::Fate::Dropped: out.fate = "dropped"; break;
    }
    if (r.fate == ImportRow::Fate::Mapped || r.fate == ImportRow::Fate::Folded) {
      out.node = ids.at(r.node);
      out.op = g.nodes.at(r.node).op;
    }
    rows.push_back(std::move(out));
  }
  return rows;
}

// Drops the nodes a later fold made redundant (a channel shuffle's Transpose) and renumbers the
// rest; returns the output's new index. A node left reading a dropped one is a mapper's bug.
size_t dropRemoved(ImportGraph &g, size_t output) {
  constexpr size_t kGone = static_cast<size_t>(-1);
  std::vector<size_t> index(g.nodes.size(), kGone);
  std::vector<ImportNode> kept;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    if (g.nodes[i].removed) continue;
    index[i] = kept.size();
    kept.push_back(std::move(g.nodes[i]));
  }
  for (ImportNode &node : kept) {
    for (size_t &in : node.inputs) {
      if (index[in] == kGone)
        throw ImportError(g.file + ": the node from '" + node.onnxName + "' reads one that a fold removed");
      in = index[in];
    }
  }
  for (ImportRow &row : g.rows) {
    const bool named = row.fate == ImportRow::Fate::Mapped || row.fate == ImportRow::Fate::Folded;
    if (row.node < index.size() && index[row.node] != kGone) row.node = index[row.node];
    else if (named) throw ImportError(g.file + ": node '" + row.name + "' became one that a fold removed");
  }
  g.nodes = std::move(kept);
  if (index.at(output) == kGone) throw ImportError(g.file + ": the output's node was removed by a fold");
  return index[output];
}

}  // namespace

ImportedModel importOnnx(const std::string &path, const ImportOptions &options) {
  onnx::ModelProto model;
  loadOnnxFile(path, model);
  const onnx::GraphProto &graph = model.graph();
  ImportGraph g;
  g.file = path;
  g.opset = defaultOpset(model);
  refuseUnmapped(graph, path);
  checkNodeArity(model, path, g.opset);

  for (const onnx::NodeProto &node : graph.node())
    for (const std::string &input : node.input())
      if (!input.empty()) ++g.readers[input];
  for (const auto &output : graph.output()) ++g.readers[output.name()];

  if (graph.sparse_initializer_size() > 0)
    throw ImportError(path + ": the graph keeps " + std::to_string(graph.sparse_initializer_size()) +
                      " initializers in sparse form, which the importer does not read");
  std::set<std::string> initializers;
  for (const onnx::TensorProto &t : graph.initializer()) {
    ImportValue value;
    value.kind = ImportValue::Kind::Constant;
    value.tensor = tensorFromOnnx(t, path);
    g.values[t.name()] = value;
    initializers.insert(t.name());
  }
  // Before IR version 4 initializers are listed among the inputs too.
  std::vector<const onnx::ValueInfoProto *> inputs;
  for (const auto &input : graph.input())
    if (!initializers.count(input.name())) inputs.push_back(&input);
  if (inputs.empty()) throw ImportError(path + ": the graph has no input");
  for (const auto *input : inputs) addInput(g, *input, options, inputs.size() == 1);

  // GELU's, LayerNorm's and attention's decompositions, known before their first node is reached.
  onnx_import::Fusions fusions = onnx_import::findFusions(graph, g);
  std::vector<std::string> problems;
  std::set<std::string> refused;  // values of refused nodes: their readers are not reported again
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto &node = graph.node(i);
    const std::string name = nodeName(node, i);
    g.rows.push_back({name, node.op_type()});
    auto member = fusions.memberOf.find(i);
    Fusion *fusion = member == fusions.memberOf.end() ? nullptr : &fusions.found[member->second];
    if (fusion && fusion->members.front() != i) {
      // A later node of a decomposition: folded into the node made at its first, or refused with it.
      if (fusion->built >= 0) {
        g.rows.back().fate = ImportRow::Fate::Folded;
        g.rows.back().node = static_cast<size_t>(fusion->built);
        g.rows.back().note = "part of its decomposition";
      } else {
        for (const std::string &output : node.output()) refused.insert(output);
      }
      continue;
    }
    bool blocked = false;
    for (const std::string &input : node.input()) {
      if (input.empty() || g.values.count(input)) continue;
      if (!refused.count(input))
        throw ImportError(path + ": node '" + name + "' (" + node.op_type() + ") reads '" + input +
                          "', which no node, initializer or input before it makes: the file is incomplete");
      blocked = true;
    }
    if (!blocked) {
      try {
        auto nearMiss = fusions.nearMisses.find(i);
        if (fusion) {
          NodeImport n(g, node, g.rows.size() - 1);
          try {
            onnx_import::buildFusion(n, *fusion);
          } catch (const c10::Error &e) {
            n.refuse(e.what_without_backtrace());
          }
        } else if (nearMiss != fusions.nearMisses.end()) {
          throw NodeRefusal(nearMiss->second);
        } else {
          importNode(g, node, g.rows.size() - 1);
        }
        continue;
      } catch (const NodeRefusal &e) {
        problems.push_back("node '" + name + "' (" + node.op_type() + "): " + e.what());
      }
    }
    for (const std::string &output : node.output()) refused.insert(output);
  }
  if (!problems.empty()) {
    std::string text = path + ": " + std::to_string(problems.size()) + " node" + (problems.size() == 1 ? "" : "s") +
                       " cannot be expressed with the registry's ops, so nothing was imported:\n";
    for (const std::string &p : problems) text += "  " + p + "\n";
    for (const std::string &note : fusions.notes) text += "  " + note + "\n";
    throw ImportError(text);
  }

  if (graph.output_size() != 1)
    throw ImportError(path + ": the graph has " + std::to_string(graph.output_size()) +
                      " outputs; a Torchwright model has one");
  const auto produced = g.values.find(graph.output(0).name());
  if (produced == g.values.end())
    throw ImportError(path + ": the graph's output '" + graph.output(0).name() + "' is made by no node and is no input");
  const ImportValue &out = produced->second;
  if (out.constant()) throw ImportError(path + ": the output '" + graph.output(0).name() + "' is a constant");
  const size_t outputNode = dropRemoved(g, out.node);

  const std::vector<std::string> ids = chooseNodeIds(g);
  ImportedModel result;
  result.file = path;
  result.opset = g.opset;
  result.irVersion = model.ir_version();
  result.producer = model.producer_name() + (model.producer_version().empty() ? "" : " " + model.producer_version());
  result.spec.name = portableName(options.modelName.empty() ? std::filesystem::path(path).stem().string() : options.modelName, "m");
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const ImportNode &node = g.nodes[i];
    spec::Node n;
    n.id = ids[i];
    n.op = node.op;
    n.params = node.params;
    for (size_t input : node.inputs) n.inputs.push_back(ids[input]);
    result.spec.nodes.push_back(std::move(n));
    if (!node.tensors.empty()) result.tensors[ids[i]] = node.tensors;
  }
  result.spec.output = ids[outputNode];
  const spec::Analysis analysis = spec::analyze(result.spec);
  if (!analysis.ok())
    throw ImportError(path + ": the imported model does not check:\n" + spec::formatDiagnostics(analysis.diagnostics));
  result.rows = reportRows(g, ids);
  return result;
}

}  // namespace tw::engine
