#pragma once
// What a run did to its data before the model saw it, as one record: what a deployed model must
// do to its inputs (and how to name its outputs). The data path (data_splits.h) fills it; the
// worker writes it to runs/<id>/preprocessing.json, where export picks it up.
//
//   DataSplits splits = loadDataSplits(config.data, config.train.seed);
//   writeFileAtomically(runDir + "/preprocessing.json", preprocessingJson(splits.preprocessing));
//
// A raw example becomes the model's input in this order: CSV columns are read as `csvColumns`
// says (numbers as they are, missing ones filled, categorical ones one-hot); images are scaled to
// [0, 1] (bytes / 255) and resized to `inputShape`; then standardisation, `kind`:
//   "none"         nothing more
//   "image"        x = (x - imageMean) / imageStd, one pair for every pixel
//   "per-feature"  x[j] = (x[j] - featureMean[j]) / featureStd[j]  (one-hot columns: 0 and 1)

#include "core/data/csv_reader.h"
#include "core/data/examples.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tw::data {

struct Preprocessing {
  std::string dataset;                   // data.dataset: "fashion-mnist", "csv", "spirals" ...
  Task task = Task::Classification;
  std::vector<int64_t> inputShape;       // one example, e.g. {1, 28, 28} or {11}
  bool indexInputs = false;              // features are integer indices (an Embedding's), unscaled
  std::string standardization = "none";  // "none" | "image" | "per-feature"
  double imageMean = 0.0, imageStd = 1.0;
  std::vector<float> featureMean, featureStd;  // per-feature only, one per feature
  std::vector<std::string> featureNames;       // CSV and synthetic sets: one per feature
  std::vector<CsvColumn> csvColumns;           // CSV only: how each used column became features
  std::string csvTarget;                       // CSV only: the column predicted
  int64_t classes = 0;                         // classification
  std::vector<std::string> classNames;         // classification; empty = class numbers
  int64_t targetDim = 0;                       // regression
};

// Pretty-printed JSON (two-space indent, keys in the order above, final newline). Floats are
// written with %.9g, so they read back as the same float.
std::string preprocessingJson(const Preprocessing &p);

}  // namespace tw::data
