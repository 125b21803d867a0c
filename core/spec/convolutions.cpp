#include "core/spec/convolutions.h"

namespace tw::spec {

int convolutionDims(const std::string &op) {
  if (op == "Conv1d") return 1;
  if (op == "Conv2d") return 2;
  return 0;
}

bool hasConvolution(const ModelSpec &spec, int dims) {
  for (const Node &node : spec.nodes) {
    const int d = convolutionDims(node.op);
    if (d > 0 && (dims == 0 || d == dims)) return true;
  }
  return false;
}

}  // namespace tw::spec
