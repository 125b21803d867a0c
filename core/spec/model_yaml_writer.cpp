#include "core/spec/model_spec.h"
#include "core/spec/yaml_value.h"

#include <yaml-cpp/yaml.h>

namespace tw::spec {

SourceLocation Node::locationOf(const std::string &field) const {
  for (const auto &[name, where] : paramLocations)
    if (name == field) return where;
  return where;
}

const Node *ModelSpec::find(const std::string &id) const {
  for (const Node &node : nodes)
    if (node.id == id) return &node;
  return nullptr;
}

std::string toYaml(const ModelSpec &spec) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value;
  detail::emitParamValue(out, spec.name);
  out << YAML::Key << "nodes" << YAML::Value << YAML::BeginSeq;
  for (const Node &node : spec.nodes) {
    out << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "id" << YAML::Value;
    detail::emitParamValue(out, node.id);
    out << YAML::Key << "op" << YAML::Value;
    detail::emitParamValue(out, node.op);
    // Inputs are always written out: the sequential shorthand would depend on node order.
    out << YAML::Key << "inputs" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const std::string &input : node.inputs) detail::emitParamValue(out, input);
    out << YAML::EndSeq;
    if (!node.trainable) out << YAML::Key << "trainable" << YAML::Value << false;
    if (!node.checkpointSegment.empty()) {
      out << YAML::Key << "checkpoint_activations" << YAML::Value;
      if (node.checkpointSegment == node.id) out << true;
      else detail::emitParamValue(out, node.checkpointSegment);
    }
    if (node.lrFactor != 1.0) {
      out << YAML::Key << "lr_factor" << YAML::Value;
      detail::emitParamValue(out, node.lrFactor);
    }
    if (!node.params.empty()) {
      // Nested so that a parameter can never be mistaken for one of the node's own keys.
      out << YAML::Key << "params" << YAML::Value << YAML::Flow << YAML::BeginMap;
      for (const auto &[name, value] : node.params) {
        out << YAML::Key << name << YAML::Value;
        detail::emitParamValue(out, value);
      }
      out << YAML::EndMap;
    }
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
  if (!spec.output.empty()) {
    out << YAML::Key << "output" << YAML::Value;
    detail::emitParamValue(out, spec.output);
  }
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

}  // namespace tw::spec
