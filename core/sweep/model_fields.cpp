#include "core/sweep/model_fields.h"

#include "core/spec/model_spec.h"
#include "core/spec/registry.h"
#include "core/spec/yaml_value.h"
#include "core/sweep/sweep_problems.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>

namespace tw::sweep {

namespace {

using detail::didYouMean;
using detail::join;

bool present(const YAML::Node &node) { return node.IsDefined() && !node.IsNull(); }

// The value of `key` in `map`, or a null node when there is none. yaml-cpp's const operator[]
// returns an invalid node for a missing key, which throws on the next question asked of it.
YAML::Node get(const YAML::Node &map, const std::string &key) {
  if (!map.IsDefined() || !map.IsMap()) return YAML::Node();
  for (auto it = map.begin(); it != map.end(); ++it)
    if (it->first.IsScalar() && it->first.Scalar() == key) return it->second;
  return YAML::Node();
}

std::string text(const YAML::Node &node) {
  if (node.IsScalar()) return node.Scalar();
  YAML::Emitter out;
  out << YAML::Flow << node;
  return out.c_str();
}

// The top-level list and whether its ids may be generated, as model_parser.cpp reads it.
YAML::Node topList(const YAML::Node &root, bool *generated) {
  *generated = false;
  if (!root.IsMap()) return {};
  if (present(get(root, "nodes"))) return get(root, "nodes");
  *generated = true;
  return get(root, "layers");
}

// The id model_parser.cpp gives an entry: its `id`, or in `layers:` `<op or block lowercased>_<index>`.
std::string entryId(const YAML::Node &entry, bool generated, size_t index) {
  const YAML::Node id = get(entry, "id");
  if (present(id) && id.IsScalar()) return id.Scalar();
  if (!generated) return {};
  const YAML::Node name = present(get(entry, "op")) ? get(entry, "op") : get(entry, "block");
  if (!present(name) || !name.IsScalar()) return {};
  std::string lower = name.Scalar();
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  return lower + "_" + std::to_string(index);
}

YAML::Node findEntry(const YAML::Node &root, const std::string &node) {
  bool generated = false;
  const YAML::Node list = topList(root, &generated);
  if (!list.IsSequence()) return {};
  for (size_t i = 0; i < list.size(); ++i)
    if (list[i].IsMap() && entryId(list[i], generated, i) == node) return list[i];
  return {};
}

// The value an entry writes for `field`, as a key of its own or inside `params:`.
YAML::Node written(const YAML::Node &entry, const std::string &field) {
  if (present(get(entry, field))) return get(entry, field);
  const YAML::Node params = get(entry, "params");
  if (params.IsMap() && present(get(params, field))) return get(params, field);
  return {};
}

// Keys of an entry that are not parameters.
bool structural(const std::string &key) { return key == "id" || key == "op" || key == "block" || key == "inputs" || key == "params"; }

// The registry parameters a block parameter reaches: each member parameter written `$param`,
// following nested instances; `depth` stops a block that instantiates itself.
void collectTargets(const YAML::Node &blocks, const std::string &block, const std::string &param, int depth,
                    std::vector<const spec::ParamDef *> &out) {
  if (depth > 16) return;
  const YAML::Node definition = get(blocks, block);
  const YAML::Node members = present(get(definition, "nodes")) ? get(definition, "nodes") : get(definition, "layers");
  if (!members.IsSequence()) return;
  const std::string reference = "$" + param;
  for (const YAML::Node &member : members) {
    if (!member.IsMap()) continue;
    auto visit = [&](const YAML::Node &map) {
      for (auto it = map.begin(); it != map.end(); ++it) {
        const std::string key = it->first.Scalar();
        if (structural(key) || !it->second.IsScalar() || it->second.Scalar() != reference || it->second.Tag() == "!")
          continue;
        if (present(get(member, "op"))) {
          const spec::OpDef *op = spec::Registry::instance().find(get(member, "op").Scalar());
          if (const spec::ParamDef *def = op ? op->param(key) : nullptr) out.push_back(def);
        } else if (present(get(member, "block")) && get(member, "block").IsScalar()) {
          collectTargets(blocks, get(member, "block").Scalar(), key, depth + 1, out);
        }
      }
    };
    visit(member);
    if (get(member, "params").IsMap()) visit(get(member, "params"));
  }
}

bool searchable(const spec::ParamDef &def) { return !def.inferred && def.type != spec::ParamType::IntList; }

}  // namespace

std::vector<ModelField> modelFields(const std::string &modelYaml) {
  std::vector<ModelField> fields;
  YAML::Node root;
  try {
    root = YAML::Load(modelYaml);
  } catch (const YAML::Exception &) {
    return fields;
  }
  bool generated = false;
  const YAML::Node list = topList(root, &generated);
  if (!list.IsSequence()) return fields;
  const YAML::Node blocks = get(root, "blocks");
  for (size_t i = 0; i < list.size(); ++i) {
    const YAML::Node entry = list[i];
    if (!entry.IsMap()) continue;
    const std::string id = entryId(entry, generated, i);
    if (id.empty()) continue;
    if (present(get(entry, "op")) && get(entry, "op").IsScalar()) {
      const spec::OpDef *op = spec::Registry::instance().find(get(entry, "op").Scalar());
      if (!op) continue;
      for (const spec::ParamDef &def : op->params) {
        if (!searchable(def)) continue;
        ModelField f{"model." + id + "." + def.name, id, def.name, op->name, "", {&def}, ""};
        if (const YAML::Node value = written(entry, def.name); present(value)) f.current = text(value);
        else if (def.defaultValue) f.current = spec::formatParamValue(*def.defaultValue);
        fields.push_back(std::move(f));
      }
    } else if (present(get(entry, "block")) && get(entry, "block").IsScalar()) {
      const std::string block = get(entry, "block").Scalar();
      const YAML::Node params = get(get(blocks, block), "params");
      if (!params.IsMap()) continue;
      for (auto it = params.begin(); it != params.end(); ++it) {
        const std::string name = it->first.Scalar();
        ModelField f{"model." + id + "." + name, id, name, "", block, {}, ""};
        collectTargets(blocks, block, name, 0, f.params);
        if (const YAML::Node value = written(entry, name); present(value)) f.current = text(value);
        else if (present(it->second)) f.current = text(it->second);
        fields.push_back(std::move(f));
      }
    }
  }
  return fields;
}

std::string modelFieldProblem(const std::vector<ModelField> &fields, const std::string &modelYaml,
                              const std::string &key) {
  const std::string prefix = "model.";
  const size_t lastDot = key.rfind('.');
  if (key.rfind(prefix, 0) != 0 || lastDot == std::string::npos || lastDot <= prefix.size())
    return "a model key reads model.<node id>.<field>";
  for (const ModelField &f : fields)
    if (f.key == key) return {};
  const std::string node = key.substr(prefix.size(), lastDot - prefix.size());
  const std::string field = key.substr(lastDot + 1);

  std::vector<std::string> nodeFields, nodeIds;
  const ModelField *sameNode = nullptr;
  for (const ModelField &f : fields) {
    if (f.node == node) nodeFields.push_back(f.field), sameNode = &f;
    if (nodeIds.empty() || nodeIds.back() != f.node) nodeIds.push_back(f.node);
  }
  YAML::Node root;
  try {
    root = YAML::Load(modelYaml);
  } catch (const YAML::Exception &) {
    return "the model does not parse";
  }
  const YAML::Node entry = findEntry(root, node);
  if (entry.IsMap() && present(get(entry, "op")) && get(entry, "op").IsScalar()) {
    const spec::OpDef *op = spec::Registry::instance().find(get(entry, "op").Scalar());
    const std::string what = "node '" + node + "' (" + get(entry, "op").Scalar() + ")";
    if (const spec::ParamDef *def = op ? op->param(field) : nullptr) {
      if (def->inferred) return what + ": '" + field + "' is inferred from the incoming shape, so it cannot be searched";
      return what + ": '" + field + "' is a list, and a sweep searches single values";
    }
    return what + " has no parameter '" + field + "'" + didYouMean(field, nodeFields) +
           (nodeFields.empty() ? std::string() : "; searchable: " + join(nodeFields));
  }
  if (entry.IsMap() && sameNode) {
    return "node '" + node + "' (block " + sameNode->block + ") has no parameter '" + field + "'" +
           didYouMean(field, nodeFields) + "; its parameters: " + join(nodeFields);
  }
  // A member of a block instance: point at the instance's parameter that sets it.
  const size_t dot = node.find('.');
  if (dot != std::string::npos) {
    const std::string instance = node.substr(0, dot), member = node.substr(dot + 1);
    const YAML::Node owner = findEntry(root, instance);
    if (owner.IsMap() && present(get(owner, "block"))) {
      const std::string block = get(owner, "block").Scalar();
      std::string hint;
      const YAML::Node definition = get(get(root, "blocks"), block);
      const YAML::Node members = present(get(definition, "nodes")) ? get(definition, "nodes") : get(definition, "layers");
      for (const YAML::Node &m : members) {
        if (!m.IsMap() || !present(get(m, "id")) || get(m, "id").Scalar() != member) continue;
        const YAML::Node value = written(m, field);
        if (present(value) && value.IsScalar() && value.Scalar().size() > 1 && value.Scalar()[0] == '$')
          hint = "; its " + field + " is the block parameter '" + value.Scalar().substr(1) + "': search model." +
                 instance + "." + value.Scalar().substr(1);
      }
      std::vector<std::string> params;
      for (const ModelField &f : fields)
        if (f.node == instance) params.push_back(f.key);
      if (hint.empty()) hint = params.empty() ? std::string() : "; search the instance's parameters (" + join(params) + ")";
      return "'" + node + "' is a member of block instance '" + instance + "' (block " + block +
             "), whose definition every instance shares" + hint;
    }
  }
  return "the model has no node '" + node + "'" + didYouMean(node, nodeIds) +
         (nodeIds.empty() ? std::string() : "; nodes with searchable fields: " + join(nodeIds));
}

bool setModelField(YAML::Node &root, const std::string &node, const std::string &field, const std::string &valueText) {
  YAML::Node entry = findEntry(root, node);
  if (!entry.IsMap()) return false;
  const YAML::Node value = YAML::Load(valueText);
  YAML::Node params = get(entry, "params");
  if (!present(get(entry, field)) && present(get(params, field))) params[field] = value;
  else entry[field] = value;
  return true;
}

}  // namespace tw::sweep
