#pragma once
// Quasi-random search: point n of a low-discrepancy sequence for trial n, which covers the space
// more evenly than independent draws and, being a function of n alone, resumes exactly.
//
//   sampler: {type: qmc, qmc_type: sobol, scramble: true, seed: 1}
//
// Each parameter of the space owns one dimension, in declared order, whether or not it is active
// in a given trial (so a parameter's values do not depend on which others are active); the unit
// value goes through fromUnit, so logs, steps and choices are honoured.
// Sobol uses Joe and Kuo's direction numbers (new-joe-kuo-6.21201) for its first 40 dimensions;
// scrambled, it applies a random linear matrix scramble and a random digital shift (as SciPy's
// Sobol does), both drawn from the study seed. Halton uses the first primes as bases; scrambled,
// each digit position of each dimension gets its own random permutation of the digits. Spaces with
// more parameters than the Sobol table covers draw the extra dimensions uniformly at random from
// (study seed, trial number).

#include "core/search/sampler.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tw::search {

enum class QmcType { Sobol, Halton };

struct QmcOptions {
  QmcType type = QmcType::Sobol;
  bool scramble = true;
};

class QuasiRandomSampler : public Sampler {
 public:
  explicit QuasiRandomSampler(QmcOptions options = {}) : m_options(options) {}
  Params sample(const SampleContext &ctx) const override;

 private:
  QmcOptions m_options;
};

// The dimensions the Sobol table covers.
int sobolMaxDimensions();

// Point `index` (0, 1, 2, ...) of a `dimensions`-dimensional sequence in [0, 1)^d. `seed` only
// matters when scrambled; dimensions past sobolMaxDimensions() come back as NaN.
std::vector<double> sobolPoint(uint64_t index, int dimensions, bool scramble, uint64_t seed);
std::vector<double> haltonPoint(uint64_t index, int dimensions, bool scramble, uint64_t seed);

}  // namespace tw::search
