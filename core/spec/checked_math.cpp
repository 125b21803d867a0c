#include "core/spec/checked_math.h"

namespace tw::spec {

int64_t checkedMul(int64_t a, int64_t b, const std::string &what) {
  int64_t out = 0;
  if (__builtin_mul_overflow(a, b, &out))
    throw ShapeError("", what + " is beyond int64 (" + std::to_string(a) + " x " + std::to_string(b) + ")");
  return out;
}

int64_t checkedAdd(int64_t a, int64_t b, const std::string &what) {
  int64_t out = 0;
  if (__builtin_add_overflow(a, b, &out))
    throw ShapeError("", what + " is beyond int64 (" + std::to_string(a) + " + " + std::to_string(b) + ")");
  return out;
}

int64_t checkedProduct(std::initializer_list<int64_t> factors, const std::string &what) {
  int64_t out = 1;
  for (int64_t f : factors) out = checkedMul(out, f, what);
  return out;
}

int64_t checkedNumel(const Shape &shape, const std::string &what) {
  int64_t out = 1;
  for (int64_t d : shape) out = checkedMul(out, d, what);
  return out;
}

}  // namespace tw::spec
