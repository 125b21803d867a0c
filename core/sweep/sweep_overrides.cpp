#include "core/sweep/sweep_file.h"
#include "core/sweep/sweep_sections.h"

namespace tw::sweep::detail {

namespace {

// The child of `map` whose key is the longest prefix of `path` ending at a dot or at its end:
// space keys hold dots themselves (`space.train.lr.high`).
bool longestKey(const YAML::Node &map, const std::string &path, std::string *key) {
  key->clear();
  for (auto it = map.begin(); it != map.end(); ++it) {
    if (!it->first.IsScalar()) continue;
    const std::string &k = it->first.Scalar();
    const bool matches = path == k || (path.size() > k.size() && path.compare(0, k.size(), k) == 0 && path[k.size()] == '.');
    if (matches && k.size() > key->size()) *key = k;
  }
  return !key->empty();
}

}  // namespace

void applyOverrides(YAML::Node &root, const std::vector<std::string> &overrides) {
  for (const std::string &override_ : overrides) {
    const std::string context = "override '" + override_ + "'";
    const size_t eq = override_.find('=');
    if (eq == std::string::npos || eq == 0) throw config::ConfigError(context + ": expected key=value");
    const std::string key = override_.substr(0, eq);
    YAML::Node loaded;
    try {
      loaded = YAML::Load(override_.substr(eq + 1));
    } catch (const YAML::Exception &) {
      throw config::ConfigError(context + ": the value is not valid YAML");
    }
    if (!loaded.IsScalar() && !loaded.IsNull())
      throw config::ConfigError(context + ": an override sets a single value (a number, a name, true or false)");
    // A fresh node, without the override text's line and column, which would point into the file.
    const YAML::Node value(loaded.IsNull() ? std::string() : loaded.Scalar());

    YAML::Node node;
    node.reset(root);
    std::string rest = key;
    while (true) {
      if (!node.IsMap() && !node.IsNull())
        throw config::ConfigError(context + ": '" + key.substr(0, key.size() - rest.size() - 1) + "' is not a map");
      std::string found;
      if (node.IsMap() && longestKey(node, rest, &found)) {
        YAML::Node child = node[found];
        if (found == rest) {
          if (child.IsMap() || child.IsSequence())
            throw config::ConfigError(context + ": '" + key + "' holds more than one value; set one of its keys");
          node[found] = value;
          break;
        }
        node.reset(child);
        rest = rest.substr(found.size() + 1);
        continue;
      }
      const size_t dot = rest.find('.');
      if (dot == std::string::npos) {
        node[rest] = value;
        break;
      }
      YAML::Node child(YAML::NodeType::Map);
      node[rest.substr(0, dot)] = child;
      node.reset(child);
      rest = rest.substr(dot + 1);
    }
  }
}

}  // namespace tw::sweep::detail

namespace tw::sweep {

bool changeableOnResume(const std::string &key) {
  for (const char *prefix : {"budget.", "sampler.", "pruner.", "executor."})
    if (key.rfind(prefix, 0) == 0) return true;
  return key == "parallel" || key == "retries" || key == "sampler" || key == "pruner";
}

}  // namespace tw::sweep
