#include "core/data/data_splits.h"

#include "core/config/data_source_table.h"
#include "core/data/csv_layout.h"
#include "core/data/csv_rows.h"
#include "core/data/data_sources.h"
#include "core/data/example_cache.h"
#include "core/data/class_filter.h"
#include "core/data/fingerprint.h"
#include "core/data/shard_set.h"
#include "core/data/idx.h"
#include "core/data/image_folder.h"
#include "core/data/random.h"
#include "core/data/splits.h"
#include "core/data/standardize.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace tw::data {

namespace {

// A streamed table's statistics pass holds this much of it as floats at a time, at most a
// quarter of data.memory_mb.
constexpr uint64_t kTableChunkBytes = 64ull << 20;

std::vector<int64_t> firstIndices(int64_t n) {
  std::vector<int64_t> indices(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) indices[static_cast<size_t>(i)] = i;
  return indices;
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

std::string featureName(const Examples &e, int64_t j) {
  if (static_cast<size_t>(j) < e.featureNames.size()) return "column '" + e.featureNames[static_cast<size_t>(j)] + "'";
  return "feature " + std::to_string(j);
}

// Index inputs go to every Embedding as they are (the Input casts them to int64): a fraction
// would be cut off silently and an index beyond the table fails deep inside the model, where
// the message blames the model. Checked once, on every example, before any split.
void checkIndexInputs(const Examples &e, const ModelUse &use, const std::string &where) {
  if (!use.indexInputs) return;
  const int64_t d = e.featureSize();
  for (int64_t j = 0; j < d; ++j) {
    for (int64_t i = 0; i < e.count; ++i) {
      const float v = e.features[static_cast<size_t>(i * d + j)];
      if (v != std::floor(v))
        throw std::runtime_error(where + ": " + featureName(e, j) + " holds " + number(v) + " (example " +
                                 std::to_string(i) + "), not an integer; an int64 Input takes indices");
      for (const ModelUse::Embedding &emb : use.embeddings)
        if (v < 0 || v >= static_cast<float>(emb.numEmbeddings))
          throw std::runtime_error(where + ": " + featureName(e, j) + " holds " + number(v) + " (example " +
                                   std::to_string(i) + "), outside 0.." + std::to_string(emb.numEmbeddings - 1) +
                                   ", the indices of Embedding '" + emb.node + "' (num_embeddings " +
                                   std::to_string(emb.numEmbeddings) + ")");
    }
  }
}

// A streamed table's features are not in memory: what the scan saw of each (csv_layout.h's
// ranges) answers the same questions checkIndexInputs asks of the values.
void checkIndexRanges(const std::vector<CsvFeatureRange> &ranges, const Examples &e, const ModelUse &use,
                      const std::string &where) {
  if (!use.indexInputs) return;
  for (size_t j = 0; j < ranges.size(); ++j) {
    const CsvFeatureRange &r = ranges[j];
    const int64_t column = static_cast<int64_t>(j);
    if (!r.integral)
      throw std::runtime_error(where + (r.firstFractionLine ? ":" + std::to_string(r.firstFractionLine) : "") + ": " +
                               featureName(e, column) + " holds " + r.firstFraction +
                               ", not an integer; an int64 Input takes indices");
    for (const ModelUse::Embedding &emb : use.embeddings)
      if (r.min < 0 || r.max >= static_cast<double>(emb.numEmbeddings))
        throw std::runtime_error(where + ": " + featureName(e, column) + " holds values from " + number(r.min) +
                                 " to " + number(r.max) + ", outside 0.." + std::to_string(emb.numEmbeddings - 1) +
                                 ", the indices of Embedding '" + emb.node + "' (num_embeddings " +
                                 std::to_string(emb.numEmbeddings) + ")");
  }
}

// A token file: the windows stay in the file; each split's Examples carry the count and shape.
DataSplits loadTokenFileSplits(const config::DataOptions &o, const ModelUse &use) {
  if (!use.indexInputs)
    throw std::runtime_error("data.dataset: token-file feeds token ids; the model's Input needs dtype: int64");
  auto tokens = std::make_shared<TokenFileSplits>(openTokenFile(o));
  DataSplits out;
  auto windows = [&](const TokenWindows &w) {
    Examples e;
    e.task = Task::NextToken;
    e.featureShape = {o.seqLen};
    e.count = w.windows();
    return e;
  };
  out.train = windows(tokens->train);
  out.val = windows(tokens->val);
  out.test = windows(tokens->test);
  Preprocessing &p = out.preprocessing;
  p.dataset = o.dataset;
  p.task = Task::NextToken;
  p.inputShape = {o.seqLen};
  p.indexInputs = true;
  out.source = tokens->source;
  out.fingerprint = tokens->fingerprint;
  out.tokens = std::move(tokens);
  return out;
}

}  // namespace

std::string classSurplusWarning(const std::string &output, int64_t scores, int64_t classes) {
  const int64_t extra = scores - classes;
  return "output '" + output + "' gives " + std::to_string(scores) + " class scores but the data has " +
         std::to_string(classes) + " classes: " + std::to_string(extra) + " score" + (extra == 1 ? "" : "s") +
         " can never be a right answer (out_features: " + std::to_string(classes) + " fits the data)";
}

int64_t dataClassCount(const config::DataOptions &o) {
  if (!o.keepClasses.empty()) return static_cast<int64_t>(o.keepClasses.size());
  try {
    const config::DataSourceInfo *kind = config::findDataSource(o.dataset);
    if (!kind) return 0;
    switch (kind->family) {
      case config::SourceFamily::Idx: return kIdxClasses;
      case config::SourceFamily::Synthetic: return o.classes;
      case config::SourceFamily::Tokens: return o.classes;
      case config::SourceFamily::TokenFile: return 0;
      case config::SourceFamily::ImageFolder: return imageFolderClasses(o.path);
      case config::SourceFamily::Shards: return readShardManifest(o.path).info.classes;
      case config::SourceFamily::Csv:
        if (parseTask(o.task) != Task::Classification) return 0;
        return scanCsv(o.path, csvOptions(o)).table.examples.classes;  // the values are not needed
    }
  } catch (const std::exception &) {
    // Unreadable data is reported by the checks that read it, with the file and line.
  }
  return 0;
}

void splitInPlace(Examples &&all, const std::vector<int64_t> &train, const std::vector<int64_t> &val,
                  const std::vector<int64_t> &test, Examples &trainOut, Examples &valOut, Examples &testOut) {
  valOut = select(all, val);
  testOut = select(all, test);
  const int64_t fs = all.featureSize(), td = all.targetDim;
  const bool hasLabels = !all.labels.empty(), hasTargets = !all.targets.empty(), hasFeatures = !all.features.empty();
  // train is ascending, so row k moves from train[k] >= k: never over a row still to be moved.
  for (size_t k = 0; k < train.size(); ++k) {
    const int64_t from = train[k], to = static_cast<int64_t>(k);
    if (from < to || from >= all.count)
      throw std::out_of_range("splitInPlace: training index " + std::to_string(from) + " is out of order or range");
    if (from == to) continue;
    if (hasFeatures)
      std::copy(all.features.begin() + from * fs, all.features.begin() + (from + 1) * fs, all.features.begin() + to * fs);
    if (hasLabels) all.labels[static_cast<size_t>(to)] = all.labels[static_cast<size_t>(from)];
    if (hasTargets)
      std::copy(all.targets.begin() + from * td, all.targets.begin() + (from + 1) * td, all.targets.begin() + to * td);
  }
  const int64_t n = static_cast<int64_t>(train.size());
  all.count = n;
  if (hasFeatures) {
    all.features.resize(static_cast<size_t>(n * fs));
    all.features.shrink_to_fit();
  }
  if (hasLabels) all.labels.resize(static_cast<size_t>(n));
  if (hasTargets) all.targets.resize(static_cast<size_t>(n * td));
  trainOut = std::move(all);
}

DataSplits loadDataSplits(const config::DataOptions &o, int64_t seed, const ModelUse &use) {
  if (const config::DataSourceInfo *kind = config::findDataSource(o.dataset);
      kind && kind->family == config::SourceFamily::TokenFile)
    return loadTokenFileSplits(o, use);
  // With data.keep_classes the limits count the kept examples, so the source reads them all.
  const bool filtered = !o.keepClasses.empty();
  config::DataOptions whole = o;
  if (filtered) whole.trainLimit = whole.testLimit = 0;
  SourceData read = readSource(whole, seed);
  Examples &all = read.examples;
  // Kept examples' rows in the source (a streamed store's or table's rows), when filtered.
  std::vector<int64_t> keptRows, keptTestRows;
  if (filtered) {
    if (all.task != Task::Classification)
      throw std::runtime_error(read.source + ": data.keep_classes applies to classification data, not to " +
                               taskName(all.task));
    const ClassFilter filter = classFilter(o.keepClasses, all.classes, all.classNames, read.source);
    keptRows = keepClasses(all, filter);
    if (read.hasOwnTest) keptTestRows = keepClasses(read.ownTest, filter);
    if (o.testLimit > 0 && o.testLimit < read.ownTest.count) {
      read.ownTest = select(read.ownTest, firstIndices(o.testLimit));
      keptTestRows.resize(static_cast<size_t>(o.testLimit));
    }
  }
  if (o.trainLimit > 0 && o.trainLimit < all.count) {
    all = select(all, firstIndices(o.trainLimit));
    if (filtered) keptRows.resize(static_cast<size_t>(o.trainLimit));
  }
  if (all.count == 0) throw std::runtime_error(read.source + ": no examples");
  if (read.store && use.indexInputs)
    throw std::runtime_error(read.source + ": images cannot feed an int64 Input (it takes token or category indices)");
  if (read.tableRows) checkIndexRanges(read.ranges, all, use, read.source);
  else checkIndexInputs(all, use, read.source);
  if (read.hasOwnTest) checkIndexInputs(read.ownTest, use, read.source);

  const uint64_t splitSeed = mixSeed(static_cast<uint64_t>(seed), read.splitStream);
  const double testFraction = read.hasOwnTest ? 0.0 : o.testFraction;
  const SplitIndices split = o.stratify && all.task == Task::Classification
                                 ? stratifiedSplit(all.labels, o.valFraction, testFraction, splitSeed)
                                 : splitIndices(all.count, o.valFraction, testFraction, splitSeed);
  DataSplits out;
  const Examples shape = select(all, {});  // every field but the rows, for the record below
  splitInPlace(std::move(all), split.train, split.val, split.test, out.train, out.val, out.test);
  if (read.hasOwnTest) out.test = std::move(read.ownTest);
  if (o.testLimit > 0 && o.testLimit < out.test.count) out.test = select(out.test, firstIndices(o.testLimit));
  if (read.store || read.tableRows) {
    // The first train_limit examples are the store's first ones, so split indices are store rows.
    out.store = read.store;
    out.tableRows = read.tableRows;
    out.trainRows = split.train;
    out.valRows = split.val;
    out.testRows = split.test;
    if (filtered)  // split indices count the kept examples: back to the source's rows
      for (std::vector<int64_t> *rows : {&out.trainRows, &out.valRows, &out.testRows})
        for (int64_t &row : *rows) row = keptRows[static_cast<size_t>(row)];
    if (read.hasOwnTest) {
      out.testRows.resize(static_cast<size_t>(out.test.count));  // the own test set, test_limit applied
      for (int64_t k = 0; k < out.test.count; ++k)
        out.testRows[static_cast<size_t>(k)] = read.ownTestFirstRow + (filtered ? keptTestRows[static_cast<size_t>(k)] : k);
    }
    if (o.testLimit > 0 && o.testLimit < static_cast<int64_t>(out.testRows.size()))
      out.testRows.resize(static_cast<size_t>(o.testLimit));
  }

  Preprocessing &p = out.preprocessing;
  p.dataset = o.dataset;
  p.task = shape.task;
  p.inputShape = shape.featureShape;
  p.indexInputs = use.indexInputs;
  p.featureNames = shape.featureNames;
  p.csvColumns = read.csvColumns;
  if (!read.csvColumns.empty()) p.csvTarget = o.target;
  p.classes = shape.classes;
  p.classNames = shape.classNames;
  p.targetDim = shape.targetDim;
  // Index inputs stay as they are: standardised, they would no longer be indices.
  if (o.normalize && !use.indexInputs) {
    if (read.store) {
      // Applied per batch by the engine, as the images are read. Stored pixels are summed whole
      // while they are few; past kImageStatisticsAllBytes they are sampled as encoded images are.
      const bool sampled = read.store->encoded() ||
                           static_cast<uint64_t>(out.trainRows.size()) * static_cast<uint64_t>(read.store->exampleBytes()) >
                               kImageStatisticsAllBytes;
      const ImageStandardizer s = ImageStandardizer::fit(
          *read.store, statisticsRows(out.trainRows, mixSeed(static_cast<uint64_t>(seed), kStatisticsStream), sampled),
          static_cast<int>(o.workers), o.onBad == "skip");
      p.standardization = "image";
      p.imageMean = s.mean;
      p.imageStd = s.stddev;
    } else if (read.tableRows) {
      // Applied per batch by the engine, as the rows are parsed; fitted on every training row,
      // read in file order a chunk at a time (training rows are ascending), as in memory.
      const CsvRows &table = *read.tableRows;
      const int64_t width = table.width();
      const uint64_t chunkBytes = std::min(kTableChunkBytes, memoryBudgetBytes(o.memoryMb) / 4);
      const int64_t chunk =
          std::max<int64_t>(kCsvBlockRows, static_cast<int64_t>(chunkBytes / static_cast<uint64_t>(4 * width)));
      FeatureMoments moments(width);
      std::vector<float> values;
      for (size_t next = 0; next < out.trainRows.size();) {
        const int64_t begin = out.trainRows[next], end = std::min(table.count(), begin + chunk);
        values.resize(static_cast<size_t>((end - begin) * width));
        table.readRange(begin, end, values.data(), static_cast<int>(o.workers));
        for (; next < out.trainRows.size() && out.trainRows[next] < end; ++next)
          moments.add(values.data() + (out.trainRows[next] - begin) * width);
      }
      const Standardizer s = moments.standardizer(read.scaleColumns.empty() ? nullptr : &read.scaleColumns);
      p.standardization = "per-feature";
      p.featureMean = s.mean;
      p.featureStd = s.stddev;
    } else if (read.images) {
      const ImageStandardizer s = ImageStandardizer::fit(out.train);
      for (Examples *e : {&out.train, &out.val, &out.test}) s.apply(*e);
      p.standardization = "image";
      p.imageMean = s.mean;
      p.imageStd = s.stddev;
    } else {
      const Standardizer s = Standardizer::fit(out.train, read.scaleColumns.empty() ? nullptr : &read.scaleColumns);
      for (Examples *e : {&out.train, &out.val, &out.test}) s.apply(*e);
      p.standardization = "per-feature";
      p.featureMean = s.mean;
      p.featureStd = s.stddev;
    }
  }

  out.images = read.images;
  out.source = read.source;
  out.notes = std::move(read.notes);
  out.reading = std::move(read.reading);
  if (!read.fingerprint.empty()) {
    out.fingerprint = read.fingerprint;
    if (filtered) {
      Fingerprint fp;
      fp.addOption("source", read.fingerprint);
      std::string keep;
      for (const std::string &entry : o.keepClasses) keep += entry + "\n";
      fp.addOption("keep_classes", keep);
      fp.addOption("train_limit", o.trainLimit);
      fp.addOption("test_limit", o.testLimit);
      out.fingerprint = fp.hexDigest();
    }
  } else {
    Fingerprint fp;
    if (read.store) read.store->addToFingerprint(fp);  // names, sizes and times: the pixels are not read
    if (read.tableRows) read.tableRows->addToFingerprint(fp);  // and a streamed table's values neither
    addToFingerprint(fp, "train", out.train);
    addToFingerprint(fp, "val", out.val);
    addToFingerprint(fp, "test", out.test);
    fp.addOption("dataset", o.dataset);
    fp.addOption("normalize", std::string(o.normalize ? "true" : "false"));
    fp.addOption("split_seed", seed);
    out.fingerprint = fp.hexDigest();
  }
  return out;
}

}  // namespace tw::data
