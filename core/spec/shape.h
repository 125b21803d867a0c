#pragma once
// A tensor shape without the batch dimension: [C, H, W] for images, [F] for features.

#include <cstdint>
#include <string>
#include <vector>

namespace tw::spec {

using Shape = std::vector<int64_t>;

// "[1, 28, 28]"; the batch dimension is shown as N: "[N, 1, 28, 28]" when withBatch.
std::string formatShape(const Shape &shape, bool withBatch = false);

// Number of elements of one sample (product of dims; 1 for a scalar shape).
int64_t numel(const Shape &shape);

}  // namespace tw::spec
