#pragma once
// The data as tensors: the splits core/data made (data_splits.h), converted once, and a shuffling
// batch order. Engine-internal (includes LibTorch).
//
//   Dataset data = loadDataset(config.data, config.train.seed, modelUse(analysis));
//   BatchOrder order(data.train.size(), 128, /*shuffle=*/true, seed, epoch);
//   Batch b = takeBatch(data.train, order.indices(0));

#include "core/config/run_config.h"
#include "core/data/data_splits.h"
#include "core/data/examples.h"
#include "core/data/random.h"
#include "core/dist/dist_env.h"
#include "core/spec/analysis.h"

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
  std::string fingerprint;             // SHA-256 hex over the bytes read and the preprocessing options
  std::string source;                  // where the data was read from ("spirals" for synthetic sets)
  std::vector<std::string> notes;      // what the reader did on the way (filled missing values ...)
  data::Preprocessing preprocessing;   // statistics, category maps, class names: preprocessing.json
};

// data::loadDataSplits (every source, split and standardised in core/data), as tensors. Each
// split's vectors become its tensors without a copy. Throws std::runtime_error naming the file,
// line, column or option.
Dataset loadDataset(const config::DataOptions &options, int64_t seed, const data::ModelUse &use = {});

// What the data must know of the model: whether its Input takes int64 indices, and the Embeddings
// those reach (their tables' sizes).
data::ModelUse modelUse(const spec::Analysis &analysis);

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

// The seeding is core/data's (random.h), so the data and the batches draw from one scheme.
using data::mixSeed;
using data::permutation;

}  // namespace tw::engine
