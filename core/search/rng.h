#pragma once
// The one random source of core/search: the same draws on every platform and compiler (the
// standard distributions are not specified bit for bit, so none is used). Samplers seed one per
// trial from (study seed, trial number), which makes a sample a pure function of the history:
// a resumed sweep asks exactly what an uninterrupted one would have.

#include <cstdint>
#include <random>
#include <vector>

namespace tw::search {

class Rng {
 public:
  explicit Rng(uint64_t seed) : m_engine(seed) {}
  // Seed for trial `number` of a study seeded `seed` (splitmix64 of both).
  static uint64_t trialSeed(uint64_t seed, int number, uint64_t stream = 0);

  uint64_t next() { return m_engine(); }
  double uniform();                          // [0, 1)
  double uniform(double low, double high);   // [low, high)
  int64_t below(int64_t n);                  // [0, n), n > 0, unbiased
  double normal();                           // standard normal (Box-Muller, cached pair)
  double normal(double mean, double sd) { return mean + sd * normal(); }
  // Index drawn with probability proportional to weights (all >= 0, sum > 0).
  size_t weighted(const std::vector<double> &weights);
  template <typename T>
  void shuffle(std::vector<T> &items) {
    for (size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[static_cast<size_t>(below(int64_t(i)))]);
  }

 private:
  std::mt19937_64 m_engine;
  bool m_haveSpare = false;
  double m_spare = 0.0;
};

}  // namespace tw::search
