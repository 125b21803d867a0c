#pragma once
// What `torchwright import` refuses: a file that is not ONNX or is truncated, data outside the
// model's folder, an op without a registry counterpart, a shape the designer cannot fix. The
// message names the file, and the node and field where there is one; nothing has been written.

#include <stdexcept>
#include <string>

namespace tw::engine {

struct ImportError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace tw::engine
