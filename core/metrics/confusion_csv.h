#pragma once
// The confusion matrix as a run's artifact file: class names as the header row and the first
// column, row = truth, column = prediction, counts in the cells; a name with a comma, quote or
// line end is quoted as RFC 4180 says. The engine writes it; Studio's parser and its tests read
// exactly this.
//
//   confusionCsv({8, 2, 1, 9}, 2, {"cat", "dog"})
//   // truth\predicted,cat,dog
//   // cat,8,2
//   // dog,1,9

#include <cstdint>
#include <string>
#include <vector>

namespace tw::metrics {

// `confusion` holds classes x classes counts, row-major. A class without a name is its index.
std::string confusionCsv(const std::vector<int64_t> &confusion, int64_t classes,
                         const std::vector<std::string> &classNames);

// Class `c`'s name (its index when `names` has none) as one CSV field, quoted where needed.
std::string csvClassName(const std::vector<std::string> &names, int64_t c);

}  // namespace tw::metrics
