#pragma once
// One batch of a streamed image source assembled: the examples read through the cache as uint8 on
// the decode threads, each cropped and flipped while still 8-bit (image_augment.h) and turned into
// floats in its own place through a 256-entry table that holds the standardisation. The engine's
// batches and `torchwright data bench` both come from here, so the benchmark measures the pipeline
// training uses.
//
//   const ByteTable table = standardisedBytes(true, mean, stddev);
//   BatchRead r = readImageBatch(cache, rows.data(), rows.size(), table, workers, skipBad, out);
//   // out: rows.size() x exampleBytes floats; r.kept[k] == 0 where example k was skipped

#include "core/data/example_cache.h"
#include "core/data/image_augment.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tw::data {

using ByteTable = std::array<float, 256>;

// byte -> float in [0, 1] (kByteToUnit), standardised as ImageStandardizer::apply does when
// `normalize`, so a streamed pixel is bit for bit the in-memory one.
ByteTable standardisedBytes(bool normalize, double mean, double stddev);

struct BatchRead {
  std::vector<char> kept;           // per example: 1 read, 0 skipped (only with skipBad)
  int64_t skipped = 0;
  std::vector<std::string> errors;  // why each skipped example was skipped, naming it
};

// Training augmentation for one batch: example k of the batch takes draw k of `seed`
// (drawAugments), whether or not its neighbours were skipped.
struct BatchAugment {
  AugmentOptions options;
  uint64_t seed = 0;
};

// Reads the store rows `rows[0..n)` into `out` (n x exampleBytes floats), augmented when
// `augment` is given (the store's examples [C, H, W]). Without skipBad the first error (by
// position) is thrown once every thread has stopped.
BatchRead readImageBatch(ExampleCache &cache, const int64_t *rows, int64_t n, const ByteTable &table, int workers,
                         bool skipBad, float *out, const BatchAugment *augment = nullptr);

}  // namespace tw::data
