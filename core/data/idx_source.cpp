// The MNIST family as a data source: four IDX files read into Examples, or past data.memory_mb
// into a store of their 8-bit pixels (readIdxSource in data_sources.h). Everything about the files
// is checked here, from their headers and sizes, before a single example is split: a run never
// starts on data that lies.

#include "core/data/data_sources.h"
#include "core/data/example_cache.h"
#include "core/data/example_store.h"
#include "core/data/fingerprint.h"
#include "core/data/idx.h"

#include <stdexcept>

namespace tw::data {

namespace {

std::string requireFile(const std::string &dir, const std::string &stem) {
  std::string path = findIdxFile(dir, stem);
  if (path.empty()) throw std::runtime_error(dir + ": no " + stem + " or " + stem + ".gz");
  return path;
}

struct IdxPair {
  std::string imagesPath, labelsPath;
  IdxImages images;
  IdxLabels labels;
};

// One images file and its labels, whose counts must agree in the files (not only up to a limit).
IdxPair readPair(const std::string &dir, const std::string &prefix, int64_t limit) {
  IdxPair p;
  p.imagesPath = requireFile(dir, prefix + "-images-idx3-ubyte");
  p.labelsPath = requireFile(dir, prefix + "-labels-idx1-ubyte");
  p.images = readIdxImages(p.imagesPath, limit);
  p.labels = readIdxLabels(p.labelsPath, limit, kIdxClasses);
  if (p.images.fileCount != p.labels.fileCount)
    throw std::runtime_error(dir + ": image and label counts differ: " + p.imagesPath + " holds " +
                             std::to_string(p.images.fileCount) + " images, " + p.labelsPath + " " +
                             std::to_string(p.labels.fileCount) + " labels");
  return p;
}

void addToFingerprint(Fingerprint &fp, const std::string &label, const IdxImages &images) {
  const int64_t dims[3] = {images.count, images.rows, images.cols};
  fp.addBytes(label + ":dims", dims, sizeof dims);
  fp.addBytes(label, images.pixels.data(), images.pixels.size());
}

// Everything but the pixels: labels, classes, one channel's shape [1, rows, cols].
Examples labelsOnly(const IdxPair &p, const std::vector<std::string> &classNames) {
  Examples e;
  e.task = Task::Classification;
  e.count = p.images.count;
  e.featureShape = {1, p.images.rows, p.images.cols};
  e.classes = kIdxClasses;
  e.classNames = classNames;
  e.labels.assign(p.labels.labels.begin(), p.labels.labels.end());
  return e;
}

// And the pixels as floats in [0, 1]: [count, 1, rows, cols].
Examples toExamples(const IdxPair &p, const std::vector<std::string> &classNames) {
  Examples e = labelsOnly(p, classNames);
  float scaled[256];
  for (int v = 0; v < 256; ++v) scaled[v] = static_cast<float>(v / 255.0);
  e.features.resize(p.images.pixels.size());
  for (size_t i = 0; i < p.images.pixels.size(); ++i) e.features[i] = scaled[p.images.pixels[i]];
  return e;
}

}  // namespace

SourceData readIdxSource(const config::DataOptions &o, int64_t seed) {
  const std::string dir = o.path.empty() ? defaultDatasetDir(o.dataset) : o.path;
  if (dir.empty())
    throw std::runtime_error("unknown dataset '" + o.dataset +
                             "' (known: fashion-mnist, mnist); give data.path to read IDX files from a folder");
  IdxPair train = readPair(dir, "train", o.trainLimit);
  IdxPair test = readPair(dir, "t10k", o.testLimit);
  if (test.images.rows != train.images.rows || test.images.cols != train.images.cols)
    throw std::runtime_error(dir + ": train and test images differ in size (" + std::to_string(train.images.rows) +
                             "x" + std::to_string(train.images.cols) + " and " + std::to_string(test.images.rows) +
                             "x" + std::to_string(test.images.cols) + ")");
  if (train.images.count < 1) throw std::runtime_error(dir + ": the training set is empty");
  if (test.images.count < 1) throw std::runtime_error(dir + ": the test set is empty");

  SourceData read;
  // The bytes as read and the options that shape the splits: the same fingerprint as before
  // the IDX files went through the common data path, so older runs compare.
  Fingerprint fp;
  addToFingerprint(fp, "train-images", train.images);
  fp.addBytes("train-labels", train.labels.labels.data(), train.labels.labels.size());
  addToFingerprint(fp, "test-images", test.images);
  fp.addBytes("test-labels", test.labels.labels.data(), test.labels.labels.size());
  fp.addOption("dataset", o.dataset);
  fp.addOption("train_limit", o.trainLimit);
  fp.addOption("test_limit", o.testLimit);
  fp.addOption("val_fraction", o.valFraction);
  fp.addOption("normalize", std::string(o.normalize ? "true" : "false"));
  fp.addOption("stratify", std::string(o.stratify ? "true" : "false"));
  fp.addOption("split_seed", seed);
  read.fingerprint = fp.hexDigest();
  const std::vector<std::string> names =
      o.dataset == "fashion-mnist" ? fashionMnistClassNames() : std::vector<std::string>();
  // As floats while they fit data.memory_mb (the fast path); past it, the pixels stay 8-bit in a
  // store and become floats a batch at a time, a quarter of the memory, bit for bit the same.
  const int64_t pixels = train.images.rows * train.images.cols;
  const uint64_t floatBytes = static_cast<uint64_t>(train.images.count + test.images.count) *
                              static_cast<uint64_t>(pixels) * sizeof(float);
  const uint64_t budget = memoryBudgetBytes(o.memoryMb);
  const auto mib = [](uint64_t bytes) { return std::to_string((bytes + (1 << 20) - 1) >> 20); };
  if (floatBytes <= budget) {
    read.examples = toExamples(train, names);
    read.ownTest = toExamples(test, names);
  } else {
    read.examples = labelsOnly(train, names);
    read.ownTest = labelsOnly(test, names);
    read.ownTestFirstRow = train.images.count;
    std::vector<PixelPart> parts;
    parts.push_back({train.imagesPath, std::move(train.images.pixels), read.examples.labels});
    parts.push_back({test.imagesPath, std::move(test.images.pixels), read.ownTest.labels});
    read.store = makePixelStore(std::move(parts), read.examples.featureShape, names);
    read.notes.push_back(std::to_string(train.images.count + test.images.count) +
                         " images held as 8-bit pixels and made floats per batch (" + mib(floatBytes) +
                         " MiB as floats, above data.memory_mb " + mib(budget) + ")");
  }
  read.hasOwnTest = true;
  read.images = true;
  read.splitStream = kIdxSplitStream;
  read.source = dir;

  return read;
}

}  // namespace tw::data
