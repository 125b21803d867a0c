#include "core/data/splits.h"

#include "core/data/random.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace tw::data {

namespace {

std::string num(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

}  // namespace

// Checks the fractions and the resulting sizes once, for both split kinds, so the messages agree.
SplitSizes splitSizes(int64_t n, double valFraction, double testFraction) {
  if (n <= 0) throw std::runtime_error("cannot split " + std::to_string(n) + " examples");
  if (!(valFraction >= 0.0 && valFraction < 1.0))
    throw std::runtime_error("data.val_fraction " + num(valFraction) + " is outside [0, 1)");
  if (!(testFraction >= 0.0 && testFraction < 1.0))
    throw std::runtime_error("data.test_fraction " + num(testFraction) + " is outside [0, 1)");
  SplitSizes s;
  s.val = std::llround(static_cast<double>(n) * valFraction);
  s.test = std::llround(static_cast<double>(n) * testFraction);
  const std::string of = " of " + std::to_string(n) + " examples";
  if (valFraction > 0.0 && s.val == 0)
    throw std::runtime_error("the validation split would be empty: data.val_fraction " +
                             num(valFraction) + of + " rounds to 0 (raise it, or set it to 0)");
  if (testFraction > 0.0 && s.test == 0)
    throw std::runtime_error("the test split would be empty: data.test_fraction " +
                             num(testFraction) + of + " rounds to 0 (raise it, or set it to 0)");
  if (n - s.val - s.test <= 0)
    throw std::runtime_error("nothing is left for training: " + std::to_string(s.val) +
                             " validation + " + std::to_string(s.test) + " test" + of +
                             " (lower data.val_fraction or data.test_fraction)");
  s.train = n - s.val - s.test;
  return s;
}

namespace {

// Splits `total` among classes in proportion to `ideal` (which sums to total up to rounding),
// never giving a class more than its `cap`: floors first, then one more each to the largest
// remainders (ties to the lower class), so every class ends within one example of its share.
std::vector<int64_t> apportion(int64_t total, const std::vector<double> &ideal,
                               const std::vector<int64_t> &cap) {
  const size_t k = ideal.size();
  std::vector<int64_t> share(k, 0);
  int64_t given = 0;
  for (size_t c = 0; c < k; ++c) {
    share[c] = std::min(static_cast<int64_t>(std::floor(ideal[c])), cap[c]);
    given += share[c];
  }
  std::vector<size_t> order(k);
  for (size_t c = 0; c < k; ++c) order[c] = c;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return ideal[a] - std::floor(ideal[a]) > ideal[b] - std::floor(ideal[b]);
  });
  for (size_t c : order) {
    if (given == total) break;
    if (share[c] < cap[c]) {
      ++share[c];
      ++given;
    }
  }
  // Only reached when caps blocked the pass above (a class too small for both its shares).
  for (size_t c = 0; c < k && given < total; ++c) {
    const int64_t more = std::min(cap[c] - share[c], total - given);
    share[c] += more;
    given += more;
  }
  return share;
}

}  // namespace

SplitIndices splitIndices(int64_t n, double valFraction, double testFraction, uint64_t seed) {
  const SplitSizes sizes = splitSizes(n, valFraction, testFraction);
  std::vector<int64_t> order(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) order[static_cast<size_t>(i)] = i;
  std::mt19937_64 rng(seed);
  shuffleIndices(order, rng);

  SplitIndices split;
  const auto testEnd = order.begin() + sizes.test;
  const auto valEnd = testEnd + sizes.val;
  split.test.assign(order.begin(), testEnd);
  split.val.assign(testEnd, valEnd);
  // The training rows are most of them: kept in `order` itself rather than copied out.
  order.erase(order.begin(), valEnd);
  split.train = std::move(order);
  std::sort(split.train.begin(), split.train.end());
  std::sort(split.val.begin(), split.val.end());
  std::sort(split.test.begin(), split.test.end());
  return split;
}

SplitIndices stratifiedSplit(const std::vector<int64_t> &labels, double valFraction,
                             double testFraction, uint64_t seed) {
  const int64_t n = static_cast<int64_t>(labels.size());
  const SplitSizes sizes = splitSizes(n, valFraction, testFraction);

  int64_t classes = 0;
  for (size_t i = 0; i < labels.size(); ++i) {
    if (labels[i] < 0)
      throw std::runtime_error("stratified split: example " + std::to_string(i) + " has label " +
                               std::to_string(labels[i]) + " (labels must be >= 0)");
    classes = std::max(classes, labels[i] + 1);
  }
  std::vector<std::vector<int64_t>> members(static_cast<size_t>(classes));
  for (size_t i = 0; i < labels.size(); ++i)
    members[static_cast<size_t>(labels[i])].push_back(static_cast<int64_t>(i));

  const size_t k = members.size();
  std::vector<double> idealVal(k), idealTest(k);
  std::vector<int64_t> capVal(k), capTest(k);
  for (size_t c = 0; c < k; ++c) {
    const double size = static_cast<double>(members[c].size());
    idealVal[c] = size * valFraction;
    capVal[c] = static_cast<int64_t>(members[c].size());
  }
  const std::vector<int64_t> valShare = apportion(sizes.val, idealVal, capVal);
  for (size_t c = 0; c < k; ++c) {
    idealTest[c] = static_cast<double>(members[c].size()) * testFraction;
    capTest[c] = capVal[c] - valShare[c];
  }
  const std::vector<int64_t> testShare = apportion(sizes.test, idealTest, capTest);

  // One generator through the classes in order: the split depends only on (labels, fractions, seed).
  std::mt19937_64 rng(seed);
  SplitIndices split;
  for (size_t c = 0; c < k; ++c) {
    std::vector<int64_t> &m = members[c];
    shuffleIndices(m, rng);
    const auto testEnd = m.begin() + testShare[c];
    const auto valEnd = testEnd + valShare[c];
    split.test.insert(split.test.end(), m.begin(), testEnd);
    split.val.insert(split.val.end(), testEnd, valEnd);
    split.train.insert(split.train.end(), valEnd, m.end());
  }
  std::sort(split.train.begin(), split.train.end());
  std::sort(split.val.begin(), split.val.end());
  std::sort(split.test.begin(), split.test.end());
  return split;
}

}  // namespace tw::data
