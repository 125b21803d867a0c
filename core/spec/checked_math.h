#pragma once
// Sizes and parameter counts computed without overflow: a model whose sizes go beyond int64 is
// refused with the node named (the rules throw ShapeError, which analyze() reports at the node),
// never given a negative or wrapped count. Every product or sum of sizes in core/spec goes
// through these.
//
//   return checkedAdd(checkedMul(in, out, "the weight count"), bias, "the parameter count");

#include "core/spec/registry.h"

#include <cstdint>
#include <initializer_list>
#include <string>

namespace tw::spec {

// a * b; throws ShapeError("", "<what> is beyond int64 (a x b)") when it does not fit.
int64_t checkedMul(int64_t a, int64_t b, const std::string &what);
// a + b; throws ShapeError("", "<what> is beyond int64 (a + b)") when it does not fit.
int64_t checkedAdd(int64_t a, int64_t b, const std::string &what);
// The product of all factors, checked at every step.
int64_t checkedProduct(std::initializer_list<int64_t> factors, const std::string &what);
// The number of elements of one sample of `shape`, checked.
int64_t checkedNumel(const Shape &shape, const std::string &what);

}  // namespace tw::spec
