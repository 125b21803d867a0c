#include "core/config/unfreeze.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace tw::config {

std::vector<UnfreezeStep> parseUnfreeze(const std::vector<std::string> &steps, std::string *problem) {
  std::vector<UnfreezeStep> out;
  for (const std::string &text : steps) {
    const size_t colon = text.find(':');
    UnfreezeStep step;
    char *end = nullptr;
    const std::string epoch = colon == std::string::npos ? std::string() : text.substr(0, colon);
    step.epoch = std::strtoll(epoch.c_str(), &end, 10);
    if (epoch.empty() || *end != '\0') {
      *problem = "'" + text + "' is not a step (expected EPOCH:NODE[+NODE...], e.g. 3:h2+h1, or {epoch: 3, nodes: [h2, h1]})";
      return {};
    }
    std::string rest = text.substr(colon + 1);
    for (size_t start = 0; start <= rest.size();) {
      const size_t plus = std::min(rest.find('+', start), rest.size());
      std::string node = rest.substr(start, plus - start);
      node.erase(0, node.find_first_not_of(" \t"));
      node.erase(node.find_last_not_of(" \t") + 1);
      if (!node.empty()) step.nodes.push_back(node);
      start = plus + 1;
    }
    if (step.nodes.empty()) {
      *problem = "'" + text + "' names no node to unfreeze";
      return {};
    }
    out.push_back(std::move(step));
  }
  return out;
}

std::string unfreezeStepText(const std::vector<std::pair<std::string, std::vector<std::string>>> &entries) {
  std::string epoch, nodes;
  for (const auto &[key, values] : entries) {
    if (key == "epoch" && values.size() == 1) {
      epoch = values.front();
    } else if (key == "nodes" && !values.empty()) {
      for (const std::string &node : values) nodes += (nodes.empty() ? "" : "+") + node;
    } else {
      throw std::invalid_argument("a step {epoch: N, nodes: [ids]} ('" + key + "' is not one of its keys)");
    }
  }
  if (epoch.empty() || nodes.empty()) throw std::invalid_argument("a step {epoch: N, nodes: [ids]} with both keys");
  return epoch + ":" + nodes;
}

bool coversNode(const std::string &name, const std::string &id) {
  return id == name || (id.size() > name.size() && id.compare(0, name.size(), name) == 0 && id[name.size()] == '.');
}

double unfreezeWarmup(int64_t step, int64_t startStep, int64_t warmupSteps) {
  if (warmupSteps <= 0) return 1.0;
  return std::clamp(static_cast<double>(step - startStep + 1) / static_cast<double>(warmupSteps), 0.0, 1.0);
}

}  // namespace tw::config
