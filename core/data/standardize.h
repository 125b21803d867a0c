#pragma once
// Per-feature standardisation, (x - mean) / stddev, fitted on the training split only and applied
// to every split, so validation and test numbers never leak into what the model sees.
//
//   tw::data::Examples train = select(all, split.train), test = select(all, split.test);
//   tw::data::Standardizer s = tw::data::Standardizer::fit(train, &table.numericColumns);
//   s.apply(train);
//   s.apply(test);     // with the training statistics

#include "core/data/example_store.h"
#include "core/data/examples.h"

#include <cstdint>

#include <vector>

namespace tw::data {

struct Standardizer;

// Per-feature mean and spread of rows added one at a time in one pass (Welford's update in
// double: no cancellation for a large mean with a small spread, no float sums losing digits).
// The in-memory fit and a streamed table's pass over its training rows both add the rows in
// file order through this, so their statistics agree bit for bit.
class FeatureMoments {
 public:
  explicit FeatureMoments(int64_t features);
  void add(const float *row);
  int64_t count() const { return m_count; }
  // See Standardizer::fit for columnsToScale; throws std::runtime_error when no row was added.
  Standardizer standardizer(const std::vector<bool> *columnsToScale = nullptr) const;

 private:
  int64_t m_count = 0;
  std::vector<double> m_mean, m_m2;
};

struct Standardizer {
  std::vector<float> mean;    // one per feature (Examples::featureSize())
  std::vector<float> stddev;  // population standard deviation; 1 where it is 0

  // columnsToScale (one per feature) leaves the false ones as they are: mean 0, stddev 1 (e.g.
  // one-hot columns, which should stay 0/1). Throws std::runtime_error when `train` is empty or
  // columnsToScale has the wrong length.
  static Standardizer fit(const Examples &train, const std::vector<bool> *columnsToScale = nullptr);
  // Throws std::runtime_error when the examples have a different number of features.
  void apply(Examples &examples) const;
  // `rows` rows of mean.size() features each, in place: a streamed table's batch.
  void apply(float *x, int64_t rows) const;
};

// Images standardise with one mean and std over every pixel of the training split, whatever the
// source (IDX, image folders): a per-pixel standardisation would erase the very structure a
// convolution looks for. Values come in [0, 1]; sums in double, so the statistics do not depend
// on the order of the pixels.
//
//   ImageStandardizer s = ImageStandardizer::fit(train);   // Fashion-MNIST: mean 0.286, std 0.353
//   s.apply(train); s.apply(val); s.apply(test);
struct ImageStandardizer {
  double mean = 0.0;
  double stddev = 1.0;  // population standard deviation; 1 for blank images

  static ImageStandardizer fit(const Examples &train);
  // A streamed image set: the pixels of the store's examples at `rows` (statisticsRows), decoded
  // on `workers` threads and summed in row order, so the result is fit()'s over the same examples
  // in memory, whatever the number of threads. With skipBad (data.on_bad: skip) an example that cannot be
  // read counts for nothing; otherwise its error is thrown.
  static ImageStandardizer fit(const ExampleStore &store, const std::vector<int64_t> &rows, int workers,
                               bool skipBad = false);
  void apply(Examples &examples) const;  // x = (x - mean) / stddev, computed in double
};

// Which training examples give a streamed image set its statistics: with `encoded` (a store that
// decodes), all of them up to kImageStatisticsSample, else that many drawn from `seed`
// (ascending); without, all of them. Stored pixels (uint8 arrays, packed IDX files) are summed
// whole up to kImageStatisticsAllBytes of them, as the in-memory path does, and sampled beyond
// (data_splits.cpp passes `encoded` then): the same rows a folder of those images samples, so a
// set packed with `pack --decoded` still trains as its folder. Reading a sample rather than the
// whole set keeps the time to the first step short at any size; 2,048 images put the mean and std
// within about a percent of the whole set's.
inline constexpr int64_t kImageStatisticsSample = 2048;
inline constexpr uint64_t kImageStatisticsAllBytes = 64ull << 20;
std::vector<int64_t> statisticsRows(const std::vector<int64_t> &train, uint64_t seed, bool encoded = true,
                                    int64_t sample = kImageStatisticsSample);

}  // namespace tw::data
