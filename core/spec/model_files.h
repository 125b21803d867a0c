#pragma once
// How a model file's companions are named: `net.model.yaml` is the model "net", and its weights
// (as `torchwright import` writes them, and export and predict look for them) are
// `net.weights.pt` beside it. The worker and Studio both ask here.

#include <string>

namespace tw::spec {

// The file name without .model.yaml (or .model.yml, .yaml, .yml).
std::string modelNameOf(const std::string &modelFile);

// `<folder>/<name>.weights.pt` for `<folder>/<name>.model.yaml`.
std::string weightsFileFor(const std::string &modelFile);

}  // namespace tw::spec
