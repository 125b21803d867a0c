#include "core/spec/shape.h"

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

int64_t numel(const Shape &shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

}  // namespace tw::spec
