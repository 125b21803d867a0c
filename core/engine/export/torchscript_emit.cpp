#include "core/engine/export/torchscript_emit.h"

#include "core/engine/export/export_error.h"

#include <cmath>
#include <cstdio>

namespace tw::engine {

TorchScriptEmit::TorchScriptEmit(const spec::NodeInfo &node, std::vector<std::string> inputs, std::string output,
                                 std::string modulePath, std::function<bool(const std::string &)> hasTensor)
    : m_node(node),
      m_inputs(std::move(inputs)),
      m_output(std::move(output)),
      m_modulePath(std::move(modulePath)),
      m_hasTensor(std::move(hasTensor)) {}

std::string TorchScriptEmit::param(const std::string &name) const {
  if (!has(name)) fail("its module has no tensor '" + name + "'");
  return "self." + m_modulePath + "." + name;
}

std::string TorchScriptEmit::optionalParam(const std::string &name) const {
  return has(name) ? param(name) : "None";
}

void TorchScriptEmit::fail(const std::string &reason) const { throwNodeError(m_node.id, m_node.op, reason); }

std::string TorchScriptEmit::number(double value) {
  if (std::isnan(value)) return "float(\"nan\")";
  if (std::isinf(value)) return value > 0 ? "float(\"inf\")" : "-float(\"inf\")";
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  std::string s = text;
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

std::string TorchScriptEmit::ints(const std::vector<int64_t> &values) {
  std::string s = "[";
  for (size_t i = 0; i < values.size(); ++i) s += (i ? ", " : "") + std::to_string(values[i]);
  return s + "]";
}

std::string TorchScriptEmit::quoted(const std::string &text) {
  std::string s = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') s += '\\';
    if (c == '\n') {
      s += "\\n";
      continue;
    }
    s += c;
  }
  return s + "\"";
}

}  // namespace tw::engine
