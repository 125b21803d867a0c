#pragma once
// Node ids for an imported model, chosen once every node exists. A node with a weight takes its
// initializer's module path ("layer1.0.conv1" from "layer1.0.conv1.weight"), which is also the
// key a torchvision state_dict uses; any other node takes the module path of its ONNX name
// ("/layer1/layer1.0/relu/Relu" -> "layer1.0.relu"), with the op's own name after it when other
// nodes live inside that module ("layer1.0.add"). Ids are made portable (core/spec/names.h) and
// unique. Engine-internal.

#include "core/engine/import/import_graph.h"

#include <string>
#include <vector>

namespace tw::engine {

// One id per node of `graph.nodes`, in order.
std::vector<std::string> chooseNodeIds(const ImportGraph &graph);

// `text` made a portable name: other characters become '_', and a name that does not start with
// a letter gets `prefix` before it.
std::string portableName(const std::string &text, const std::string &prefix = "n");

}  // namespace tw::engine
