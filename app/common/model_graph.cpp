#include "app/common/model_graph.h"

#include "core/config/run_config.h"
#include "core/spec/analysis.h"

#include <algorithm>
#include <stdexcept>

namespace tw::app {

namespace {

std::string graphName(std::string id) {
  std::replace(id.begin(), id.end(), '.', '/');
  return id;
}

tracking::GraphAttr graphAttr(const spec::ParamValue &value) {
  return std::visit([](const auto &v) { return tracking::GraphAttr(v); }, value);
}

}  // namespace

std::vector<tracking::GraphNode> modelGraph(const std::string &configYaml) {
  if (configYaml.empty()) throw std::runtime_error("the run has no recorded configuration (an imported run)");
  const config::RunConfig config = config::parseRunConfig(configYaml, "the run's configuration");
  const spec::Analysis analysis = spec::analyzeOrThrow(spec::parseModelYaml(config.modelYaml, config.modelFile));
  std::vector<tracking::GraphNode> nodes;
  for (const spec::NodeInfo &info : analysis.nodes) {
    tracking::GraphNode node;
    node.name = graphName(info.id);
    node.op = info.op;
    for (const std::string &input : info.inputs) node.inputs.push_back(graphName(input));
    node.outputShape = info.outputShape;
    for (const auto &[name, value] : info.params) node.attrs.emplace_back(name, graphAttr(value));
    node.attrs.emplace_back("parameters", info.paramCount);
    if (!info.trainable) node.attrs.emplace_back("trainable", false);
    nodes.push_back(std::move(node));
  }
  return nodes;
}

}  // namespace tw::app
