#include "core/data/example_store.h"

#include "core/data/image_codec.h"
#include "core/data/parallel_for.h"

namespace tw::data {

int64_t ExampleStore::exampleBytes() const {
  int64_t n = 1;
  for (int64_t d : m_shape) n *= d;
  return m_shape.empty() ? 0 : n;
}

Examples readStore(const ExampleStore &store, const std::vector<int64_t> &rows, int workers) {
  Examples e;
  e.task = Task::Classification;
  e.featureShape = store.featureShape();
  e.classNames = store.classNames();
  e.classes = static_cast<int64_t>(e.classNames.size());
  e.count = static_cast<int64_t>(rows.size());
  const int64_t size = store.exampleBytes();
  e.features.resize(static_cast<size_t>(size * e.count));
  for (int64_t row : rows) e.labels.push_back(store.labels().at(static_cast<size_t>(row)));
  parallelFor(e.count, decodeWorkers(workers), [&](int64_t k) {
    std::vector<uint8_t> pixels(static_cast<size_t>(size));
    store.read(rows[static_cast<size_t>(k)], pixels.data());
    float *out = e.features.data() + k * size;
    for (int64_t j = 0; j < size; ++j) out[j] = kByteToUnit[pixels[static_cast<size_t>(j)]];
  });
  return e;
}

}  // namespace tw::data
