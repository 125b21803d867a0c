#include "core/engine/import/import_ids.h"

#include "core/spec/names.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace tw::engine {

namespace {

std::string lower(std::string s) {
  for (char &c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::vector<std::string> split(const std::string &name, char sep) {
  std::vector<std::string> parts;
  std::string part;
  for (char c : name) {
    if (c == sep) {
      if (!part.empty()) parts.push_back(part);
      part.clear();
    } else {
      part += c;
    }
  }
  if (!part.empty()) parts.push_back(part);
  return parts;
}

// torch names a node by its module scopes and its own name: "/features/features.1/block/block.1/
// fc1/Conv". A scope that extends the one before it with ".k" is that container's child k, so
// the module path is features.1.block.1.fc1.
struct Scoped {
  std::string path;  // "features.1.block.1.fc1"; empty for a node outside any module
  std::string own;   // "Conv"
};

Scoped scoped(const std::string &onnxName) {
  std::vector<std::string> parts = split(onnxName, '/');
  Scoped s;
  if (parts.empty()) return s;
  s.own = parts.back();
  parts.pop_back();
  std::vector<std::string> path;
  for (const std::string &part : parts) {
    if (!path.empty() && part.rfind(path.back() + ".", 0) == 0) path.back() = part;
    else path.push_back(part);
  }
  for (const std::string &p : path) s.path += (s.path.empty() ? "" : ".") + p;
  return s;
}

// The module path of a weight's initializer, when it is one ("fc.weight" -> "fc"; torch's
// "onnx::Conv_193" for a fused one is not).
std::string weightPath(const std::string &weightName) {
  const std::string suffix = ".weight";
  if (weightName.size() <= suffix.size() || weightName.compare(weightName.size() - suffix.size(), suffix.size(), suffix) != 0)
    return {};
  const std::string path = weightName.substr(0, weightName.size() - suffix.size());
  return path.find(':') == std::string::npos && path.find('/') == std::string::npos ? path : std::string();
}

}  // namespace

std::string portableName(const std::string &text, const std::string &prefix) {
  std::string out;
  for (char c : text) out += std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ? c : '_';
  if (out.empty() || !std::isalpha(static_cast<unsigned char>(out[0]))) out = prefix + out;
  return out;
}

std::vector<std::string> chooseNodeIds(const ImportGraph &graph) {
  std::vector<Scoped> scopes;
  for (const ImportNode &node : graph.nodes) scopes.push_back(scoped(node.onnxName));
  std::vector<std::string> ids;
  std::set<std::string> taken;
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const ImportNode &node = graph.nodes[i];
    std::string base = weightPath(node.weightName);
    if (base.empty() && node.op == "Input") base = node.onnxName;
    if (base.empty() && !scopes[i].path.empty()) {
      base = scopes[i].path;
      const std::string inside = base + ".";
      const bool container = std::any_of(scopes.begin(), scopes.end(), [&](const Scoped &s) {
        return s.path.rfind(inside, 0) == 0 || (&s != &scopes[i] && s.path == base);
      });
      if (container) base += "." + lower(scopes[i].own);
    }
    if (base.empty()) base = lower(scopes[i].own.empty() ? node.op : scopes[i].own);
    base = portableName(base);
    std::string id = base;
    for (int k = 2; !taken.insert(id).second; ++k) id = base + "_" + std::to_string(k);
    ids.push_back(id);
  }
  return ids;
}

}  // namespace tw::engine
