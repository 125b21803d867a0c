#pragma once
// Instant demo sets that need no file: the same examples from the same seed on every platform
// (random.h), so a demo run is as reproducible as one on real data.
//
//   tw::data::Examples spirals = tw::data::makeSpirals(3000, 3, 0.2, /*seed=*/42);  // features {2}
//   tw::data::Examples blobs = tw::data::makeBlobs(1000, 4, 8, 1.0, 42);            // features {8}
//
// Example i belongs to class i % classes, so any prefix holds every class about equally.
// Both throw std::runtime_error on count < classes, classes < 2, negative noise/spread or dims < 1.

#include "core/data/examples.h"

#include <cstdint>
#include <string>

namespace tw::data {

// The classic interleaved spirals in the plane: arm k starts at angle 2*pi*k/classes and turns
// 1.5 times while its radius grows from 0 to 1; `noise` is the standard deviation of a Gaussian
// added to the angle (radians), so 0 gives clean arms. Features "x", "y".
Examples makeSpirals(int64_t count, int64_t classes, double noise, uint64_t seed);

// Gaussian blobs: one centre per class, uniform in [-10, 10]^dims (from the seed), and points
// around it with standard deviation `spread` in every dimension. Features "x0".."x<dims-1>".
Examples makeBlobs(int64_t count, int64_t classes, int64_t dims, double spread, uint64_t seed);

// The set a run with data.dataset `kind` ("spirals" or "blobs", two features) trains on, from the
// run's train.seed: what training and Studio's data preview both call, so the preview shows the
// very points the run will see. Throws std::runtime_error for another kind.
Examples makeSyntheticSet(const std::string &kind, int64_t count, int64_t classes, double noise, int64_t runSeed);

}  // namespace tw::data
