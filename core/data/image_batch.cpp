#include "core/data/image_batch.h"

#include "core/data/image_codec.h"
#include "core/data/parallel_for.h"

#include <mutex>
#include <stdexcept>

namespace tw::data {

ByteTable standardisedBytes(bool normalize, double mean, double stddev) {
  ByteTable table{};
  for (size_t v = 0; v < table.size(); ++v) {
    const float x = kByteToUnit[v];
    table[v] = normalize ? static_cast<float>((x - mean) / stddev) : x;
  }
  return table;
}

BatchRead readImageBatch(ExampleCache &cache, const int64_t *rows, int64_t n, const ByteTable &table, int workers,
                         bool skipBad, float *out, const BatchAugment *augment) {
  const int64_t size = cache.store().exampleBytes();
  const std::vector<int64_t> &shape = cache.store().featureShape();
  const bool augmented = augment && augment->options.active() && shape.size() == 3;
  const std::vector<ImageAugment> draws =
      augmented ? drawAugments(augment->options, n, shape[1], shape[2], augment->seed) : std::vector<ImageAugment>();
  BatchRead result;
  result.kept.assign(static_cast<size_t>(n), 1);
  std::mutex mutex;
  parallelFor(n, decodeWorkers(workers), [&](int64_t k) {
    thread_local std::vector<uint8_t> pixels;
    pixels.resize(static_cast<size_t>(size));
    try {
      cache.read(rows[k], pixels.data());
    } catch (const std::exception &error) {
      if (!skipBad) throw;
      std::lock_guard<std::mutex> lock(mutex);
      result.kept[static_cast<size_t>(k)] = 0;
      ++result.skipped;
      result.errors.push_back(error.what());
      return;
    }
    float *dst = out + k * size;
    if (augmented) {
      augmentImage(pixels.data(), shape[0], shape[1], shape[2], augment->options.cropPadding,
                   draws[static_cast<size_t>(k)], [&table](uint8_t v) { return table[v]; }, dst);
      return;
    }
    for (int64_t j = 0; j < size; ++j) dst[j] = table[pixels[static_cast<size_t>(j)]];
  });
  return result;
}

}  // namespace tw::data
