#include "core/spec/convolutions.h"

#include "core/spec/registry.h"

namespace tw::spec {

int convolutionDims(const std::string &op) {
  const OpDef *def = Registry::instance().find(op);
  return def ? def->convolutionDims : 0;
}

bool hasConvolution(const ModelSpec &spec, int dims) {
  for (const Node &node : spec.nodes) {
    const int d = convolutionDims(node.op);
    if (d > 0 && (dims == 0 || d == dims)) return true;
  }
  return false;
}

}  // namespace tw::spec
