#include "core/data/standardize.h"

#include "core/data/image_codec.h"
#include "core/data/parallel_for.h"
#include "core/data/random.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace tw::data {

FeatureMoments::FeatureMoments(int64_t features)
    : m_mean(static_cast<size_t>(features), 0.0), m_m2(static_cast<size_t>(features), 0.0) {}

void FeatureMoments::add(const float *row) {
  ++m_count;
  const double n = static_cast<double>(m_count);
  for (size_t j = 0; j < m_mean.size(); ++j) {
    const double x = row[j], before = x - m_mean[j];
    m_mean[j] += before / n;
    m_m2[j] += before * (x - m_mean[j]);
  }
}

Standardizer FeatureMoments::standardizer(const std::vector<bool> *columnsToScale) const {
  if (m_count <= 0 || m_mean.empty()) throw std::runtime_error("standardisation: the training split is empty");
  if (columnsToScale && columnsToScale->size() != m_mean.size())
    throw std::runtime_error("standardisation: " + std::to_string(columnsToScale->size()) + " column flags for " +
                             std::to_string(m_mean.size()) + " features");
  Standardizer s;
  s.mean.assign(m_mean.size(), 0.0f);
  s.stddev.assign(m_mean.size(), 1.0f);
  for (size_t j = 0; j < m_mean.size(); ++j) {
    if (columnsToScale && !(*columnsToScale)[j]) continue;
    const double sd = std::sqrt(std::max(0.0, m_m2[j]) / static_cast<double>(m_count));
    s.mean[j] = static_cast<float>(m_mean[j]);
    // A constant column would divide by zero; leaving it centred at 0 is all there is to do.
    s.stddev[j] = sd > 1e-12 ? static_cast<float>(sd) : 1.0f;
  }
  return s;
}

Standardizer Standardizer::fit(const Examples &train, const std::vector<bool> *columnsToScale) {
  const int64_t d = train.featureSize();
  if (train.count <= 0 || d <= 0) throw std::runtime_error("standardisation: the training split is empty");
  FeatureMoments moments(d);
  for (int64_t i = 0; i < train.count; ++i) moments.add(train.features.data() + i * d);
  return moments.standardizer(columnsToScale);
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
