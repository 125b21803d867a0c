#include "core/yaml/yaml_problem.h"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <utility>
#include <vector>

namespace tw::yaml {

namespace {

// The first tab in the leading whitespace of lines 0..lastLine (0-based), as {line, column}.
std::pair<int, int> indentationTab(const std::string &text, int lastLine) {
  int line = 0;
  size_t start = 0;
  while (start <= text.size() && line <= lastLine) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    for (size_t i = start; i < end && (text[i] == ' ' || text[i] == '\t'); ++i)
      if (text[i] == '\t') return {line, static_cast<int>(i - start)};
    start = end + 1;
    ++line;
  }
  return {-1, -1};
}

std::string translate(const std::string &msg) {
  if (msg == "end of map flow not found")
    return "a '{' map is not closed: add the missing '}' (or ',' between its entries)";
  if (msg == "end of sequence flow not found")
    return "a '[' list is not closed: add the missing ']' (or ',' between its items)";
  if (msg == "illegal flow end")
    return "a closing bracket that does not match the open one: ']' closes '[' and '}' closes '{'";
  if (msg == "end of map not found")
    return "this line is indented differently from the keys above it: keys of one map start in the same column";
  if (msg == "end of sequence not found")
    return "this line is indented differently from the list above it: items of one list start with '-' in the "
           "same column";
  if (msg == "illegal map value")
    return "a 'key: value' cannot start here: check the line above for a missing ':' and this line's indentation";
  if (msg == "illegal block entry")
    return "a '- ' list item cannot start here: check its indentation against the lines above";
  return msg;
}

}  // namespace

Problem describe(const YAML::Exception &error, const std::string &text) {
  Problem p;
  p.line = error.mark.line >= 0 ? error.mark.line + 1 : 0;
  p.column = error.mark.column >= 0 ? error.mark.column + 1 : 0;
  if (auto deep = dynamic_cast<const YAML::DeepRecursion *>(&error)) {
    p.message = "lists and maps nested too deeply (the parser stops at " + std::to_string(deep->depth()) +
                " levels): look for brackets that are opened and never closed";
    return p;
  }
  // yaml-cpp stops at or just after the line with the tab.
  const auto [tabLine, tabColumn] = indentationTab(text, error.mark.line >= 0 ? error.mark.line : 0);
  if (tabLine >= 0) {
    p.line = tabLine + 1;
    p.column = tabColumn + 1;
    p.message = "a tab in the indentation: YAML indents with spaces only (replace the tab with spaces)";
    return p;
  }
  p.message = translate(error.msg);
  return p;
}

Problem duplicateKey(const YAML::Node &root) {
  std::vector<YAML::Node> pending{root};
  while (!pending.empty()) {
    const YAML::Node node = pending.back();
    pending.pop_back();
    if (node.IsSequence()) {
      for (const auto &item : node) pending.push_back(item);
    } else if (node.IsMap()) {
      std::vector<std::pair<std::string, YAML::Mark>> keys;
      for (const auto &entry : node) {
        if (entry.first.IsScalar()) {
          for (const auto &[key, mark] : keys) {
            if (key != entry.first.Scalar()) continue;
            const YAML::Mark at = entry.first.Mark();
            return {at.line + 1, at.column + 1,
                    "key '" + key + "' appears twice in one map (first on line " + std::to_string(mark.line + 1) +
                        "): keep one"};
          }
          keys.emplace_back(entry.first.Scalar(), entry.first.Mark());
        }
        pending.push_back(entry.second);
      }
    }
  }
  return {};
}

}  // namespace tw::yaml
