#pragma once
// IDX images as training tensors: train/val/test splits and a shuffling batch iterator.
// Engine-internal (includes LibTorch).
//
//   Dataset data = loadDataset(config.data, config.train.seed);
//   BatchIterator batches(data.train, 128, /*shuffle=*/true, seed, epoch);
//   torch::Tensor x, y;
//   while (batches.next(x, y)) { ... }

#include "core/config/run_config.h"

#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <vector>

namespace tw::engine {

struct Split {
  torch::Tensor images;  // float [N, 1, rows, cols]
  torch::Tensor labels;  // int64 [N]
  int64_t size() const { return images.defined() ? images.size(0) : 0; }
};

struct Dataset {
  Split train, val, test;
  int64_t classes = 10;
  double mean = 0.0, stddev = 1.0;  // of the training split's [0,1] pixels; 0 and 1 without normalize
  std::string fingerprint;          // SHA-256 hex over the bytes read and the preprocessing options
  std::string directory;            // where the IDX files were found
};

// Reads "<dir>/{train,t10k}-{images-idx3,labels-idx1}-ubyte[.gz]"; the folder is options.path or
// the dataset's default. The validation split is a seed-determined sample of valFraction of the
// (limited) training images; the rest keep their file order. Throws std::runtime_error.
Dataset loadDataset(const config::DataOptions &options, int64_t seed);

// Batches of one split; with shuffle, the order is a permutation drawn from (seed, epoch), so a
// resumed run sees the same batches. The last batch may be smaller.
class BatchIterator {
 public:
  BatchIterator(const Split &split, int64_t batchSize, bool shuffle, int64_t seed, int64_t epoch);
  bool next(torch::Tensor &images, torch::Tensor &labels);
  int64_t batches() const;

 private:
  const Split &m_split;
  int64_t m_batchSize;
  int64_t m_position = 0;
  torch::Tensor m_order;  // int64 permutation; undefined when not shuffling
};

// The permutation behind shuffling, portable across standard libraries (own Fisher-Yates on
// std::mt19937_64, whose sequence the standard fixes).
std::vector<int64_t> permutation(int64_t n, uint64_t seed);

}  // namespace tw::engine
