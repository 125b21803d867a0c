#include "core/data/data_sources.h"

#include "core/data/image_folder.h"
#include "core/data/random.h"
#include "core/data/synthetic.h"
#include "core/data/token_sequences.h"

#include <stdexcept>

namespace tw::data {

namespace {

SourceData readCsvSource(const config::DataOptions &o) {
  if (o.path.empty()) throw std::runtime_error("data.path: give the CSV file to read");
  if (o.target.empty()) throw std::runtime_error("data.target: name the CSV column to predict");
  CsvOptions csv;
  csv.target = o.target;
  csv.features = o.features;
  csv.categorical = o.categorical;
  csv.task = parseTask(o.task);
  csv.missing = parseMissingPolicy(o.missing);
  CsvTable table = readCsv(o.path, csv);
  SourceData read;
  read.examples = std::move(table.examples);
  read.scaleColumns = std::move(table.numericColumns);
  read.csvColumns = std::move(table.columns);
  read.notes = std::move(table.notes);
  return read;
}

SourceData readImageFolderSource(const config::DataOptions &o) {
  if (o.path.empty()) throw std::runtime_error("data.path: give the folder with one subfolder per class");
  ImageFolderOptions images;
  images.width = images.height = o.imageSize;
  images.channels = o.channels;
  SourceData read;
  read.examples = readImageFolder(o.path, images);
  read.images = true;
  return read;
}

SourceData readSyntheticSource(const config::DataOptions &o, int64_t seed) {
  SourceData read;
  read.examples = makeSyntheticSet(o.dataset, o.samples, o.classes, o.noise, seed);
  return read;
}

SourceData readTokenSource(const config::DataOptions &o, int64_t seed) {
  SourceData read;
  read.examples = makeTokenSequences(o.samples, o.classes, o.seqLen, o.vocabSize,
                                     mixSeed(static_cast<uint64_t>(seed), kSyntheticStream));
  read.scaleColumns.assign(static_cast<size_t>(o.seqLen), false);  // token ids, never standardised
  return read;
}

}  // namespace

SourceData readSource(const config::DataOptions &o, int64_t seed) {
  SourceData read;
  if (o.dataset == "fashion-mnist" || o.dataset == "mnist") return readIdxSource(o, seed);
  if (o.dataset == "csv") read = readCsvSource(o);
  else if (o.dataset == "image-folder") read = readImageFolderSource(o);
  else if (o.dataset == "spirals" || o.dataset == "blobs") read = readSyntheticSource(o, seed);
  else if (o.dataset == "tokens") read = readTokenSource(o, seed);
  else if (o.dataset == "shards") read = readShardSource(o, seed);
  else
    throw std::runtime_error("data.dataset: unknown dataset '" + o.dataset +
                             "' (expected fashion-mnist, mnist, csv, image-folder, shards, spirals, blobs or tokens)");
  read.source = o.path.empty() ? o.dataset : o.path;
  return read;
}

}  // namespace tw::data
