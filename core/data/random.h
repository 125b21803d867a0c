#pragma once
// Seeded randomness that gives the same numbers on every platform and standard library: only
// std::mt19937_64, whose output the standard fixes, and our own mappings on top of it.
// std::uniform_int_distribution, std::normal_distribution and std::shuffle are
// implementation-defined, so a seed would not reproduce a split or a data set elsewhere.
//
//   std::mt19937_64 rng(seed);
//   tw::data::shuffleIndices(order, rng);          // Fisher-Yates
//   double z = tw::data::standardNormal(rng);      // Box-Muller

#include <cstdint>
#include <random>
#include <vector>

namespace tw::data {

// Uniform in [0, bound) without modulo bias; bound must be > 0 (std::invalid_argument otherwise).
uint64_t uniformBelow(std::mt19937_64 &rng, uint64_t bound);
// Uniform in [0, 1) with 53 random bits.
double uniform01(std::mt19937_64 &rng);
// N(0, 1) by Box-Muller; two uniforms per value (no cached second value: no hidden state). The
// result goes through std::log/sqrt/cos, so platforms agree up to libm's last-bit rounding.
double standardNormal(std::mt19937_64 &rng);
// Fisher-Yates from the back, drawing with uniformBelow.
void shuffleIndices(std::vector<int64_t> &values, std::mt19937_64 &rng);

}  // namespace tw::data
