#include "core/search/quasi_random_sampler.h"

#include "core/search/catalog.h"
#include "core/search/random_sampler.h"
#include "core/search/rng.h"

#include <array>
#include <cmath>
#include <limits>

namespace tw::search {

namespace {

constexpr int kBits = 32;
constexpr uint64_t kScrambleStream = 0x51ab'0bb1ULL;  // the scramble's own stream of the study seed

// Joe and Kuo (2008), new-joe-kuo-6.21201, dimensions 2 to 40: degree s, coefficients a, m_1..m_s.
// Dimension 1 is van der Corput and needs none.
struct DirectionRow {
  int s;
  unsigned a;
  std::array<uint32_t, 8> m;
};
constexpr DirectionRow kJoeKuo[] = {
    {1, 0, {1}},
    {2, 1, {1, 3}},
    {3, 1, {1, 3, 1}},
    {3, 2, {1, 1, 1}},
    {4, 1, {1, 1, 3, 3}},
    {4, 4, {1, 3, 5, 13}},
    {5, 2, {1, 1, 5, 5, 17}},
    {5, 4, {1, 1, 5, 5, 5}},
    {5, 7, {1, 1, 7, 11, 19}},
    {5, 11, {1, 1, 5, 1, 1}},
    {5, 13, {1, 1, 1, 3, 11}},
    {5, 14, {1, 3, 5, 5, 31}},
    {6, 1, {1, 3, 3, 9, 7, 49}},
    {6, 13, {1, 1, 1, 15, 21, 21}},
    {6, 16, {1, 3, 1, 13, 27, 49}},
    {6, 19, {1, 1, 1, 15, 7, 5}},
    {6, 22, {1, 3, 1, 15, 13, 25}},
    {6, 25, {1, 1, 5, 5, 19, 61}},
    {7, 1, {1, 3, 7, 11, 23, 15, 103}},
    {7, 4, {1, 3, 7, 13, 13, 15, 69}},
    {7, 7, {1, 1, 3, 13, 7, 35, 63}},
    {7, 8, {1, 3, 5, 9, 1, 25, 53}},
    {7, 14, {1, 3, 1, 13, 9, 35, 107}},
    {7, 19, {1, 3, 1, 5, 27, 61, 31}},
    {7, 21, {1, 1, 5, 11, 19, 41, 61}},
    {7, 28, {1, 3, 5, 3, 3, 13, 69}},
    {7, 31, {1, 1, 7, 13, 1, 19, 1}},
    {7, 32, {1, 3, 7, 5, 13, 19, 59}},
    {7, 37, {1, 1, 3, 9, 25, 29, 41}},
    {7, 41, {1, 3, 5, 13, 23, 1, 55}},
    {7, 42, {1, 3, 7, 3, 13, 59, 17}},
    {7, 50, {1, 3, 1, 3, 5, 53, 69}},
    {7, 55, {1, 1, 5, 5, 23, 33, 13}},
    {7, 56, {1, 1, 7, 7, 1, 61, 123}},
    {7, 59, {1, 1, 7, 9, 13, 61, 49}},
    {7, 62, {1, 3, 3, 5, 3, 55, 33}},
    {8, 14, {1, 3, 1, 15, 31, 13, 49, 245}},
    {8, 21, {1, 3, 5, 15, 31, 59, 63, 97}},
    {8, 22, {1, 3, 1, 11, 11, 11, 77, 249}},
};
constexpr int kSobolDimensions = 1 + static_cast<int>(sizeof kJoeKuo / sizeof kJoeKuo[0]);

// Direction numbers v_1..v_32 of dimension `d` (0-based), left-aligned in 32 bits.
std::array<uint32_t, kBits> directions(int d) {
  std::array<uint32_t, kBits> v{};
  if (d == 0) {
    for (int j = 0; j < kBits; ++j) v[j] = 1u << (kBits - 1 - j);
    return v;
  }
  const DirectionRow &row = kJoeKuo[d - 1];
  for (int j = 0; j < row.s && j < kBits; ++j) v[j] = row.m[j] << (kBits - 1 - j);
  for (int j = row.s; j < kBits; ++j) {
    uint32_t x = v[j - row.s] ^ (v[j - row.s] >> row.s);
    for (int k = 1; k < row.s; ++k)
      if ((row.a >> (row.s - 1 - k)) & 1u) x ^= v[j - k];
    v[j] = x;
  }
  return v;
}

// Left matrix scramble: a random lower-triangular binary matrix with a unit diagonal applied to
// each direction number (bit 31 is the most significant, i.e. the first binary digit).
void scrambleDirections(std::array<uint32_t, kBits> &v, Rng &rng) {
  std::array<uint32_t, kBits> rows{};  // row i: which source digits feed output digit i
  for (int i = 0; i < kBits; ++i) {
    // i random bits above the diagonal; row 0 has none (and a 32-bit shift by 32 is undefined).
    const uint32_t below = i == 0 ? 0u : static_cast<uint32_t>(rng.next() >> (64 - i)) << (kBits - i);
    rows[i] = below | (1u << (kBits - 1 - i));
  }
  for (auto &value : v) {
    uint32_t out = 0;
    for (int i = 0; i < kBits; ++i)
      if (__builtin_parity(rows[i] & value)) out |= 1u << (kBits - 1 - i);
    value = out;
  }
}

constexpr int kPrimes[] = {2,   3,   5,   7,   11,  13,  17,  19,  23,  29,  31,  37,  41,  43,  47,  53,  59,
                           61,  67,  71,  73,  79,  83,  89,  97,  101, 103, 107, 109, 113, 127, 131, 137, 139,
                           149, 151, 157, 163, 167, 173, 179, 181, 191, 193, 197, 199, 211, 223, 227, 229, 233};

int prime(int d) {
  constexpr int count = static_cast<int>(sizeof kPrimes / sizeof kPrimes[0]);
  if (d < count) return kPrimes[d];
  int candidate = kPrimes[count - 1];
  for (int found = count - 1; found < d;) {
    candidate += 2;
    bool isPrime = true;
    for (int f = 3; f * f <= candidate && isPrime; f += 2) isPrime = candidate % f != 0;
    if (isPrime) ++found;
  }
  return candidate;
}

}  // namespace

int sobolMaxDimensions() { return kSobolDimensions; }

std::vector<double> sobolPoint(uint64_t index, int dimensions, bool scramble, uint64_t seed) {
  std::vector<double> point(static_cast<size_t>(dimensions), std::numeric_limits<double>::quiet_NaN());
  Rng rng(Rng::trialSeed(seed, 0, kScrambleStream));
  const uint64_t gray = index ^ (index >> 1);  // Gray-code order, as SciPy and Joe-Kuo generate it
  for (int d = 0; d < dimensions && d < kSobolDimensions; ++d) {
    auto v = directions(d);
    uint32_t x = 0;
    if (scramble) {
      scrambleDirections(v, rng);
      x = static_cast<uint32_t>(rng.next() >> 32);  // the digital shift
    }
    for (int j = 0; j < kBits; ++j)
      if ((gray >> j) & 1u) x ^= v[j];
    point[d] = (static_cast<double>(x) + (scramble ? 0.5 : 0.0)) * 0x1.0p-32;
  }
  return point;
}

std::vector<double> haltonPoint(uint64_t index, int dimensions, bool scramble, uint64_t seed) {
  std::vector<double> point(static_cast<size_t>(dimensions));
  Rng rng(Rng::trialSeed(seed, 0, kScrambleStream + 1));
  for (int d = 0; d < dimensions; ++d) {
    const int base = prime(d);
    // Enough digits that the next one is below double precision.
    const int digits = static_cast<int>(std::ceil(53.0 / std::log2(static_cast<double>(base))));
    double x = 0.0, scale = 1.0 / base;
    uint64_t rest = index;
    std::vector<int> perm(static_cast<size_t>(base));
    for (int k = 0; k < digits; ++k, scale /= base) {
      const int digit = static_cast<int>(rest % static_cast<uint64_t>(base));
      rest /= static_cast<uint64_t>(base);
      int out = digit;
      if (scramble) {
        for (int i = 0; i < base; ++i) perm[static_cast<size_t>(i)] = i;
        rng.shuffle(perm);
        out = perm[static_cast<size_t>(digit)];
      } else if (rest == 0 && digit == 0) {
        break;  // only zeros follow
      }
      x += out * scale;
    }
    point[d] = std::min(x, std::nextafter(1.0, 0.0));
  }
  return point;
}

Params QuasiRandomSampler::sample(const SampleContext &ctx) const {
  const int dims = static_cast<int>(ctx.space.params.size());
  const uint64_t index = static_cast<uint64_t>(ctx.number);
  std::vector<double> point = m_options.type == QmcType::Sobol ? sobolPoint(index, dims, m_options.scramble, ctx.seed)
                                                               : haltonPoint(index, dims, m_options.scramble, ctx.seed);
  Rng rng(Rng::trialSeed(ctx.seed, ctx.number));
  Params params;
  for (size_t i = 0; i < ctx.space.params.size(); ++i) {
    const ParamSpec &spec = ctx.space.params[i];
    const double value = std::isnan(point[i]) ? sampleRandomValue(spec, rng) : fromUnit(spec, point[i]);
    if (isActive(spec, ctx.space, params)) params[spec.key] = value;
  }
  return params;
}

SamplerEntry quasiRandomSamplerEntry() {
  SamplerEntry e;
  e.name = "qmc";
  e.doc = "Point n of a low-discrepancy sequence (Sobol or Halton) for trial n: more even coverage than random, "
          "and an exact resume. Scrambling is seeded from the study seed.";
  e.options = {
      {"qmc_type", OptionKind::Choice, "sobol", {}, {}, {"sobol", "halton"}, "The sequence."},
      {"scramble", OptionKind::Bool, "true", {}, {}, {}, "Randomise the sequence from the study seed."},
  };
  e.multiObjective = true;
  e.make = [specs = e.options](const OptionValues &values) {
    OptionReader read(specs, values);
    QmcOptions options;
    options.type = read.choice("qmc_type") == "halton" ? QmcType::Halton : QmcType::Sobol;
    options.scramble = read.flag("scramble");
    return std::make_unique<QuasiRandomSampler>(options);
  };
  return e;
}

}  // namespace tw::search
