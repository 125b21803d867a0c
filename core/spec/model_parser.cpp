#include "core/spec/model_spec.h"
#include "core/spec/names.h"
#include "core/spec/registry.h"
#include "core/spec/yaml_value.h"
#include "core/yaml/yaml_problem.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace tw::spec {

namespace {

using detail::locationOf;
using detail::paramFromYaml;

struct Located {
  ParamValue value;
  SourceLocation where;
  bool required = false;  // a block parameter declared with a null default
};

struct BlockDef {
  std::string name;
  SourceLocation where;
  std::vector<std::pair<std::string, Located>> params;  // declaration order
  std::vector<std::string> inputs;
  YAML::Node nodes;
  std::set<std::string> memberIds;
  std::string output;
};

// How names inside the list being expanded map to node ids of the expanded model.
struct Scope {
  std::string prefix;                          // "h1." inside instance h1, "" at the top level
  const BlockDef *block = nullptr;             // the block being expanded, null at the top level
  std::map<std::string, std::string> inputs;   // block input name -> id it is bound to
  std::map<std::string, Located> args;         // block parameter -> value for this instance
  std::vector<std::string> stack;              // blocks being expanded, to refuse recursion
  // An instance's `trainable` / `lr_factor`, for members that do not set their own.
  std::optional<bool> trainable;
  std::optional<double> lrFactor;
  std::string checkpointSegment;  // an instance checkpointed as a whole: its members' segment
};

// The fine-tuning keys every node and block instance takes (model_spec.h).
struct Training {
  std::optional<bool> trainable;
  std::optional<double> lrFactor;
  std::optional<std::string> checkpoint;  // `checkpoint_activations`: true (the node's or instance's
                                          // own segment), false, or a segment's name
};

std::string join(const std::vector<std::string> &items) {
  std::string out;
  for (const std::string &s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

std::string lowercase(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// yaml-cpp's default Node is a defined null; a key written without a value counts as absent too.
bool present(const YAML::Node &node) { return node.IsDefined() && !node.IsNull(); }

bool isNameList(const YAML::Node &node) {
  if (node.IsScalar()) return true;
  if (!node.IsSequence()) return false;
  for (const YAML::Node &item : node)
    if (!item.IsScalar()) return false;
  return true;
}

std::vector<std::string> stringList(const YAML::Node &node) {
  std::vector<std::string> out;
  if (node.IsScalar()) {
    out.push_back(node.Scalar());
  } else if (node.IsSequence()) {
    for (const YAML::Node &item : node) out.push_back(item.IsScalar() ? item.Scalar() : std::string());
  }
  return out;
}

class Parser {
 public:
  explicit Parser(std::string file) : m_file(std::move(file)) {}

  ModelSpec parse(const YAML::Node &root) {
    ModelSpec spec;
    spec.file = m_file;
    if (!root.IsMap()) {
      error(root, "", "", "a model file must be a YAML map with a 'nodes' list");
      throw SpecError(m_errors);
    }
    YAML::Node list, output;
    for (auto it = root.begin(); it != root.end(); ++it) {
      const std::string key = it->first.as<std::string>();
      if (key == "name") {
        spec.name = it->second.IsScalar() ? it->second.Scalar() : std::string();
        if (auto problem = portableNameProblem("model name", spec.name); !problem.empty())
          error(it->second, "", "name", problem);
      } else if (key == "blocks") {
        parseBlocks(it->second);
      } else if (key == "nodes" || key == "layers") {
        if (present(list)) error(it->first, "", key, "give either 'nodes' or 'layers', not both");
        list = it->second;
        m_generateIds = key == "layers";
      } else if (key == "output") {
        output = it->second;
        spec.outputWhere = locationOf(it->first, m_file);
      } else {
        error(it->first, "", key, "unknown top-level key '" + key + "'; expected name, blocks, nodes (or layers), output");
      }
    }
    // An empty or tagged-empty `output:` would read as "the last node" only after writing back.
    if (present(output) && (!output.IsScalar() || output.Scalar().empty()))
      error(output, "", "output", "'output' must be the id of a node");
    if (!present(list)) {
      error(root, "", "nodes", "the model has no 'nodes' list");
    } else if (!list.IsSequence()) {
      error(list, "", "nodes", "'nodes' must be a list of nodes");
    } else {
      Scope top;
      m_previous.clear();
      expandList(list, top, m_generateIds);
    }
    if (!m_errors.empty()) throw SpecError(m_errors);

    for (Node &node : m_nodes)
      for (std::string &input : node.inputs) input = resolve(input);
    spec.nodes = std::move(m_nodes);
    spec.output = present(output) ? resolve(output.IsScalar() ? output.Scalar() : std::string()) : resolve(m_previous);
    if (spec.name.empty()) spec.name = "model";
    return spec;
  }

 private:
  void error(const YAML::Node &at, const std::string &node, const std::string &field, const std::string &message) {
    m_errors.push_back({locationOf(at, m_file), node, field, message});
  }

  // Block instance ids stand for their output node; nested instances chain.
  std::string resolve(std::string id) const {
    for (size_t guard = 0; guard < m_aliases.size() + 1; ++guard) {
      auto it = m_aliases.find(id);
      if (it == m_aliases.end()) break;
      id = it->second;
    }
    return id;
  }

  void parseBlocks(const YAML::Node &blocks) {
    if (!blocks.IsMap()) return error(blocks, "", "blocks", "'blocks' must map block names to definitions");
    for (auto it = blocks.begin(); it != blocks.end(); ++it) {
      BlockDef def;
      def.name = it->first.as<std::string>();
      def.where = locationOf(it->first, m_file);
      if (auto problem = portableNameProblem("block name", def.name); !problem.empty())
        error(it->first, "", "blocks", problem);
      const YAML::Node body = it->second;
      if (!body.IsMap()) {
        error(it->first, "", def.name, "block '" + def.name + "' must be a map with 'nodes'");
        continue;
      }
      YAML::Node output;
      for (auto f = body.begin(); f != body.end(); ++f) {
        const std::string key = f->first.as<std::string>();
        if (key == "params") {
          if (!f->second.IsMap()) {
            error(f->second, "", "params", "block '" + def.name + "': 'params' must be a map of defaults");
            continue;
          }
          for (auto p = f->second.begin(); p != f->second.end(); ++p) {
            Located value{paramFromYaml(p->second), locationOf(p->first, m_file), p->second.IsNull()};
            def.params.emplace_back(p->first.as<std::string>(), value);
          }
        } else if (key == "inputs") {
          if (!isNameList(f->second)) error(f->second, "", "inputs", "block '" + def.name + "': 'inputs' must be a list of names");
          def.inputs = stringList(f->second);
        } else if (key == "nodes" || key == "layers") {
          def.nodes = f->second;
        } else if (key == "output") {
          output = f->second;
        } else {
          error(f->first, "", key, "block '" + def.name + "': unknown key '" + key + "'; expected params, inputs, nodes, output");
        }
      }
      if (!present(def.nodes) || !def.nodes.IsSequence() || def.nodes.size() == 0) {
        error(it->first, "", "nodes", "block '" + def.name + "' needs a non-empty 'nodes' list");
        continue;
      }
      std::string last;
      for (const YAML::Node &member : def.nodes) {
        const YAML::Node id = member.IsMap() ? member["id"] : YAML::Node();
        if (!id || !id.IsScalar() || id.Scalar().empty()) {
          error(member, "", "id", "block '" + def.name + "': every member needs an 'id'");
          continue;
        }
        // Checked here, once, rather than at each instance's expansion.
        if (auto problem = portableNameProblem("node id", id.Scalar()); !problem.empty())
          error(id, id.Scalar(), "id", "block '" + def.name + "': " + problem);
        def.memberIds.insert(last = id.Scalar());
      }
      def.output = present(output) && output.IsScalar() ? output.Scalar() : last;
      if (!def.memberIds.count(def.output)) {
        error(present(output) ? output : body, "", "output",
              "block '" + def.name + "': output '" + def.output + "' is not one of its nodes");
      }
      m_blocks[def.name] = std::move(def);
    }
  }

  // A parameter value as written, with `$name` replaced by the enclosing block's argument.
  bool substitute(const YAML::Node &key, const YAML::Node &value, const Scope &scope, const std::string &nodeId,
                  Located &out) {
    out = {paramFromYaml(value), locationOf(key, m_file)};
    const std::string *text = std::get_if<std::string>(&out.value);
    if (!text || text->size() < 2 || (*text)[0] != '$' || value.Tag() == "!") return true;
    const std::string name = text->substr(1);
    const std::string field = key.as<std::string>();
    if (!scope.block) {
      error(key, nodeId, field, "'" + *text + "' refers to a block parameter, but this node is not inside a block");
      return false;
    }
    auto it = scope.args.find(name);
    if (it == scope.args.end()) {
      std::vector<std::string> names;
      for (const auto &p : scope.block->params) names.push_back(p.first);
      error(key, nodeId, field, "'" + *text + "' is not a parameter of block '" + scope.block->name +
                                    "' (parameters: " + join(names) + ")");
      return false;
    }
    out = it->second;
    return true;
  }

  // `trainable` (a boolean) and `lr_factor` (a number > 0) as written, `$name` substituted.
  Training readTraining(const std::vector<std::pair<YAML::Node, YAML::Node>> &keys, const Scope &scope,
                        const std::string &nodeId) {
    Training out;
    for (const auto &[key, value] : keys) {
      Located located;
      if (!substitute(key, value, scope, nodeId, located)) continue;
      const std::string field = key.as<std::string>();
      if (field == "trainable") {
        if (const bool *b = std::get_if<bool>(&located.value)) out.trainable = *b;
        else error(key, nodeId, field, "'trainable' must be true or false");
        continue;
      }
      if (field == "checkpoint_activations") {
        if (const bool *b = std::get_if<bool>(&located.value)) out.checkpoint = *b ? nodeId : std::string();
        else if (const std::string *s = std::get_if<std::string>(&located.value); s && !s->empty()) out.checkpoint = *s;
        else error(key, nodeId, field, "'checkpoint_activations' must be true, false or the name of a segment");
        continue;
      }
      double factor = -1.0;
      if (const double *d = std::get_if<double>(&located.value)) factor = *d;
      if (const int64_t *i = std::get_if<int64_t>(&located.value)) factor = static_cast<double>(*i);
      if (factor > 0.0 && std::isfinite(factor)) out.lrFactor = factor;
      else error(key, nodeId, field, "'lr_factor' must be a number above 0 (use trainable: false to freeze)");
    }
    return out;
  }

  void expandList(const YAML::Node &list, Scope &scope, bool generateIds) {
    size_t index = 0;
    for (const YAML::Node &entry : list) expandEntry(entry, scope, generateIds, index++);
  }

  std::string resolveName(const std::string &name, const Scope &scope) const {
    if (auto it = scope.inputs.find(name); it != scope.inputs.end()) return it->second;
    if (scope.block && scope.block->memberIds.count(name)) return scope.prefix + name;
    return name;
  }

  void expandEntry(const YAML::Node &entry, Scope &scope, bool generateIds, size_t index) {
    if (!entry.IsMap()) return error(entry, "", "", "a node must be a map with 'id' and 'op'");
    YAML::Node idNode, opNode, blockNode, inputsNode, opKey, inputsKey;
    std::vector<std::pair<YAML::Node, YAML::Node>> params, training;
    std::set<std::string> seen;
    for (auto it = entry.begin(); it != entry.end(); ++it) {
      const std::string key = it->first.as<std::string>();
      if (!seen.insert(key).second) error(it->first, "", key, "key '" + key + "' is written twice");
      if (key == "id") idNode = it->second;
      else if (key == "op") opNode = it->second, opKey = it->first;
      else if (key == "block") blockNode = it->second;
      else if (key == "inputs") inputsNode = it->second, inputsKey = it->first;
      else if (key == "trainable" || key == "lr_factor" || key == "checkpoint_activations")
        training.emplace_back(it->first, it->second);
      else if (key == "params" && it->second.IsMap()) {
        for (auto p = it->second.begin(); p != it->second.end(); ++p) params.emplace_back(p->first, p->second);
      } else {
        params.emplace_back(it->first, it->second);
      }
    }
    std::string id;
    if (present(idNode) && idNode.IsScalar() && !idNode.Scalar().empty()) {
      id = idNode.Scalar();
      if (auto problem = portableNameProblem("node id", id); !problem.empty() && !scope.block)
        error(idNode, id, "id", problem);
    } else if (generateIds && (present(opNode) || present(blockNode))) {
      id = lowercase((present(opNode) ? opNode : blockNode).as<std::string>()) + "_" + std::to_string(index);
    } else {
      return error(entry, "", "id", "the node has no 'id'" +
                                        std::string(generateIds ? " and no 'op' to name it after" : ""));
    }
    const std::string fullId = scope.prefix + id;
    if (present(opNode) && present(blockNode)) return error(entry, fullId, "block", "give either 'op' or 'block', not both");

    std::vector<std::string> inputs;
    if (present(inputsNode) && !isNameList(inputsNode))
      return error(inputsNode, fullId, "inputs", "'inputs' must be a node id or a list of node ids");
    if (present(inputsNode)) {
      for (const std::string &name : stringList(inputsNode)) inputs.push_back(resolveName(name, scope));
    }
    const Training own = readTraining(training, scope, fullId);
    if (present(blockNode))
      return expandInstance(entry, blockNode, fullId, params, present(inputsNode) ? &inputs : nullptr, scope, own);

    Node node;
    node.id = fullId;
    node.op = present(opNode) && opNode.IsScalar() ? opNode.Scalar() : std::string();
    node.where = locationOf(entry, m_file);
    node.trainable = own.trainable.value_or(scope.trainable.value_or(true));
    node.lrFactor = own.lrFactor.value_or(scope.lrFactor.value_or(1.0));
    // Inside a checkpointed instance the instance is the segment; otherwise the node's own word.
    node.checkpointSegment = !scope.checkpointSegment.empty() ? scope.checkpointSegment : own.checkpoint.value_or("");
    for (const auto &[key, value] : training) node.paramLocations.emplace_back(key.as<std::string>(), locationOf(key, m_file));
    if (present(opNode)) node.paramLocations.emplace_back("op", locationOf(opKey, m_file));
    if (present(inputsNode)) node.paramLocations.emplace_back("inputs", locationOf(inputsKey, m_file));
    const OpDef *def = Registry::instance().find(node.op);
    if (present(inputsNode)) {
      node.inputs = inputs;
    } else if (!(def && def->maxInputs == 0) && !m_previous.empty()) {
      node.inputs.push_back(m_previous);
    }
    for (const auto &[key, value] : params) {
      Located located;
      if (!substitute(key, value, scope, fullId, located)) continue;
      const std::string name = key.as<std::string>();
      node.params[name] = located.value;
      node.paramLocations.emplace_back(name, located.where);
    }
    m_previous = fullId;
    m_nodes.push_back(std::move(node));
  }

  void expandInstance(const YAML::Node &entry, const YAML::Node &blockNode, const std::string &fullId,
                      const std::vector<std::pair<YAML::Node, YAML::Node>> &params,
                      const std::vector<std::string> *givenInputs, const Scope &outer, const Training &own) {
    const std::string name = blockNode.IsScalar() ? blockNode.Scalar() : std::string();
    auto found = m_blocks.find(name);
    if (found == m_blocks.end()) {
      std::vector<std::string> names;
      for (const auto &b : m_blocks) names.push_back(b.first);
      return error(blockNode, fullId, "block", "unknown block '" + name + "'" +
                                                   (names.empty() ? std::string("; the file defines no blocks")
                                                                  : " (blocks: " + join(names) + ")"));
    }
    const BlockDef &block = found->second;
    if (std::find(outer.stack.begin(), outer.stack.end(), name) != outer.stack.end())
      return error(blockNode, fullId, "block", "block '" + name + "' instantiates itself");
    if (outer.stack.size() >= static_cast<size_t>(kMaxBlockDepth))
      return error(blockNode, fullId, "block", "blocks nest more than " + std::to_string(kMaxBlockDepth) +
                                                   " levels deep here (" + outer.stack.front() + " > " +
                                                   outer.stack[1] + " > ... > " + outer.stack.back() + " > " + name +
                                                   "); flatten the model's blocks");

    Scope scope;
    scope.prefix = fullId + ".";
    scope.block = &block;
    scope.stack = outer.stack;
    scope.stack.push_back(name);
    scope.trainable = own.trainable ? own.trainable : outer.trainable;
    scope.lrFactor = own.lrFactor ? own.lrFactor : outer.lrFactor;
    scope.checkpointSegment = !outer.checkpointSegment.empty() ? outer.checkpointSegment : own.checkpoint.value_or("");
    for (const auto &[pname, value] : block.params) scope.args[pname] = value;
    for (const auto &[key, value] : params) {
      const std::string pname = key.as<std::string>();
      auto arg = scope.args.find(pname);
      if (arg == scope.args.end()) {
        std::vector<std::string> names;
        for (const auto &p : block.params) names.push_back(p.first);
        error(key, fullId, pname, "block '" + name + "' has no parameter '" + pname + "'" +
                                      (names.empty() ? std::string() : " (parameters: " + join(names) + ")"));
        continue;
      }
      Located located;
      if (substitute(key, value, outer, fullId, located)) arg->second = located;
    }
    for (const auto &[pname, value] : scope.args) {
      if (value.required)
        error(entry, fullId, pname, "block '" + name + "' needs a value for its parameter '" + pname + "'");
    }

    std::vector<std::string> inputs;
    if (givenInputs) inputs = *givenInputs;
    else if (!block.inputs.empty() && !m_previous.empty()) inputs.push_back(m_previous);
    if (inputs.size() != block.inputs.size()) {
      return error(entry, fullId, "inputs", "block '" + name + "' takes " + std::to_string(block.inputs.size()) +
                                                " input(s) (" + join(block.inputs) + "), got " +
                                                std::to_string(inputs.size()));
    }
    for (size_t i = 0; i < inputs.size(); ++i) scope.inputs[block.inputs[i]] = inputs[i];

    m_previous = inputs.empty() ? std::string() : inputs.front();
    expandList(block.nodes, scope, false);
    m_aliases[fullId] = scope.prefix + block.output;
    m_previous = fullId;
  }

  std::string m_file;
  bool m_generateIds = false;
  std::map<std::string, BlockDef> m_blocks;
  std::vector<Node> m_nodes;
  std::map<std::string, std::string> m_aliases;  // block instance id -> its output node
  std::string m_previous;                        // the node an entry without `inputs` reads
  std::vector<Diagnostic> m_errors;
};

}  // namespace

ModelSpec parseModelYaml(const std::string &yamlText, const std::string &fileName) {
  if (const yaml::Problem p = yaml::notUtf8(yamlText); !p.message.empty())
    throw SpecError({{{fileName, p.line, p.column}, "", "", p.message}});
  YAML::Node root;
  try {
    root = YAML::Load(yamlText);
  } catch (const YAML::Exception &e) {
    const yaml::Problem p = yaml::describe(e, yamlText);
    throw SpecError({{{fileName, p.line, p.column}, "", "", "invalid YAML: " + p.message}});
  }
  if (const yaml::Problem p = yaml::duplicateKey(root); !p.message.empty())
    throw SpecError({{{fileName, p.line, p.column}, "", "", p.message}});
  if (const yaml::Problem p = yaml::scalarNotUtf8(root); !p.message.empty())
    throw SpecError({{{fileName, p.line, p.column}, "", "", p.message}});
  try {
    return Parser(fileName).parse(root);
  } catch (const YAML::Exception &e) {
    // A key that is itself a list or map, and similar shapes yaml-cpp refuses to convert.
    SourceLocation where{fileName, e.mark.line >= 0 ? e.mark.line + 1 : 0, e.mark.column >= 0 ? e.mark.column + 1 : 0};
    throw SpecError({{where, "", "", "unexpected YAML structure: " + e.msg}});
  }
}

ModelSpec parseModelFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SpecError({{{path, 0, 0}, "", "", "cannot open the model file"}});
  std::ostringstream text;
  text << in.rdbuf();
  return parseModelYaml(text.str(), path);
}

}  // namespace tw::spec
