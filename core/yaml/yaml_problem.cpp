#include "core/yaml/yaml_problem.h"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <cstdio>
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

namespace {

// The first problem `check` finds in any node of the document (keys included), depth first;
// iterative, so a deeply nested document cannot overflow the stack.
template <typename Check>
Problem firstProblem(const YAML::Node &root, Check check) {
  std::vector<YAML::Node> pending{root};
  while (!pending.empty()) {
    const YAML::Node node = pending.back();
    pending.pop_back();
    if (Problem p = check(node); !p.message.empty()) return p;
    if (node.IsSequence()) {
      for (const auto &item : node) pending.push_back(item);
    } else if (node.IsMap()) {
      for (const auto &entry : node) {
        pending.push_back(entry.first);
        pending.push_back(entry.second);
      }
    }
  }
  return {};
}

}  // namespace

Problem duplicateKey(const YAML::Node &root) {
  return firstProblem(root, [](const YAML::Node &node) -> Problem {
    if (!node.IsMap()) return {};
    std::vector<std::pair<std::string, YAML::Mark>> keys;
    for (const auto &entry : node) {
      if (!entry.first.IsScalar()) continue;
      for (const auto &[key, mark] : keys) {
        if (key != entry.first.Scalar()) continue;
        const YAML::Mark at = entry.first.Mark();
        return {at.line + 1, at.column + 1,
                "key '" + key + "' appears twice in one map (first on line " + std::to_string(mark.line + 1) +
                    "): keep one"};
      }
      keys.emplace_back(entry.first.Scalar(), entry.first.Mark());
    }
    return {};
  });
}

Problem notUtf8(const std::string &text) {
  int line = 1, column = 1;
  for (size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    // Lead byte: how many continuation bytes follow, and the smallest value the sequence may
    // encode (no overlong forms), per RFC 3629; surrogates and values past U+10FFFF refused too.
    int more = -1;
    uint32_t value = 0, least = 0;
    if (byte < 0x80) more = 0, value = byte;
    else if ((byte & 0xE0) == 0xC0) more = 1, value = byte & 0x1F, least = 0x80;
    else if ((byte & 0xF0) == 0xE0) more = 2, value = byte & 0x0F, least = 0x800;
    else if ((byte & 0xF8) == 0xF0) more = 3, value = byte & 0x07, least = 0x10000;
    bool ok = more >= 0 && i + static_cast<size_t>(more) < text.size();
    for (int k = 1; ok && k <= more; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      ok = (next & 0xC0) == 0x80;
      value = value << 6 | (next & 0x3F);
    }
    ok = ok && value >= least && value <= 0x10FFFF && !(value >= 0xD800 && value <= 0xDFFF);
    if (!ok) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", byte);
      return {line, column, std::string("a byte that is not UTF-8 text (") + hex + "); YAML files are UTF-8"};
    }
    if (byte == '\n') ++line, column = 1;
    else ++column;
    i += static_cast<size_t>(more) + 1;
  }
  return {};
}

Problem scalarNotUtf8(const YAML::Node &root) {
  return firstProblem(root, [](const YAML::Node &node) -> Problem {
    if (!node.IsScalar() || notUtf8(node.Scalar()).message.empty()) return {};
    const YAML::Mark at = node.Mark();
    return {at.line + 1, at.column + 1,
            "a value whose escapes make bytes that are not UTF-8 text (yaml-cpp reads \\N and \\_ as "
            "single bytes); write the character itself"};
  });
}

}  // namespace tw::yaml
