#pragma once
// Internal to core/sweep: the problems found while reading a sweep file, each located at
// file:line:column and naming the key, collected so that one ConfigError lists them all.

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tw::sweep::detail {

class Problems {
 public:
  explicit Problems(std::string file) : m_file(std::move(file)) {}

  // "sweep.yaml:7:3: <message>"; a node made by an override has no mark and reads
  // "sweep.yaml (set by an override): <message>".
  void add(const YAML::Mark &mark, const std::string &message);
  void add(const YAML::Node &node, const std::string &message) { add(node.Mark(), message); }
  void addFileLevel(const std::string &message);

  bool empty() const { return m_items.empty(); }
  size_t count() const { return m_items.size(); }
  const std::string &file() const { return m_file; }
  std::string location(const YAML::Mark &mark) const;

  // Throws config::ConfigError listing every problem, one per line; nothing when there are none.
  void throwIfAny() const;

 private:
  std::string m_file;
  std::vector<std::string> m_items;
};

// Typed scalars with a problem naming `key` when the node does not hold one.
std::optional<int64_t> readInt(const YAML::Node &node, const std::string &key, Problems &problems);
std::optional<double> readNumber(const YAML::Node &node, const std::string &key, Problems &problems);
std::optional<bool> readBool(const YAML::Node &node, const std::string &key, Problems &problems);
std::optional<std::string> readText(const YAML::Node &node, const std::string &key, Problems &problems);

// " (did you mean 'x'?)" for the nearest of `candidates`, or "" when none is near.
std::string didYouMean(const std::string &name, const std::vector<std::string> &candidates);

std::string join(const std::vector<std::string> &items, const std::string &separator = ", ");

}  // namespace tw::sweep::detail
