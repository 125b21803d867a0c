#include "core/spec/yaml_value.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace tw::spec::detail {

namespace {

bool parseInt(const std::string &text, int64_t &out) {
  if (text.empty()) return false;
  errno = 0;
  char *end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return false;
  out = v;
  return true;
}

bool parseFloat(const std::string &text, double &out) {
  if (text == ".inf" || text == "+.inf" || text == ".Inf") return out = HUGE_VAL, true;
  if (text == "-.inf" || text == "-.Inf") return out = -HUGE_VAL, true;
  if (text == ".nan" || text == ".NaN") return out = NAN, true;
  // strtod also reads hex, "inf" and "nan"; YAML spells those differently, so they stay strings.
  if (text.empty() || text.find_first_not_of("0123456789+-.eE") != std::string::npos) return false;
  char *end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (*end != '\0') return false;
  out = v;
  return true;
}

std::string yamlText(const YAML::Node &node) {
  YAML::Emitter out;
  out << YAML::Flow << node;
  return out.c_str();
}

bool isQuoted(const YAML::Node &node) { return node.Tag() == "!"; }

}  // namespace

ParamValue paramFromYaml(const YAML::Node &node) {
  if (node.IsScalar()) {
    const std::string &text = node.Scalar();
    if (isQuoted(node)) return text;
    int64_t i = 0;
    if (parseInt(text, i)) return i;
    double d = 0;
    if (parseFloat(text, d)) return d;
    if (text == "true" || text == "True" || text == "TRUE") return true;
    if (text == "false" || text == "False" || text == "FALSE") return false;
    return text;
  }
  if (node.IsSequence()) {
    IntList list;
    for (const YAML::Node &item : node) {
      int64_t v = 0;
      if (!item.IsScalar() || isQuoted(item) || !parseInt(item.Scalar(), v)) return yamlText(node);
      list.push_back(v);
    }
    return list;
  }
  if (node.IsNull()) return std::string("null");
  return yamlText(node);
}

void emitParamValue(YAML::Emitter &out, const ParamValue &value) {
  if (auto s = std::get_if<std::string>(&value)) {
    // Quote whatever would otherwise read back as a number, a bool or a null, and anything with a
    // control character: a plain "logits\r" reads back alone as itself, but in a document the
    // line break takes its \r.
    const bool control = std::any_of(s->begin(), s->end(), [](char c) {
      return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
    });
    bool plainIsString = false;
    if (!s->empty() && (*s)[0] != '$' && !control) try {
      const YAML::Node probe = YAML::Load(*s);
      plainIsString = probe.IsScalar() && probe.Scalar() == *s &&
                      std::holds_alternative<std::string>(paramFromYaml(probe));
    } catch (const YAML::Exception &) {
      plainIsString = false;
    }
    if (plainIsString) {
      out << *s;
    } else {
      out << YAML::DoubleQuoted << *s;
    }
    return;
  }
  if (auto list = std::get_if<IntList>(&value)) {
    out << YAML::Flow << YAML::BeginSeq;
    for (int64_t v : *list) out << v;
    out << YAML::EndSeq;
    return;
  }
  out << formatParamValue(value);
}

SourceLocation locationOf(const YAML::Node &node, const std::string &file) {
  SourceLocation where;
  where.file = file;
  const YAML::Mark mark = node.Mark();
  if (mark.line >= 0) {
    where.line = mark.line + 1;
    where.column = mark.column + 1;
  }
  return where;
}

}  // namespace tw::spec::detail
