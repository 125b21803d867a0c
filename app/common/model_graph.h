#pragma once
// A recorded run's model as TensorBoard's Graphs tab draws it (tracking/tensorboard_graph.h):
// read from the run's resolved configuration, its shapes inferred as `check` does. Block members
// ("enc.fc") nest under their block ("enc/fc").
//
//   exportRun(store, run, ExportFormat::TensorBoard, dir, force, modelGraph(run.configYaml));

#include "tracking/tensorboard_graph.h"

#include <string>
#include <vector>

namespace tw::app {

// Every node with its op, inputs, output shape, typed parameters (the inferred ones filled in),
// parameter count, and "trainable": false when frozen. Throws std::runtime_error saying what is
// wrong when the configuration holds no model that can be analysed (a run imported from another
// tool has none).
std::vector<tracking::GraphNode> modelGraph(const std::string &configYaml);

}  // namespace tw::app
