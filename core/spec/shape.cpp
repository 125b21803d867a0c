#include "core/spec/shape.h"
#include "core/spec/checked_math.h"

namespace tw::spec {

std::string formatShape(const Shape &shape, bool withBatch) {
  std::string out = "[";
  if (withBatch) out += shape.empty() ? "N" : "N, ";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(shape[i]);
  }
  return out + "]";
}

int64_t numel(const Shape &shape) { return checkedNumel(shape, "the element count"); }

}  // namespace tw::spec
