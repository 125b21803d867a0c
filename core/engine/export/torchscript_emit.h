#pragma once
// What the TorchScript exporter hands one node's emitter: the node, the variables holding its
// inputs, the variable it must assign, and its parameters as attribute paths of the scripted
// module (`self.h1.fc.weight`, so a parameter's name is its node id and its LibTorch name).
// Engine-internal.

#include "core/spec/analysis.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tw::engine {

class TorchScriptEmit {
 public:
  // `hasTensor(name)`: whether the node's module has that parameter or buffer, defined.
  TorchScriptEmit(const spec::NodeInfo &node, std::vector<std::string> inputs, std::string output,
                  std::string modulePath, std::function<bool(const std::string &)> hasTensor);

  const spec::NodeInfo &node() const { return m_node; }
  const std::vector<std::string> &inputs() const { return m_inputs; }
  const std::string &input() const { return m_inputs.at(0); }
  const std::string &output() const { return m_output; }

  // `self.<node path>.<name>`; throws ExportError naming the node when the module has no such
  // tensor. `optional` gives "None" instead.
  std::string param(const std::string &name) const;
  std::string optionalParam(const std::string &name) const;
  bool has(const std::string &name) const { return m_hasTensor(name); }

  void assign(const std::string &expression) { line(m_output + " = " + expression); }
  void line(const std::string &statement) { m_lines.push_back(statement); }
  // A variable of this node's own for an intermediate value.
  std::string temp(const std::string &suffix) const { return m_output + "_" + suffix; }

  [[noreturn]] void fail(const std::string &reason) const;

  const std::vector<std::string> &lines() const { return m_lines; }

  // TorchScript literals: a float that stays a float (1.0, 1e-05), an int list "[2, 2]".
  static std::string number(double value);
  static std::string ints(const std::vector<int64_t> &values);
  static std::string boolean(bool value) { return value ? "True" : "False"; }
  // A Python string literal, quotes and backslashes escaped.
  static std::string quoted(const std::string &text);

 private:
  const spec::NodeInfo &m_node;
  std::vector<std::string> m_inputs;
  std::string m_output;
  std::string m_modulePath;
  std::function<bool(const std::string &)> m_hasTensor;
  std::vector<std::string> m_lines;
};

}  // namespace tw::engine
