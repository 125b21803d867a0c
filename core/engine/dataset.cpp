#include "core/engine/dataset.h"

#include "core/data/fingerprint.h"
#include "core/data/idx.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>

namespace tw::engine {

namespace {

// splitmix64's finaliser: turns (seed, epoch, purpose) into well-spread, independent seeds.
uint64_t mix(uint64_t a, uint64_t b) {
  uint64_t z = a + 0x9e3779b97f4a7c15ull * (b + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

constexpr uint64_t kSplitStream = 0x5b1;    // the validation hold-out
constexpr uint64_t kShuffleStream = 0x5f1;  // per-epoch batch order

std::string requireFile(const std::string &dir, const std::string &stem) {
  std::string path = data::findIdxFile(dir, stem);
  if (path.empty()) throw std::runtime_error(dir + ": no " + stem + " or " + stem + ".gz");
  return path;
}

void addToFingerprint(data::Fingerprint &fp, const std::string &label, const data::IdxImages &images) {
  const int64_t dims[3] = {images.count, images.rows, images.cols};
  fp.addBytes(label + ":dims", dims, sizeof dims);
  fp.addBytes(label, images.pixels.data(), images.pixels.size());
}

// Pixels of the chosen images as float [k, 1, rows, cols]. A 256-entry table maps each byte to
// its scaled, standardised value in one pass, with no temporaries the size of the split.
Split makeSplit(const data::IdxImages &images, const data::IdxLabels &labels,
                const std::vector<int64_t> &indices, const std::array<float, 256> &table) {
  const int64_t k = static_cast<int64_t>(indices.size());
  const int64_t pixels = images.rows * images.cols;
  Split split;
  split.images = torch::empty({k, 1, images.rows, images.cols}, torch::kFloat);
  split.labels = torch::empty({k}, torch::kLong);
  float *out = split.images.data_ptr<float>();
  int64_t *outLabels = split.labels.data_ptr<int64_t>();
  for (int64_t i = 0; i < k; ++i) {
    const uint8_t *src = images.pixels.data() + indices[i] * pixels;
    float *dst = out + i * pixels;
    for (int64_t p = 0; p < pixels; ++p) dst[p] = table[src[p]];
    outLabels[i] = labels.labels[indices[i]];
  }
  return split;
}

std::vector<int64_t> allIndices(int64_t n) {
  std::vector<int64_t> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = i;
  return v;
}

}  // namespace

std::vector<int64_t> permutation(int64_t n, uint64_t seed) {
  std::vector<int64_t> order = allIndices(n);
  std::mt19937_64 gen(seed);
  for (int64_t i = n - 1; i > 0; --i) {
    // Modulo bias is below 2^-40 for any realistic n; not worth a rejection loop.
    const int64_t j = static_cast<int64_t>(gen() % static_cast<uint64_t>(i + 1));
    std::swap(order[i], order[j]);
  }
  return order;
}

Dataset loadDataset(const config::DataOptions &options, int64_t seed) {
  Dataset data;
  data.directory = options.path.empty() ? data::defaultDatasetDir(options.dataset) : options.path;
  if (data.directory.empty()) {
    throw std::runtime_error("unknown dataset '" + options.dataset +
                             "' (known: fashion-mnist, mnist); give data.path to read IDX files from a folder");
  }
  const data::IdxImages trainImages =
      data::readIdxImages(requireFile(data.directory, "train-images-idx3-ubyte"), options.trainLimit);
  const data::IdxLabels trainLabels =
      data::readIdxLabels(requireFile(data.directory, "train-labels-idx1-ubyte"), options.trainLimit);
  const data::IdxImages testImages =
      data::readIdxImages(requireFile(data.directory, "t10k-images-idx3-ubyte"), options.testLimit);
  const data::IdxLabels testLabels =
      data::readIdxLabels(requireFile(data.directory, "t10k-labels-idx1-ubyte"), options.testLimit);

  if (trainImages.count != trainLabels.count || testImages.count != testLabels.count) {
    throw std::runtime_error(data.directory + ": image and label counts differ (train " +
                             std::to_string(trainImages.count) + " vs " + std::to_string(trainLabels.count) +
                             ", test " + std::to_string(testImages.count) + " vs " +
                             std::to_string(testLabels.count) + ")");
  }
  if (testImages.rows != trainImages.rows || testImages.cols != trainImages.cols)
    throw std::runtime_error(data.directory + ": train and test images differ in size");

  const int64_t n = trainImages.count;
  const int64_t valCount = static_cast<int64_t>(std::llround(static_cast<double>(n) * options.valFraction));
  if (n - valCount < 1) {
    throw std::runtime_error("no training images left: " + std::to_string(n) + " read, " +
                             std::to_string(valCount) + " held out for validation");
  }
  if (testImages.count < 1) throw std::runtime_error(data.directory + ": the test set is empty");

  // The hold-out is a seeded sample; both splits keep file order so that a slice is stable.
  std::vector<int64_t> order = permutation(n, mix(static_cast<uint64_t>(seed), kSplitStream));
  std::vector<int64_t> valIdx(order.begin(), order.begin() + valCount);
  std::vector<int64_t> trainIdx(order.begin() + valCount, order.end());
  std::sort(valIdx.begin(), valIdx.end());
  std::sort(trainIdx.begin(), trainIdx.end());

  // Mean and std of the training split from a byte histogram: exact, and one cheap pass.
  std::array<float, 256> table{};
  if (options.normalize) {
    std::array<uint64_t, 256> histogram{};
    const int64_t pixels = trainImages.rows * trainImages.cols;
    for (int64_t i : trainIdx) {
      const uint8_t *src = trainImages.pixels.data() + i * pixels;
      for (int64_t p = 0; p < pixels; ++p) histogram[src[p]]++;
    }
    double count = 0, sum = 0, sumSquares = 0;
    for (int v = 0; v < 256; ++v) {
      const double x = v / 255.0;
      count += histogram[v];
      sum += histogram[v] * x;
      sumSquares += histogram[v] * x * x;
    }
    data.mean = sum / count;
    data.stddev = std::sqrt(std::max(0.0, sumSquares / count - data.mean * data.mean));
    if (data.stddev < 1e-12) data.stddev = 1.0;  // blank images: nothing to standardise
  }
  for (int v = 0; v < 256; ++v) table[v] = static_cast<float>((v / 255.0 - data.mean) / data.stddev);

  data.train = makeSplit(trainImages, trainLabels, trainIdx, table);
  data.val = makeSplit(trainImages, trainLabels, valIdx, table);
  data.test = makeSplit(testImages, testLabels, allIndices(testImages.count), table);

  int maxLabel = 0;
  for (uint8_t l : trainLabels.labels) maxLabel = std::max<int>(maxLabel, l);
  for (uint8_t l : testLabels.labels) maxLabel = std::max<int>(maxLabel, l);
  data.classes = maxLabel + 1;

  data::Fingerprint fp;
  addToFingerprint(fp, "train-images", trainImages);
  fp.addBytes("train-labels", trainLabels.labels.data(), trainLabels.labels.size());
  addToFingerprint(fp, "test-images", testImages);
  fp.addBytes("test-labels", testLabels.labels.data(), testLabels.labels.size());
  fp.addOption("dataset", options.dataset);
  fp.addOption("train_limit", options.trainLimit);
  fp.addOption("test_limit", options.testLimit);
  fp.addOption("val_fraction", options.valFraction);
  fp.addOption("normalize", std::string(options.normalize ? "true" : "false"));
  fp.addOption("split_seed", seed);
  data.fingerprint = fp.hexDigest();
  return data;
}

BatchIterator::BatchIterator(const Split &split, int64_t batchSize, bool shuffle, int64_t seed,
                             int64_t epoch)
    : m_split(split), m_batchSize(std::max<int64_t>(1, batchSize)) {
  if (shuffle && split.size() > 1) {
    const uint64_t s = mix(mix(static_cast<uint64_t>(seed), kShuffleStream), static_cast<uint64_t>(epoch));
    std::vector<int64_t> order = permutation(split.size(), s);
    m_order = torch::from_blob(order.data(), {static_cast<int64_t>(order.size())}, torch::kLong).clone();
  }
}

int64_t BatchIterator::batches() const { return (m_split.size() + m_batchSize - 1) / m_batchSize; }

bool BatchIterator::next(torch::Tensor &images, torch::Tensor &labels) {
  const int64_t n = m_split.size();
  if (m_position >= n) return false;
  const int64_t end = std::min(n, m_position + m_batchSize);
  if (m_order.defined()) {
    const torch::Tensor idx = m_order.slice(0, m_position, end);
    images = m_split.images.index_select(0, idx);
    labels = m_split.labels.index_select(0, idx);
  } else {
    images = m_split.images.slice(0, m_position, end);
    labels = m_split.labels.slice(0, m_position, end);
  }
  m_position = end;
  return true;
}

}  // namespace tw::engine
