#include "core/sweep/sweep_sections.h"

#include "core/config/metric_direction.h"
#include "core/config/metric_keys.h"
#include "core/config/run_task.h"

#include <algorithm>

namespace tw::sweep::detail {

namespace {

// The metrics a trial of `base` reports each epoch: its task's validation metrics.
std::vector<std::string> validationMetrics(const config::RunConfig &base) {
  return config::monitorKeys(base.data, base.train.topK);
}

Objective readOne(const YAML::Node &node, const config::RunConfig *base, size_t count, Problems &problems) {
  Objective objective;
  // A metric alone, or {metric, direction}. (Assigning to a yaml-cpp Node that already refers to
  // part of the tree would overwrite that part, hence the one-time initialisation.)
  const YAML::Node metric = node.IsMap() ? node["metric"] : node;
  const YAML::Node direction = node.IsMap() ? node["direction"] : YAML::Node(YAML::NodeType::Undefined);
  if (node.IsMap()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      const std::string key = it->first.Scalar();
      if (key != "metric" && key != "direction")
        problems.add(it->first, "key 'objective': unknown field '" + key + "' (fields: metric, direction)");
    }
    if (!metric) {
      problems.add(node, "key 'objective': needs 'metric' (e.g. val/accuracy)");
      return objective;
    }
  }
  const auto name = readText(metric, "objective.metric", problems);
  if (!name) return objective;
  objective.metric = *name;
  if (*name == "params") {
    if (count < 2)
      problems.add(metric, "key 'objective.metric': 'params' (the model's parameter count) is an objective only beside "
                           "another metric, in a list of two");
  } else if (base) {
    const std::vector<std::string> known = validationMetrics(*base);
    if (std::find(known.begin(), known.end(), *name) == known.end())
      problems.add(metric, "key 'objective.metric': '" + *name + "' is not a validation metric this run records (" +
                               join(known) + (count > 1 ? ", or params" : "") + ")" + didYouMean(*name, known));
  }
  // The parameter count is better smaller; every metric goes the way early stopping takes it.
  const bool lower = *name == "params" || config::metrics::lowerIsBetter(*name);
  objective.direction = lower ? search::Direction::Minimize : search::Direction::Maximize;
  if (direction) {
    const auto text = readText(direction, "objective.direction", problems);
    if (text && !search::parseDirection(*text, &objective.direction))
      problems.add(direction, "key 'objective.direction': '" + *text + "' is not minimize or maximize");
  }
  return objective;
}

}  // namespace

std::vector<Objective> readObjectives(const YAML::Node &node, const YAML::Node &root, const config::RunConfig *base,
                                      Problems &problems) {
  std::vector<Objective> objectives;
  if (!node || node.IsNull()) {
    if (!base) {
      problems.add(root, "no 'objective': give {metric: ..., direction: minimize|maximize}");
      return objectives;
    }
    Objective objective;
    objective.metric = base->train.monitor;
    objective.direction =
        config::metrics::lowerIsBetter(objective.metric) ? search::Direction::Minimize : search::Direction::Maximize;
    return {objective};
  }
  if (node.IsSequence()) {
    if (node.size() < 1 || node.size() > 2) {
      problems.add(node, "key 'objective': one objective, or a list of two");
      return objectives;
    }
    for (const YAML::Node &item : node) objectives.push_back(readOne(item, base, node.size(), problems));
    if (objectives.size() == 2 && objectives[0].metric == objectives[1].metric)
      problems.add(node, "key 'objective': the two objectives are the same metric '" + objectives[0].metric + "'");
    return objectives;
  }
  if (!node.IsMap() && !node.IsScalar()) {
    problems.add(node, "key 'objective': expected {metric, direction} or a list of two");
    return objectives;
  }
  objectives.push_back(readOne(node, base, 1, problems));
  return objectives;
}

}  // namespace tw::sweep::detail
