#pragma once
// The data as tensors: the splits core/data made (data_splits.h), converted once, and a shuffling
// batch order. Engine-internal (includes LibTorch).
//
//   Dataset data = loadDataset(config.data, config.train.seed, modelUse(analysis));
//   BatchOrder order(data.train.size(), 128, /*shuffle=*/true, seed, epoch);
//   Batch b = takeBatch(data.train, order.indices(0));

#include "core/config/run_config.h"
#include "core/data/example_cache.h"
#include "core/data/image_batch.h"
#include "core/data/data_splits.h"
#include "core/data/examples.h"
#include "core/data/random.h"
#include "core/data/standardize.h"
#include "core/dist/dist_env.h"
#include "core/spec/analysis.h"

#include <torch/torch.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tw::engine {

using data::Task;

struct Batch {
  torch::Tensor inputs, targets;
};

// What a streamed source's input pipeline did, for the run's record: shared by its splits,
// counted by the decode threads.
struct PipelineCounters {
  std::atomic<int64_t> skipped{0};   // bad examples left out (data.on_bad: skip)
  std::mutex mutex;
  std::vector<std::string> skippedNames;  // the first few, with their reasons
};

// A split whose inputs are read per batch (streamed image folders): its example numbers in the
// store, read through the cache as uint8 on `workers` threads and standardised as they become
// floats (data/image_batch.h), so a batch is the only float copy of its images.
struct StreamedInputs {
  std::shared_ptr<data::ExampleCache> cache;  // shared by the splits of one dataset
  std::vector<int64_t> rows;
  data::ByteTable table{};          // byte -> standardised float (the training split's statistics)
  int workers = 0;                  // data.workers
  bool skipBad = false;             // data.on_bad: skip
  // Where the store's groups (shards) begin, as positions in this split (data.shuffle_mode: shards).
  std::vector<int64_t> groupStarts;
  std::shared_ptr<PipelineCounters> counters;
};

// A split of a token file (data/token_file.h): windows read per batch, each checked against the
// model's vocabulary.
struct TokenInputs {
  data::TokenWindows windows;
  int64_t vocabulary = 0;  // the smallest Embedding table the ids reach (0 = unchecked)
  // data.windows_per_epoch (training split only): a position p is the window starting at
  // windows.randomStart(seed, p), and epoch e takes positions e*n .. e*n + n - 1 (epochOrder).
  int64_t randomWindows = 0;
  uint64_t seed = 0;
  int64_t size() const { return randomWindows > 0 ? randomWindows : windows.windows(); }
};

// A split of a CSV table too large for memory (data/csv_rows.h): its rows in the table, parsed
// per batch on `workers` threads and standardised with the training split's statistics.
struct TableInputs {
  std::shared_ptr<const data::CsvRows> table;
  std::vector<int64_t> rows;
  data::Standardizer standardizer;  // empty mean: not standardised (data.normalize: false)
  int workers = 0;                  // data.workers
};

struct Split {
  torch::Tensor inputs;   // in memory: float [N, ...]; undefined when streamed
  // classification: int64 [N] class indices; regression: float [N, D]; undefined for token windows
  torch::Tensor targets;
  std::shared_ptr<const StreamedInputs> streamed;  // set when the inputs are read per batch
  // Set for a token file: inputs float [N, T] token ids (exact below 2^24), targets int64 [N, T].
  std::shared_ptr<const TokenInputs> tokens;
  std::shared_ptr<const TableInputs> table;  // set for a CSV table read per batch
  int64_t size() const {
    if (tokens) return tokens->size();
    return targets.defined() ? targets.size(0) : 0;
  }
  // Examples [begin, end), or those at `indices` (int64), as float inputs and their targets,
  // augmented when `augment` is given and the inputs are images. A streamed split with
  // data.on_bad: skip may return fewer than asked for.
  Batch range(int64_t begin, int64_t end, const data::BatchAugment *augment = nullptr) const;
  Batch gather(const torch::Tensor &indices, const data::BatchAugment *augment = nullptr) const;
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
  std::vector<std::string> reading;    // how the data is read (whole, per batch, cached ...)
  data::Preprocessing preprocessing;   // statistics, category maps, class names: preprocessing.json
  std::shared_ptr<PipelineCounters> pipeline;  // streamed sources only
  std::shared_ptr<data::ExampleCache> exampleCache;  // streamed sources only: the decoded cache
};

// data::loadDataSplits (every source, split and standardised in core/data), as tensors. Each
// split's vectors become its tensors without a copy; a streamed source's splits read their inputs
// per batch (Split::streamed), through one cache of data.memory_mb (data.cache). Throws std::runtime_error naming the file,
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
  // A given order of the positions 0..n-1 (data/shuffle_order.h's shard-by-shard order).
  BatchOrder(const std::vector<int64_t> &order, int64_t batchSize);
  // The whole epoch's order, as positions in the split.
  std::vector<int64_t> positions() const;
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

Batch takeBatch(const Split &split, const BatchOrder &order, int64_t b, const data::BatchAugment *augment = nullptr);

// The training order of `epoch` as the run's data options ask: global (BatchOrder's permutation)
// or, for a streamed shard set with data.shuffle_mode: shards, shard by shard through the buffer.
BatchOrder epochOrder(const Split &train, const config::DataOptions &options, int64_t seed, int64_t epoch);

// The seeding is core/data's (random.h), so the data and the batches draw from one scheme.
using data::mixSeed;
using data::permutation;

}  // namespace tw::engine
