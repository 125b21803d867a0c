#pragma once
// The fields of a model file that a sweep may search, as `model.<node id>.<field>` keys: a plain
// node's registry parameters (`model.logits.out_features`) and a block instance's parameters
// (`model.h1.width` for `{id: h1, block: dense, width: 256}`). Members of a block instance
// (`h1.fc`) are not fields of their own: their values come from the block's definition, shared by
// every instance, so the instance's parameter is what a sweep changes. Parameters the analysis
// infers from the incoming shape (`in_features`) are not searchable either.
//
//   for (const ModelField &f : modelFields(config.modelYaml)) offer(f.key, f.params, f.current);
//   YAML::Node root = YAML::Load(config.modelYaml);
//   setModelField(root, "h1", "width", "384");  // the instance expands with width 384

#include "core/spec/param.h"

#include <string>
#include <vector>

namespace YAML { class Node; }

namespace tw::sweep {

struct ModelField {
  std::string key;    // "model.h1.width"
  std::string node;   // "h1": the id as the model file writes it (or generates it, in `layers:`)
  std::string field;  // "width"
  std::string op;     // the node's op; empty for a block instance
  std::string block;  // the block's name when `field` is a block parameter; empty for a plain node
  // The registry parameters the value reaches: the node's own, or every member parameter the block
  // writes as `$field` (through nested instances too); empty for a block parameter no op reads.
  std::vector<const spec::ParamDef *> params;
  std::string current;  // the value as written, else the default, as YAML text; empty when none
};

// Every searchable field of the model's top-level nodes, in file order. The text must parse as a
// model (spec::parseModelYaml); entries this cannot read are skipped.
std::vector<ModelField> modelFields(const std::string &modelYaml);

// Why `key` names no searchable field, with the nearest known key or, for a member of a block
// instance, the block parameter that sets it; "" when it names one.
std::string modelFieldProblem(const std::vector<ModelField> &fields, const std::string &modelYaml,
                              const std::string &key);

// Writes `valueText` (YAML text, read as the model file would read it) into the node's field of
// the model tree, inside its `params:` map when the field is written there. False when the model
// has no top-level node `node`.
bool setModelField(YAML::Node &root, const std::string &node, const std::string &field, const std::string &valueText);

}  // namespace tw::sweep
