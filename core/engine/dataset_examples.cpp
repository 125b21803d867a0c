#include "core/engine/dataset_examples.h"

#include "core/data/csv_reader.h"
#include "core/data/image_folder.h"
#include "core/data/splits.h"
#include "core/data/standardize.h"
#include "core/data/synthetic.h"
#include "core/data/token_sequences.h"

#include <cmath>
#include <stdexcept>

namespace tw::engine {

namespace {

constexpr uint64_t kSplitStream = 0x5b2;
constexpr uint64_t kSyntheticStream = 0x5e7;

struct Read {
  data::Examples examples;
  std::vector<bool> scaleColumns;  // tables: which features standardise (not one-hot ones)
  bool images = false;
  std::vector<std::string> notes;
};

Read readSource(const config::DataOptions &o, int64_t seed) {
  Read read;
  if (o.dataset == "csv") {
    if (o.path.empty()) throw std::runtime_error("data.path: give the CSV file to read");
    if (o.target.empty()) throw std::runtime_error("data.target: name the CSV column to predict");
    data::CsvOptions csv;
    csv.target = o.target;
    csv.features = o.features;
    csv.categorical = o.categorical;
    csv.task = data::parseTask(o.task);
    csv.missing = data::parseMissingPolicy(o.missing);
    data::CsvTable table = data::readCsv(o.path, csv);
    read.examples = std::move(table.examples);
    read.scaleColumns = std::move(table.numericColumns);
    read.notes = std::move(table.notes);
  } else if (o.dataset == "image-folder") {
    if (o.path.empty()) throw std::runtime_error("data.path: give the folder with one subfolder per class");
    data::ImageFolderOptions images;
    images.width = images.height = o.imageSize;
    images.channels = o.channels;
    read.examples = data::readImageFolder(o.path, images);
    read.images = true;
  } else if (o.dataset == "spirals" || o.dataset == "blobs") {
    const uint64_t s = mixSeed(static_cast<uint64_t>(seed), kSyntheticStream);
    read.examples = o.dataset == "spirals" ? data::makeSpirals(o.samples, o.classes, o.noise, s)
                                           : data::makeBlobs(o.samples, o.classes, 2, o.noise, s);
  } else if (o.dataset == "tokens") {
    const uint64_t s = mixSeed(static_cast<uint64_t>(seed), kSyntheticStream);
    read.examples = data::makeTokenSequences(o.samples, o.classes, o.seqLen, o.vocabSize, s);
    read.scaleColumns.assign(static_cast<size_t>(o.seqLen), false);  // token ids, never standardised
  } else {
    throw std::runtime_error("data.dataset: unknown dataset '" + o.dataset +
                             "' (expected fashion-mnist, mnist, csv, image-folder, spirals, blobs or tokens)");
  }
  return read;
}

std::vector<int64_t> firstIndices(int64_t n) {
  std::vector<int64_t> indices(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) indices[static_cast<size_t>(i)] = i;
  return indices;
}

Split toTensors(const data::Examples &e) {
  Split split;
  std::vector<int64_t> shape{e.count};
  shape.insert(shape.end(), e.featureShape.begin(), e.featureShape.end());
  split.inputs = torch::from_blob(const_cast<float *>(e.features.data()), shape, torch::kFloat).clone();
  if (e.task == Task::Classification) {
    split.targets = torch::from_blob(const_cast<int64_t *>(e.labels.data()), {e.count}, torch::kLong).clone();
  } else {
    split.targets =
        torch::from_blob(const_cast<float *>(e.targets.data()), {e.count, e.targetDim}, torch::kFloat).clone();
  }
  return split;
}

// Images standardise with one mean and std over every pixel of the training split (as for IDX);
// a per-pixel standardisation would erase the very structure a convolution looks for.
void standardiseImages(data::Examples &train, data::Examples &val, data::Examples &test, Dataset &out) {
  double sum = 0.0, squares = 0.0;
  for (float v : train.features) {
    sum += v;
    squares += static_cast<double>(v) * v;
  }
  const double n = static_cast<double>(std::max<size_t>(1, train.features.size()));
  out.mean = sum / n;
  out.stddev = std::sqrt(std::max(0.0, squares / n - out.mean * out.mean));
  if (out.stddev < 1e-12) out.stddev = 1.0;
  for (data::Examples *e : {&train, &val, &test})
    for (float &v : e->features) v = static_cast<float>((v - out.mean) / out.stddev);
}

}  // namespace

Dataset loadExampleDataset(const config::DataOptions &o, int64_t seed) {
  Read read = readSource(o, seed);
  data::Examples &all = read.examples;
  if (o.trainLimit > 0 && o.trainLimit < all.count) all = data::select(all, firstIndices(o.trainLimit));
  if (all.count == 0) throw std::runtime_error(o.path + ": no examples");

  const uint64_t splitSeed = mixSeed(static_cast<uint64_t>(seed), kSplitStream);
  const data::SplitIndices split = o.stratify && all.task == Task::Classification
                                       ? data::stratifiedSplit(all.labels, o.valFraction, o.testFraction, splitSeed)
                                       : data::splitIndices(all.count, o.valFraction, o.testFraction, splitSeed);
  data::Examples train = data::select(all, split.train);
  data::Examples val = data::select(all, split.val);
  data::Examples test = data::select(all, split.test);
  if (o.testLimit > 0 && o.testLimit < test.count) test = data::select(test, firstIndices(o.testLimit));

  Dataset out;
  if (o.normalize) {
    if (read.images) {
      standardiseImages(train, val, test, out);
    } else {
      const data::Standardizer scaler =
          data::Standardizer::fit(train, read.scaleColumns.empty() ? nullptr : &read.scaleColumns);
      scaler.apply(train);
      scaler.apply(val);
      scaler.apply(test);
    }
  }

  out.task = all.task;
  out.classes = all.classes;
  out.targetDim = all.targetDim;
  out.classNames = all.classNames;
  out.inputShape = all.featureShape;
  out.images = read.images;
  out.source = o.path.empty() ? o.dataset : o.path;
  out.notes = std::move(read.notes);
  out.train = toTensors(train);
  out.val = toTensors(val);
  out.test = toTensors(test);

  data::Fingerprint fp;
  data::addToFingerprint(fp, "train", train);
  data::addToFingerprint(fp, "val", val);
  data::addToFingerprint(fp, "test", test);
  fp.addOption("dataset", o.dataset);
  fp.addOption("normalize", std::string(o.normalize ? "true" : "false"));
  fp.addOption("split_seed", seed);
  out.fingerprint = fp.hexDigest();
  return out;
}

}  // namespace tw::engine
