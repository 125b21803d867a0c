#pragma once
// Deterministic train/validation/test index splits. The same (n or labels, fractions, seed) gives
// the same split on every platform and standard library (see random.h), so a run can be
// reproduced elsewhere.
//
//   tw::data::SplitIndices split = tw::data::stratifiedSplit(all.labels, 0.1, 0.2, /*seed=*/42);
//   tw::data::Examples train = tw::data::select(all, split.train);  // 70% of every class
//
// Sizes: llround(n * valFraction) for validation and llround(n * testFraction) for test, the rest
// for training. A stratified split gives every class its share of each (largest remainder, so the
// totals stay exact and each class is within one example of its ideal share).

#include <cstdint>
#include <vector>

namespace tw::data {

struct SplitIndices {
  std::vector<int64_t> train, val, test;  // each sorted ascending; together exactly 0..n-1
};

struct SplitSizes {
  int64_t train = 0, val = 0, test = 0;
};

// How many of n examples each split gets (the sizes above); the validator compares the batch with
// the training split through it. Throws as splitIndices does.
SplitSizes splitSizes(int64_t n, double valFraction, double testFraction);

// Throws std::runtime_error, with the numbers, when a fraction is outside [0, 1), when a split that
// was asked for (fraction > 0) would be empty, or when nothing is left for training.
SplitIndices splitIndices(int64_t n, double valFraction, double testFraction, uint64_t seed);
// labels: class index >= 0 per example (the Examples::labels of a classification set).
SplitIndices stratifiedSplit(const std::vector<int64_t> &labels, double valFraction,
                             double testFraction, uint64_t seed);

}  // namespace tw::data
