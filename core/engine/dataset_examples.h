#pragma once
// The sources that come as tw::data::Examples (CSV tables, image folders, synthetic sets) as a
// Dataset: split, standardised on the training split, fingerprinted, as tensors.
// Engine-internal; loadDataset() dispatches here.

#include "core/engine/dataset.h"

namespace tw::engine {

Dataset loadExampleDataset(const config::DataOptions &options, int64_t seed);

}  // namespace tw::engine
