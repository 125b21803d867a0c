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

// splitmix64's finaliser: turns (seed, stream) into well-spread, independent seeds. Every random
// choice of a run draws from mixSeed(train.seed, <its stream>), so that changing one (say, the
// number of samples of a synthetic set) leaves the others as they were.
uint64_t mixSeed(uint64_t a, uint64_t b);
// The streams, one per use, in one list so that no two uses share one.
inline constexpr uint64_t kIdxSplitStream = 0x5b1;    // IDX: the validation hold-out
inline constexpr uint64_t kSplitStream = 0x5b2;       // every other source: validation and test
inline constexpr uint64_t kShuffleStream = 0x5f1;     // per-epoch batch order (the engine's)
inline constexpr uint64_t kSyntheticStream = 0x5e7;   // spirals and blobs: the points themselves
inline constexpr uint64_t kStatisticsStream = 0x5a7;  // streamed images: the sample the mean and std come from
inline constexpr uint64_t kTokenWindowStream = 0x5c1; // token files: where each epoch's random windows start
// 0..n-1 in the order of a seeded Fisher-Yates shuffle on std::mt19937_64 (gen() % (i + 1), whose
// bias is below 2^-40 for any realistic n): the batch order of one epoch. Kept apart from
// shuffleIndices because recorded runs' batch orders depend on its exact draws.
std::vector<int64_t> permutation(int64_t n, uint64_t seed);

}  // namespace tw::data
