#include "core/search/rng.h"

#include <cmath>
#include <numeric>

namespace tw::search {

namespace {
uint64_t splitmix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
}  // namespace

uint64_t Rng::trialSeed(uint64_t seed, int number, uint64_t stream) {
  return splitmix(splitmix(splitmix(seed) ^ static_cast<uint64_t>(number)) ^ stream);
}

double Rng::uniform() { return static_cast<double>(m_engine() >> 11) * 0x1.0p-53; }

double Rng::uniform(double low, double high) { return low + (high - low) * uniform(); }

int64_t Rng::below(int64_t n) {
  if (n <= 1) return 0;
  const uint64_t range = static_cast<uint64_t>(n);
  const uint64_t limit = UINT64_MAX - UINT64_MAX % range;  // reject the uneven tail
  uint64_t x;
  do x = m_engine();
  while (x >= limit);
  return static_cast<int64_t>(x % range);
}

double Rng::normal() {
  if (m_haveSpare) {
    m_haveSpare = false;
    return m_spare;
  }
  double u1;
  do u1 = uniform();
  while (u1 <= 0.0);
  const double u2 = uniform();
  const double r = std::sqrt(-2.0 * std::log(u1));
  m_spare = r * std::sin(2.0 * M_PI * u2);
  m_haveSpare = true;
  return r * std::cos(2.0 * M_PI * u2);
}

size_t Rng::weighted(const std::vector<double> &weights) {
  const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
  double x = uniform() * total;
  for (size_t i = 0; i < weights.size(); ++i) {
    if (x < weights[i]) return i;
    x -= weights[i];
  }
  for (size_t i = weights.size(); i > 0; --i)
    if (weights[i - 1] > 0) return i - 1;
  return 0;
}

}  // namespace tw::search
