#include "core/engine/dataset.h"

#include "core/data/fingerprint.h"
#include "core/data/idx.h"
#include "core/data/splits.h"
#include "core/engine/dataset_examples.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>

namespace tw::engine {

namespace {

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
  split.inputs = torch::empty({k, 1, images.rows, images.cols}, torch::kFloat);
  split.targets = torch::empty({k}, torch::kLong);
  float *out = split.inputs.data_ptr<float>();
  int64_t *outLabels = split.targets.data_ptr<int64_t>();
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

Dataset loadIdxDataset(const config::DataOptions &options, int64_t seed);

}  // namespace

uint64_t mixSeed(uint64_t a, uint64_t b) {
  uint64_t z = a + 0x9e3779b97f4a7c15ull * (b + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

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
  if (options.dataset == "fashion-mnist" || options.dataset == "mnist") return loadIdxDataset(options, seed);
  return loadExampleDataset(options, seed);
}

namespace {

Dataset loadIdxDataset(const config::DataOptions &options, int64_t seed) {
  Dataset data;
  std::string directory = options.path.empty() ? data::defaultDatasetDir(options.dataset) : options.path;
  if (directory.empty()) {
    throw std::runtime_error("unknown dataset '" + options.dataset +
                             "' (known: fashion-mnist, mnist); give data.path to read IDX files from a folder");
  }
  const data::IdxImages trainImages =
      data::readIdxImages(requireFile(directory, "train-images-idx3-ubyte"), options.trainLimit);
  const data::IdxLabels trainLabels =
      data::readIdxLabels(requireFile(directory, "train-labels-idx1-ubyte"), options.trainLimit);
  const data::IdxImages testImages =
      data::readIdxImages(requireFile(directory, "t10k-images-idx3-ubyte"), options.testLimit);
  const data::IdxLabels testLabels =
      data::readIdxLabels(requireFile(directory, "t10k-labels-idx1-ubyte"), options.testLimit);

  if (trainImages.count != trainLabels.count || testImages.count != testLabels.count) {
    throw std::runtime_error(directory + ": image and label counts differ (train " +
                             std::to_string(trainImages.count) + " vs " + std::to_string(trainLabels.count) +
                             ", test " + std::to_string(testImages.count) + " vs " +
                             std::to_string(testLabels.count) + ")");
  }
  if (testImages.rows != trainImages.rows || testImages.cols != trainImages.cols)
    throw std::runtime_error(directory + ": train and test images differ in size");

  const int64_t n = trainImages.count;
  const int64_t valCount = static_cast<int64_t>(std::llround(static_cast<double>(n) * options.valFraction));
  if (n - valCount < 1) {
    throw std::runtime_error("no training images left: " + std::to_string(n) + " read, " +
                             std::to_string(valCount) + " held out for validation");
  }
  if (testImages.count < 1) throw std::runtime_error(directory + ": the test set is empty");

  // The hold-out is a seeded (stratified) sample; both splits keep file order so that a slice is
  // stable.
  const uint64_t splitSeed = mixSeed(static_cast<uint64_t>(seed), kSplitStream);
  data::SplitIndices split;
  if (options.stratify) {
    std::vector<int64_t> labels(trainLabels.labels.begin(), trainLabels.labels.end());
    split = data::stratifiedSplit(labels, options.valFraction, 0.0, splitSeed);
  } else {
    split = data::splitIndices(n, options.valFraction, 0.0, splitSeed);
  }
  const std::vector<int64_t> &trainIdx = split.train, &valIdx = split.val;

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
  data.task = Task::Classification;
  data.inputShape = {1, trainImages.rows, trainImages.cols};
  data.images = true;
  data.source = directory;
  if (options.dataset == "fashion-mnist" && data.classes == 10)
    data.classNames = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                       "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"};

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
  fp.addOption("stratify", std::string(options.stratify ? "true" : "false"));
  fp.addOption("split_seed", seed);
  data.fingerprint = fp.hexDigest();
  return data;
}

}  // namespace

BatchOrder::BatchOrder(int64_t examples, int64_t batchSize, bool shuffle, int64_t seed, int64_t epoch)
    : m_examples(examples), m_batchSize(std::max<int64_t>(1, batchSize)) {
  if (shuffle && examples > 1) {
    const uint64_t s = mixSeed(mixSeed(static_cast<uint64_t>(seed), kShuffleStream), static_cast<uint64_t>(epoch));
    std::vector<int64_t> order = permutation(examples, s);
    m_order = torch::from_blob(order.data(), {examples}, torch::kLong).clone();
  }
}

void BatchOrder::shard(int rank, int world) {
  m_rank = rank;
  m_world = std::max(1, world);
}

torch::Tensor BatchOrder::indices(int64_t b) const {
  if (!m_order.defined()) return {};
  return m_order.slice(0, begin(b), end(b));
}

Batch takeBatch(const Split &split, const BatchOrder &order, int64_t b) {
  const torch::Tensor idx = order.indices(b);
  if (idx.defined()) return {split.inputs.index_select(0, idx), split.targets.index_select(0, idx)};
  return {split.inputs.slice(0, order.begin(b), order.end(b)), split.targets.slice(0, order.begin(b), order.end(b))};
}

}  // namespace tw::engine
