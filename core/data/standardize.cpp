#include "core/data/standardize.h"

#include "core/data/image_codec.h"
#include "core/data/parallel_for.h"
#include "core/data/random.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace tw::data {

Standardizer Standardizer::fit(const Examples &train, const std::vector<bool> *columnsToScale) {
  const int64_t d = train.featureSize();
  if (train.count <= 0 || d <= 0)
    throw std::runtime_error("standardisation: the training split is empty");
  if (columnsToScale && static_cast<int64_t>(columnsToScale->size()) != d)
    throw std::runtime_error("standardisation: " + std::to_string(columnsToScale->size()) +
                             " column flags for " + std::to_string(d) + " features");

  // Two passes in double: float sums over 100k rows lose digits, and the one-pass formula
  // (E[x^2] - E[x]^2) cancels badly for features with a large mean and a small spread.
  std::vector<double> sum(static_cast<size_t>(d), 0.0), sq(static_cast<size_t>(d), 0.0);
  const float *x = train.features.data();
  for (int64_t i = 0; i < train.count; ++i)
    for (int64_t j = 0; j < d; ++j) sum[static_cast<size_t>(j)] += x[i * d + j];
  const double n = static_cast<double>(train.count);
  for (double &s : sum) s /= n;
  for (int64_t i = 0; i < train.count; ++i)
    for (int64_t j = 0; j < d; ++j) {
      const double diff = x[i * d + j] - sum[static_cast<size_t>(j)];
      sq[static_cast<size_t>(j)] += diff * diff;
    }

  Standardizer s;
  s.mean.assign(static_cast<size_t>(d), 0.0f);
  s.stddev.assign(static_cast<size_t>(d), 1.0f);
  for (size_t j = 0; j < static_cast<size_t>(d); ++j) {
    if (columnsToScale && !(*columnsToScale)[j]) continue;
    const double sd = std::sqrt(sq[j] / n);
    s.mean[j] = static_cast<float>(sum[j]);
    // A constant column would divide by zero; leaving it centred at 0 is all there is to do.
    s.stddev[j] = sd > 1e-12 ? static_cast<float>(sd) : 1.0f;
  }
  return s;
}

void Standardizer::apply(Examples &examples) const {
  const int64_t d = examples.featureSize();
  if (static_cast<size_t>(d) != mean.size())
    throw std::runtime_error("standardisation: fitted on " + std::to_string(mean.size()) +
                             " features, applied to " + std::to_string(d));
  apply(examples.features.data(), examples.count);
}

void Standardizer::apply(float *x, int64_t rows) const {
  const size_t d = mean.size();
  for (int64_t i = 0; i < rows; ++i)
    for (size_t j = 0; j < d; ++j) {
      float &v = x[static_cast<size_t>(i) * d + j];
      v = (v - mean[j]) / stddev[j];
    }
}

ImageStandardizer ImageStandardizer::fit(const Examples &train) {
  double sum = 0.0, squares = 0.0;
  for (float v : train.features) {
    sum += v;
    squares += static_cast<double>(v) * v;
  }
  const double n = static_cast<double>(std::max<size_t>(1, train.features.size()));
  ImageStandardizer s;
  s.mean = sum / n;
  s.stddev = std::sqrt(std::max(0.0, squares / n - s.mean * s.mean));
  if (s.stddev < 1e-12) s.stddev = 1.0;  // blank images: nothing to standardise
  return s;
}

ImageStandardizer ImageStandardizer::fit(const ExampleStore &store, const std::vector<int64_t> &rows, int workers,
                                         bool skipBad) {
  // Decoded a chunk at a time on the workers, summed in row and pixel order on this thread: the
  // same sums as fit() over the same examples in memory, whatever the number of threads.
  const int64_t size = store.exampleBytes();
  constexpr int64_t kChunk = 64;
  std::vector<uint8_t> pixels(static_cast<size_t>(kChunk * size));
  std::vector<char> read(static_cast<size_t>(kChunk));
  double sum = 0.0, squares = 0.0;
  int64_t examples = 0;
  for (size_t begin = 0; begin < rows.size(); begin += kChunk) {
    const int64_t n = std::min<int64_t>(kChunk, static_cast<int64_t>(rows.size() - begin));
    parallelFor(n, decodeWorkers(workers), [&](int64_t k) {
      read[static_cast<size_t>(k)] = 1;
      try {
        store.read(rows[begin + static_cast<size_t>(k)], pixels.data() + k * size);
      } catch (const std::exception &) {
        if (!skipBad) throw;
        read[static_cast<size_t>(k)] = 0;
      }
    });
    for (int64_t k = 0; k < n; ++k) {
      if (!read[static_cast<size_t>(k)]) continue;
      ++examples;
      const uint8_t *p = pixels.data() + k * size;
      for (int64_t j = 0; j < size; ++j) {
        const float v = kByteToUnit[p[j]];
        sum += v;
        squares += static_cast<double>(v) * v;
      }
    }
  }
  const double n = static_cast<double>(std::max<int64_t>(1, size * examples));
  ImageStandardizer s;
  s.mean = sum / n;
  s.stddev = std::sqrt(std::max(0.0, squares / n - s.mean * s.mean));
  if (s.stddev < 1e-12) s.stddev = 1.0;
  return s;
}

std::vector<int64_t> statisticsRows(const std::vector<int64_t> &train, uint64_t seed, bool encoded, int64_t sample) {
  if (!encoded || static_cast<int64_t>(train.size()) <= sample) return train;
  const std::vector<int64_t> order = permutation(static_cast<int64_t>(train.size()), seed);
  std::vector<int64_t> rows;
  rows.reserve(static_cast<size_t>(sample));
  for (int64_t k = 0; k < sample; ++k) rows.push_back(train[static_cast<size_t>(order[static_cast<size_t>(k)])]);
  std::sort(rows.begin(), rows.end());
  return rows;
}

void ImageStandardizer::apply(Examples &examples) const {
  for (float &v : examples.features) v = static_cast<float>((v - mean) / stddev);
}

}  // namespace tw::data
