// The MNIST family as a data source: four IDX files read into Examples, or past data.memory_mb
// into a store of their 8-bit pixels (readIdxSource in data_sources.h). Everything about the files
// is checked here, from their headers and sizes, before a single example is split: a run never
// starts on data that lies.

#include "core/data/data_sources.h"
#include "core/data/example_cache.h"
#include "core/data/example_store.h"
#include "core/data/fingerprint.h"
#include "core/data/idx.h"

#include <algorithm>
#include <fstream>
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
  checkIdxCounts(dir, p.imagesPath, p.images.fileCount, p.labelsPath, p.labels.fileCount);
  return p;
}

void addToFingerprint(Fingerprint &fp, const std::string &label, const IdxImages &images) {
  const int64_t dims[3] = {images.count, images.rows, images.cols};
  fp.addBytes(label + ":dims", dims, sizeof dims);
  fp.addBytes(label, images.pixels.data(), images.pixels.size());
}

// Everything but the pixels: labels, classes, one channel's shape [1, rows, cols].
Examples labelsOnly(int64_t count, int64_t rows, int64_t cols, const IdxLabels &labels,
                    const std::vector<std::string> &classNames) {
  Examples e;
  e.task = Task::Classification;
  e.count = count;
  e.featureShape = {1, rows, cols};
  e.classes = kIdxClasses;
  e.classNames = classNames;
  e.labels.assign(labels.labels.begin(), labels.labels.end());
  return e;
}

Examples labelsOnly(const IdxPair &p, const std::vector<std::string> &classNames) {
  return labelsOnly(p.images.count, p.images.rows, p.images.cols, p.labels, classNames);
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

// The options that shape the splits, after the bytes: the same fingerprint whichever way the
// pixels are held, and as before the IDX files went through the common data path.
void addSplitOptions(Fingerprint &fp, const config::DataOptions &o, int64_t seed) {
  fp.addOption("dataset", o.dataset);
  fp.addOption("train_limit", o.trainLimit);
  fp.addOption("test_limit", o.testLimit);
  fp.addOption("val_fraction", o.valFraction);
  fp.addOption("normalize", std::string(o.normalize ? "true" : "false"));
  fp.addOption("stratify", std::string(o.stratify ? "true" : "false"));
  fp.addOption("split_seed", seed);
}

// Plain IDX files past data.memory_mb: the labels read, the pixels left in the files and read
// an image at a time (a pixel file store), hashed for the fingerprint in one streamed pass.
SourceData readIdxFromDisk(const config::DataOptions &o, int64_t seed, const std::string &dir, uint64_t floatBytes,
                           uint64_t budget) {
  struct Part {
    std::string images, labelsPath;
    IdxImagesLayout layout;
    IdxLabels labels;
  };
  Part parts[2];
  const char *prefixes[2] = {"train", "t10k"};
  const int64_t limits[2] = {o.trainLimit, o.testLimit};
  for (int k = 0; k < 2; ++k) {
    Part &p = parts[k];
    p.images = requireFile(dir, std::string(prefixes[k]) + "-images-idx3-ubyte");
    p.labelsPath = requireFile(dir, std::string(prefixes[k]) + "-labels-idx1-ubyte");
    p.layout = readIdxImagesLayout(p.images, limits[k]);
    p.labels = readIdxLabels(p.labelsPath, limits[k], kIdxClasses);
    checkIdxCounts(dir, p.images, p.layout.fileCount, p.labelsPath, p.labels.fileCount);
  }
  const IdxImagesLayout &train = parts[0].layout, &test = parts[1].layout;
  checkIdxSplits(dir, train.count, train.rows, train.cols, test.count, test.rows, test.cols);

  SourceData read;
  Fingerprint fp;
  const char *labels[2] = {"train", "test"};
  std::vector<char> chunk(1 << 20);
  for (int k = 0; k < 2; ++k) {
    const Part &p = parts[k];
    const int64_t dims[3] = {p.layout.count, p.layout.rows, p.layout.cols};
    const std::string label = std::string(labels[k]) + "-images";
    fp.addBytes(label + ":dims", dims, sizeof dims);
    const uint64_t bytes = static_cast<uint64_t>(p.layout.count * p.layout.rows * p.layout.cols);
    fp.beginBytes(label, bytes);
    std::ifstream in(p.images, std::ios::binary);
    in.seekg(static_cast<std::streamoff>(kIdxImagesHeaderBytes));
    for (uint64_t done = 0; done < bytes;) {
      const size_t want = static_cast<size_t>(std::min<uint64_t>(chunk.size(), bytes - done));
      if (!in.read(chunk.data(), static_cast<std::streamsize>(want)))
        throw std::runtime_error(p.images + ": cannot read its pixels (the file changed while it was read?)");
      fp.appendBytes(chunk.data(), want);
      done += want;
    }
    fp.addBytes(std::string(labels[k]) + "-labels", p.labels.labels.data(), p.labels.labels.size());
  }
  addSplitOptions(fp, o, seed);
  read.fingerprint = fp.hexDigest();

  const std::vector<std::string> names =
      o.dataset == "fashion-mnist" ? fashionMnistClassNames() : std::vector<std::string>();
  read.examples = labelsOnly(train.count, train.rows, train.cols, parts[0].labels, names);
  read.ownTest = labelsOnly(test.count, test.rows, test.cols, parts[1].labels, names);
  read.ownTestFirstRow = train.count;
  read.hasOwnTest = true;
  std::vector<PixelFilePart> files;
  files.push_back({parts[0].images, kIdxImagesHeaderBytes, read.examples.labels});
  files.push_back({parts[1].images, kIdxImagesHeaderBytes, read.ownTest.labels});
  read.store = makePixelFileStore(std::move(files), read.examples.featureShape, names);
  read.reading.push_back(std::to_string(train.count + test.count) + " images read from the files per batch " +
                         budgetText(floatBytes, budget));
  read.images = true;
  read.splitStream = kIdxSplitStream;
  read.source = dir;
  return read;
}

}  // namespace

SourceData readIdxSource(const config::DataOptions &o, int64_t seed) {
  const std::string dir = o.path.empty() ? defaultDatasetDir(o.dataset) : o.path;
  if (dir.empty())
    throw std::runtime_error("unknown dataset '" + o.dataset +
                             "' (known: fashion-mnist, mnist); give data.path to read IDX files from a folder");
  // The headers first: the images' size as floats decides how their pixels are held.
  const IdxImagesLayout trainLayout = readIdxImagesLayout(requireFile(dir, "train-images-idx3-ubyte"), o.trainLimit);
  const IdxImagesLayout testLayout = readIdxImagesLayout(requireFile(dir, "t10k-images-idx3-ubyte"), o.testLimit);
  const uint64_t floatBytes = static_cast<uint64_t>(trainLayout.count + testLayout.count) *
                              static_cast<uint64_t>(trainLayout.rows * trainLayout.cols) * sizeof(float);
  const uint64_t budget = memoryBudgetBytes(o.memoryMb);
  if (floatBytes > budget && trainLayout.plain && testLayout.plain) return readIdxFromDisk(o, seed, dir, floatBytes, budget);
  IdxPair train = readPair(dir, "train", o.trainLimit);
  IdxPair test = readPair(dir, "t10k", o.testLimit);
  checkIdxSplits(dir, train.images.count, train.images.rows, train.images.cols, test.images.count, test.images.rows,
            test.images.cols);

  SourceData read;
  // The bytes as read and the options that shape the splits: the same fingerprint as before
  // the IDX files went through the common data path, so older runs compare.
  Fingerprint fp;
  addToFingerprint(fp, "train-images", train.images);
  fp.addBytes("train-labels", train.labels.labels.data(), train.labels.labels.size());
  addToFingerprint(fp, "test-images", test.images);
  fp.addBytes("test-labels", test.labels.labels.data(), test.labels.labels.size());
  addSplitOptions(fp, o, seed);
  read.fingerprint = fp.hexDigest();
  const std::vector<std::string> names =
      o.dataset == "fashion-mnist" ? fashionMnistClassNames() : std::vector<std::string>();
  // As floats while they fit data.memory_mb (the fast path); past it, the pixels stay 8-bit in a
  // store and become floats a batch at a time, a quarter of the memory, bit for bit the same.
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
    read.reading.push_back(std::to_string(train.images.count + test.images.count) +
                           " images held as 8-bit pixels and made floats per batch " +
                           budgetText(floatBytes, budget));
  }
  read.hasOwnTest = true;
  read.images = true;
  read.splitStream = kIdxSplitStream;
  read.source = dir;

  return read;
}

}  // namespace tw::data
