#include "core/data/random.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace tw::data {

uint64_t uniformBelow(std::mt19937_64 &rng, uint64_t bound) {
  if (bound == 0) throw std::invalid_argument("uniformBelow: bound 0");
  // Reject the lowest (2^64 mod bound) values so that every residue is equally likely.
  const uint64_t threshold = (0 - bound) % bound;
  for (;;) {
    const uint64_t r = rng();
    if (r >= threshold) return r % bound;
  }
}

double uniform01(std::mt19937_64 &rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

double standardNormal(std::mt19937_64 &rng) {
  const double pi = 3.14159265358979323846;
  const double u1 = 1.0 - uniform01(rng);  // (0, 1]: log(0) would be -inf
  const double u2 = uniform01(rng);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * pi * u2);
}

void shuffleIndices(std::vector<int64_t> &values, std::mt19937_64 &rng) {
  for (size_t i = values.size(); i > 1; --i) {
    const size_t j = static_cast<size_t>(uniformBelow(rng, i));
    std::swap(values[i - 1], values[j]);
  }
}

uint64_t mixSeed(uint64_t a, uint64_t b) {
  uint64_t z = a + 0x9e3779b97f4a7c15ull * (b + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::vector<int64_t> permutation(int64_t n, uint64_t seed) {
  std::vector<int64_t> order(static_cast<size_t>(std::max<int64_t>(n, 0)));
  for (int64_t i = 0; i < n; ++i) order[static_cast<size_t>(i)] = i;
  std::mt19937_64 gen(seed);
  for (int64_t i = n - 1; i > 0; --i) {
    const int64_t j = static_cast<int64_t>(gen() % static_cast<uint64_t>(i + 1));
    std::swap(order[static_cast<size_t>(i)], order[static_cast<size_t>(j)]);
  }
  return order;
}

}  // namespace tw::data
