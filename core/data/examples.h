#pragma once
// The in-memory result every data source returns (CSV, image folder, synthetic sets), before the
// engine turns it into tensors. Plain vectors, so tw_core stays free of LibTorch.
//
//   tw::data::Examples all = tw::data::readCsv("iris.csv", options).examples;
//   tw::data::SplitIndices split = tw::data::stratifiedSplit(all.labels, 0.1, 0.2, seed);
//   tw::data::Examples train = tw::data::select(all, split.train);
//   tw::data::Fingerprint fp;
//   tw::data::addToFingerprint(fp, "train", train);

#include "core/data/fingerprint.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tw::data {

// NextToken: each position of a token window predicts the token after it (token_file.h).
enum class Task { Classification, Regression, NextToken };

// "classification" | "regression" | "next-token"; throws std::runtime_error listing them otherwise.
Task parseTask(const std::string &name);
const char *taskName(Task task);

struct Examples {
  Task task = Task::Classification;
  std::vector<int64_t> featureShape;      // per example, e.g. {1, 28, 28} or {d}
  std::vector<float> features;            // count * featureSize(), row-major
  std::vector<int64_t> labels;            // classification: class index 0..classes-1, one per example
  std::vector<float> targets;             // regression: count * targetDim
  int64_t targetDim = 0;                  // regression only
  int64_t count = 0;
  int64_t classes = 0;                    // classification only
  std::vector<std::string> classNames;    // classification: CSV label values, folder names; may be empty
  std::vector<std::string> featureNames;  // CSV: one per feature column after one-hot ("color=red")

  int64_t featureSize() const;  // product(featureShape); 0 when featureShape is empty
};

// The examples at `indices`, in the order given (repeats allowed); every other field is copied.
// Throws std::out_of_range naming the first index outside 0..count-1.
Examples select(const Examples &all, const std::vector<int64_t> &indices);

// Adds the examples to a fingerprint under `label`: task, shapes, counts, names, and the exact
// bytes of features, labels and targets (little-endian on every host), each framed separately.
void addToFingerprint(Fingerprint &fp, const std::string &label, const Examples &e);

}  // namespace tw::data
