#pragma once
// The last dataset a process read, kept for the next run that reads the same data: a worker that
// trains a sweep's trials one after another (torchwright-worker --serve) reads and splits the data
// once, not once a trial. Only what shapes the data is compared; the batch size, shuffling,
// augmentation and prefetch act on batches later and may differ between the runs that share it.
// The tensors are shared, never written: the trainer takes batches with index_select and slice.
// Engine-internal.

#include "core/config/run_config.h"
#include "core/engine/dataset.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tw::engine {

class DatasetCache {
 public:
  // loadDataset's result for these arguments: the kept one when they match, else read anew
  // (and kept instead). Throws as loadDataset does; a failed read keeps nothing.
  Dataset load(const config::DataOptions &options, int64_t seed, const data::ModelUse &use);
  int64_t hits() const { return m_hits; }

 private:
  std::string m_key;
  std::optional<Dataset> m_data;
  int64_t m_hits = 0;
};

// What identifies the data a run reads: its data options without the batching ones, the split
// seed, how the model uses the inputs, and the data file's size and modification time.
std::string datasetKey(const config::DataOptions &options, int64_t seed, const data::ModelUse &use);

}  // namespace tw::engine
