#pragma once
// The names a model gives its parts (node ids, block names, the model's name) become metric keys
// (layer norms are logged per node), file names and ONNX names, so they keep to a set every one
// of those accepts: letters, digits, '_', '-' and '.', starting with a letter. Block instances
// produce dotted ids ("dense.fc1"), which the rule keeps valid. The parser and Studio's Design
// page both ask this one function.
//
//   isPortableName("conv1")     // true
//   isPortableName("h1.fc")     // true
//   isPortableName("1st layer") // false

#include <string>

namespace tw::spec {

bool isPortableName(const std::string &name);

// "node id 'my layer' may contain only letters, digits, '_', '-' and '.', and must start with a
// letter" (`what` is "node id", "block name", "model name"); "" when the name is portable.
std::string portableNameProblem(const std::string &what, const std::string &name);

}  // namespace tw::spec
