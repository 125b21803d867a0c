#pragma once
// Every data source read whole, before it is split: the one place that knows which
// data.dataset names which reader. Used by loadDataSplits (data_splits.h), nothing else.
// A new source is one reader returning Examples plus one line in readSource().

#include "core/config/run_config.h"
#include "core/data/csv_reader.h"
#include "core/data/csv_rows.h"
#include "core/data/example_store.h"
#include "core/data/examples.h"
#include "core/data/random.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tw::data {

struct SourceData {
  Examples examples;                  // every example (IDX: the training file's, up to train_limit)
  bool hasOwnTest = false;            // IDX: the test set is its own file, not a share of `examples`
  Examples ownTest;                   // that file's examples, up to test_limit
  bool images = false;                // [C, H, W] in [0, 1]: one image standardisation, augmentation
  uint64_t splitStream = kSplitStream;  // where the split's seed comes from (random.h)
  std::vector<bool> scaleColumns;     // tables: which features standardise (not the one-hot ones)
  std::vector<CsvColumn> csvColumns;  // tables: how each column became features
  std::vector<std::string> notes;     // what the reader decided for the user (worth a look)
  std::vector<std::string> reading;   // how it is read (whole, per batch, ...): information
  std::string source;                 // where it was read from ("spirals" for synthetic sets)
  // A source that hashes the bytes it read (IDX) sets this; otherwise the splits are hashed.
  std::string fingerprint;
  // A streamed source (image folders): its examples are read per batch from here, and
  // `examples` holds their labels, classes and shape only (no features).
  std::shared_ptr<const ExampleStore> store;
  int64_t ownTestFirstRow = 0;  // a streamed source with its own test set: the test examples' first row
  // A CSV table too large for data.memory_mb as floats: its rows are read per batch from here,
  // `examples` holds the labels or targets only, and `ranges` each feature's values (csv_layout.h).
  std::shared_ptr<const CsvRows> tableRows;
  std::vector<CsvFeatureRange> ranges;
};

// Throws std::runtime_error naming the option, file, line or column.
SourceData readSource(const config::DataOptions &options, int64_t seed);

// The CSV reader's options from the run's data section (the run validator's sample scan uses it
// too). Throws std::runtime_error naming a missing data.path or data.target, or an unknown
// data.task or data.missing.
CsvOptions csvOptions(const config::DataOptions &options);

// The MNIST family's four IDX files: checked whole (sizes, counts, labels within the classes)
// whatever the limits, their bytes fingerprinted with the options that shape the splits.
SourceData readIdxSource(const config::DataOptions &options, int64_t seed);

// A packed shard set (shard_set.h, made by `torchwright pack`) at data.path: every shard's size,
// SHA-256 and index checked against the manifest, then read whole. A set packed from IDX files
// gives exactly the examples and splits the IDX files give.
SourceData readShardSource(const config::DataOptions &options, int64_t seed);

}  // namespace tw::data
