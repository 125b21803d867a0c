#pragma once
// The one data path: every source (IDX, CSV, image folders, synthetic sets) read, checked, split
// and standardised here, torch-free; the engine turns the result into tensors once.
//
//   tw::data::ModelUse use;                         // from the model spec (the engine fills it)
//   use.indexInputs = true;
//   use.embeddings = {{"embed", 1000}};
//   tw::data::DataSplits s = tw::data::loadDataSplits(config.data, config.train.seed, use);
//   // s.train, s.val, s.test; s.fingerprint; s.preprocessing (written as preprocessing.json)
//
// Splits are seeded from train.seed (random.h's streams) and, for classification with
// data.stratify, stratified; standardisation is fitted on the training split only. IDX sets keep
// their own test file; every other source holds out data.test_fraction. data.train_limit takes
// the first examples before the split, data.test_limit the first of the test split.

#include "core/config/run_config.h"
#include "core/data/csv_rows.h"
#include "core/data/example_store.h"
#include "core/data/examples.h"
#include "core/data/preprocessing.h"
#include "core/data/token_file.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tw::data {

// What the model does with the features, as far as the data must know: torch- and spec-free.
struct ModelUse {
  struct Embedding {
    std::string node;           // the Embedding node's id
    int64_t numEmbeddings = 0;  // its table size: indices 0..numEmbeddings-1
  };
  bool indexInputs = false;           // the Input is int64: features are indices, never standardised
  std::vector<Embedding> embeddings;  // every Embedding the input's indices reach
};

struct DataSplits {
  Examples train, val, test;
  bool images = false;             // [C, H, W] inputs (augmentation applies)
  std::string source;              // where the data was read from ("spirals" for synthetic sets)
  std::string fingerprint;         // SHA-256 hex over the data and the options that shaped it
  std::vector<std::string> notes;  // what the reader did on the way (filled missing values ...)
  std::vector<std::string> reading;  // how the data is read (whole, per batch, ...): information
  Preprocessing preprocessing;     // what a deployed model must do to its inputs
  // A streamed source (image folders): train, val and test hold labels only, and these are each
  // split's example numbers in the store, whose examples the engine reads per batch and
  // standardises with preprocessing's image mean and std.
  std::shared_ptr<const ExampleStore> store;
  std::vector<int64_t> trainRows, valRows, testRows;
  // A CSV table read per batch (csv_rows.h): train, val and test hold labels or targets only, the
  // rows above are each split's rows in the table, and the engine standardises each batch with
  // preprocessing's per-feature mean and std.
  std::shared_ptr<const CsvRows> tableRows;
  // The token-file source: train, val and test hold each split's window count and shape only,
  // and the engine reads the windows per batch from here.
  std::shared_ptr<const TokenFileSplits> tokens;
};

// Throws std::runtime_error naming the file, line, column or option; with index inputs, a value
// that is not an integer within an Embedding's range names the node and the column.
DataSplits loadDataSplits(const config::DataOptions &options, int64_t seed, const ModelUse &use = {});

// The warning for a classifier with more class scores than the data has classes (a head too
// wide, or the wrong data): logged by training, printed by `check`.
std::string classSurplusWarning(const std::string &output, int64_t scores, int64_t classes);

// The classes a classification run's data has, as cheaply as the source allows: IDX 10,
// spirals/blobs data.classes, image folders their class subfolders, CSV the distinct target
// values (the table is read). 0 for regression, and when the source cannot be read (the run's
// own checks report why).
int64_t dataClassCount(const config::DataOptions &options);

// Splits `all` into the given index sets without a second copy of the training rows: val and
// test are copied out, then the training rows are moved forward in place. Every index list must
// be ascending (as splits.h gives them).
void splitInPlace(Examples &&all, const std::vector<int64_t> &train, const std::vector<int64_t> &val,
                  const std::vector<int64_t> &test, Examples &trainOut, Examples &valOut, Examples &testOut);

}  // namespace tw::data
