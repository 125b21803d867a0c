#include "core/data/shuffle_order.h"

#include "core/data/random.h"

#include <algorithm>
#include <map>
#include <random>

namespace tw::data {

std::vector<int64_t> bufferedShardOrder(const std::vector<int64_t> &groupStarts, int64_t n, int64_t buffer,
                                        uint64_t seed) {
  std::vector<int64_t> starts = groupStarts.empty() ? std::vector<int64_t>{0} : groupStarts;
  const int64_t groups = static_cast<int64_t>(starts.size());
  std::vector<int64_t> concatenated;
  concatenated.reserve(static_cast<size_t>(n));
  for (int64_t g : permutation(groups, seed)) {
    const int64_t begin = starts[static_cast<size_t>(g)];
    const int64_t end = g + 1 < groups ? starts[static_cast<size_t>(g + 1)] : n;
    for (int64_t p = begin; p < end; ++p) concatenated.push_back(p);
  }
  if (buffer <= 1) return concatenated;
  // The buffer's draws come from their own generator, seeded apart from the group order's.
  std::mt19937_64 rng(mixSeed(seed, 0xb0f));
  std::vector<int64_t> pool, order;
  order.reserve(concatenated.size());
  for (int64_t p : concatenated) {
    if (static_cast<int64_t>(pool.size()) < buffer) {
      pool.push_back(p);
      continue;
    }
    const size_t j = static_cast<size_t>(rng() % pool.size());
    order.push_back(pool[j]);
    pool[j] = p;
  }
  while (!pool.empty()) {
    const size_t j = static_cast<size_t>(rng() % pool.size());
    order.push_back(pool[j]);
    pool[j] = pool.back();
    pool.pop_back();
  }
  return order;
}

double orderLabelAutocorrelation(const std::vector<int64_t> &order, const std::vector<int64_t> &labels) {
  if (order.size() < 2) return 0.0;
  std::map<int64_t, double> counts;
  for (int64_t p : order) counts[labels[static_cast<size_t>(p)]] += 1.0;
  const double n = static_cast<double>(order.size());
  double chance = 0.0;
  for (const auto &[label, count] : counts) chance += (count / n) * (count / n);
  if (chance >= 1.0) return 0.0;
  double same = 0.0;
  for (size_t t = 1; t < order.size(); ++t)
    same += labels[static_cast<size_t>(order[t])] == labels[static_cast<size_t>(order[t - 1])] ? 1.0 : 0.0;
  return (same / (n - 1.0) - chance) / (1.0 - chance);
}

}  // namespace tw::data
