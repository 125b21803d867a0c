#pragma once
// Every data source as tensors: train/validation/test splits of inputs and targets, and a
// shuffling batch order. Engine-internal (includes LibTorch).
//
//   Dataset data = loadDataset(config.data, config.train.seed);
//   BatchOrder order(data.train.size(), 128, /*shuffle=*/true, seed, epoch);
//   Batch b = takeBatch(data.train, order.indices(0));

#include "core/config/run_config.h"
#include "core/data/examples.h"
#include "core/dist/dist_env.h"

#include <torch/torch.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace tw::engine {

using data::Task;

struct Split {
  torch::Tensor inputs;   // float [N, ...]
  torch::Tensor targets;  // classification: int64 [N] class indices; regression: float [N, D]
  int64_t size() const { return inputs.defined() ? inputs.size(0) : 0; }
};

struct Dataset {
  Split train, val, test;
  Task task = Task::Classification;
  int64_t classes = 0;                 // classification
  int64_t targetDim = 0;               // regression
  std::vector<std::string> classNames; // may be empty: class numbers then
  std::vector<int64_t> inputShape;     // per example
  bool images = false;                 // inputs are [C, H, W] images (augmentation applies)
  double mean = 0.0, stddev = 1.0;     // images: the training split's pixel statistics
  std::string fingerprint;             // SHA-256 hex over the bytes read and the preprocessing options
  std::string source;                  // where the data was read from ("spirals" for synthetic sets)
  std::vector<std::string> notes;      // what the reader did on the way (filled missing values ...)
};

// IDX (fashion-mnist, mnist; their own test set), csv, image-folder, spirals, blobs (test set held
// out by data.test_fraction). Splits are seeded and, for classification with data.stratify,
// stratified; standardisation is fitted on the training split only. Throws std::runtime_error
// naming the file, line or option.
Dataset loadDataset(const config::DataOptions &options, int64_t seed);

// The example order of one epoch, in batches; with shuffle, a permutation drawn from
// (seed, epoch), so a resumed run sees the same batches.
class BatchOrder {
 public:
  BatchOrder(int64_t examples, int64_t batchSize, bool shuffle, int64_t seed, int64_t epoch);
  // Distributed training: every batch is split into `world` contiguous shares and this rank takes
  // share `rank`, so the ranks together see exactly the batches one process would.
  void shard(int rank, int world);
  int64_t batches() const { return (m_examples + m_batchSize - 1) / m_batchSize; }
  // Indices of this rank's share of batch `b` (the last batch may be smaller); an undefined
  // tensor means the contiguous range [begin(b), end(b)).
  torch::Tensor indices(int64_t b) const;
  int64_t begin(int64_t b) const { return globalBegin(b) + dist::shardBounds(globalSize(b), m_rank, m_world).first; }
  int64_t end(int64_t b) const { return globalBegin(b) + dist::shardBounds(globalSize(b), m_rank, m_world).second; }
  int64_t globalSize(int64_t b) const { return std::min(m_examples, (b + 1) * m_batchSize) - globalBegin(b); }

 private:
  int64_t globalBegin(int64_t b) const { return b * m_batchSize; }

  int64_t m_examples, m_batchSize;
  int m_rank = 0, m_world = 1;
  torch::Tensor m_order;  // int64 permutation; undefined when not shuffling
};

struct Batch {
  torch::Tensor inputs, targets;
};
Batch takeBatch(const Split &split, const BatchOrder &order, int64_t b);

// The permutation behind shuffling, portable across standard libraries (own Fisher-Yates on
// std::mt19937_64, whose sequence the standard fixes).
std::vector<int64_t> permutation(int64_t n, uint64_t seed);
// splitmix64's finaliser: turns (seed, stream) into well-spread, independent seeds.
uint64_t mixSeed(uint64_t a, uint64_t b);

}  // namespace tw::engine
