#include "core/sweep/yaml_text.h"

namespace tw::sweep::detail {

namespace {

void emit(YAML::Emitter &out, const YAML::Node &node) {
  switch (node.Type()) {
    case YAML::NodeType::Map:
      if (node.Style() == YAML::EmitterStyle::Flow) out << YAML::Flow;
      out << YAML::BeginMap;
      for (auto it = node.begin(); it != node.end(); ++it) {
        out << YAML::Key;
        emit(out, it->first);
        out << YAML::Value;
        emit(out, it->second);
      }
      out << YAML::EndMap;
      break;
    case YAML::NodeType::Sequence:
      if (node.Style() == YAML::EmitterStyle::Flow) out << YAML::Flow;
      out << YAML::BeginSeq;
      for (const YAML::Node &item : node) emit(out, item);
      out << YAML::EndSeq;
      break;
    case YAML::NodeType::Scalar:
      // The parser tags a quoted scalar "!" (non-specific): it is text whatever it looks like.
      if (node.Tag() == "!") out << YAML::DoubleQuoted;
      out << node.Scalar();
      break;
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined: out << YAML::Null; break;
  }
}

}  // namespace

std::string yamlText(const YAML::Node &root) {
  YAML::Emitter out;
  emit(out, root);
  return std::string(out.c_str()) + "\n";
}

}  // namespace tw::sweep::detail
