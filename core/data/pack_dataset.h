#pragma once
// `torchwright pack`: a data source written as a packed shard set (shard_set.h). Image folders
// keep their files' encoded bytes (nothing is decoded or resized: the reader does that, as it
// would from the folder), or with `decoded` become uint8 arrays of the pixels the folder's reader
// gives at data.image_size and data.channels (larger shards, nothing to decode when read: the
// same examples, classes and splits as the folder); IDX sets become uint8 arrays with their own test split (data.train_limit
// and data.test_limit keep the first N of each); CSV files
// become float32 feature arrays as the CSV reader parsed them (one-hot columns expanded, missing
// values handled by data.missing), standardisation left to training.
//
//   PackOptions options;
//   options.progress = [](int64_t done, int64_t total) { ... };
//   ShardManifest m = packDataset(config.data, "fashion-shards", options);

#include "core/config/run_config.h"
#include "core/data/shard_set.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tw::data {

struct PackOptions {
  uint64_t targetBytes = 64ull << 20;
  std::string createdBy;
  bool decoded = false;  // image folders: store decoded 8-bit pixels, not the files' bytes
  std::function<void(int64_t done, int64_t total)> progress;  // after each example
};

// The data section a pack source stands for: a run file (.yaml: its data section), fashion-mnist
// or mnist by name, a folder (IDX files when it holds train-images-idx3-ubyte, else an image
// folder) or a file (a CSV table), with `overrides` (--set data.target=price) applied through the
// config table. `torchwright pack` and Studio's Pack Dataset both read SRC this way. Throws
// std::runtime_error naming SRC when it is none of these.
config::DataOptions packSource(const std::string &src, const std::vector<std::string> &overrides = {});

// Throws std::runtime_error naming the source's file or the option; the partial output is removed.
// Generated datasets (spirals, blobs, tokens) are refused: their seed makes them, nothing to pack.
ShardManifest packDataset(const config::DataOptions &data, const std::string &outDir, const PackOptions &options);

}  // namespace tw::data
