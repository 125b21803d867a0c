#pragma once
// Why an export cannot be written: names the node, its op and the reason (an op or attribute the
// format cannot express, an opset out of range...). Thrown before any file is written.

#include <stdexcept>
#include <string>

namespace tw::engine {

struct ExportError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// "node 'pool' (AdaptiveAvgPool2d): REASON"
[[noreturn]] inline void throwNodeError(const std::string &nodeId, const std::string &op, const std::string &reason) {
  throw ExportError("node '" + nodeId + "' (" + op + "): " + reason);
}

}  // namespace tw::engine
