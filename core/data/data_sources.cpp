#include "core/data/data_sources.h"

#include "core/config/data_source_table.h"

#include "core/data/csv_layout.h"
#include "core/data/example_cache.h"
#include "core/data/image_folder.h"
#include "core/data/random.h"
#include "core/data/synthetic.h"
#include "core/data/token_sequences.h"

#include <stdexcept>

namespace tw::data {

namespace {

SourceData readCsvSource(const config::DataOptions &o) {
  const CsvOptions csv = csvOptions(o);
  // One pass learns the layout and the labels; the values are read whole when they fit the
  // memory budget as floats (the fast path), else per batch through the pass's row index.
  CsvScan scan = scanCsv(o.path, csv, /*index=*/true);
  const int64_t rows = scan.table.examples.count;
  const uint64_t floatBytes = static_cast<uint64_t>(rows) * static_cast<uint64_t>(scan.layout.width()) * 4;
  const uint64_t budget = memoryBudgetBytes(o.memoryMb);
  SourceData read;
  CsvTable table;
  if (floatBytes <= budget) {
    table = readCsvValues(o.path, csv, std::move(scan));
    read.reading.push_back(std::to_string(rows) + " rows read into memory " + budgetText(floatBytes, budget));
  } else {
    read.tableRows = openCsvRows(o.path, csv.delimiter, scan);
    read.ranges = std::move(scan.ranges);
    table = std::move(scan.table);
    read.reading.push_back(std::to_string(rows) + " rows streamed from the file and parsed per batch " +
                           budgetText(floatBytes, budget));
  }
  read.examples = std::move(table.examples);
  read.scaleColumns = std::move(table.numericColumns);
  read.csvColumns = std::move(table.columns);
  read.notes = std::move(table.notes);
  return read;
}

// Streamed: the listing, labels and geometry now, the images when a batch needs them.
SourceData readImageFolderSource(const config::DataOptions &o) {
  if (o.path.empty()) throw std::runtime_error("data.path: give the folder with one subfolder per class");
  ImageGeometryOptions geometry;
  geometry.width = geometry.height = o.imageSize;
  geometry.channels = o.channels;
  SourceData read;
  std::shared_ptr<ExampleStore> store = openImageFolderStore(o.path, geometry, static_cast<int>(o.workers));
  Examples &e = read.examples;
  e.task = Task::Classification;
  e.featureShape = store->featureShape();
  e.labels = store->labels();
  e.count = store->count();
  e.classNames = store->classNames();
  e.classes = static_cast<int64_t>(e.classNames.size());
  read.store = std::move(store);
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

CsvOptions csvOptions(const config::DataOptions &o) {
  if (o.path.empty()) throw std::runtime_error("data.path: give the CSV file to read");
  if (o.target.empty()) throw std::runtime_error("data.target: name the CSV column to predict");
  CsvOptions csv;
  csv.target = o.target;
  csv.features = o.features;
  csv.categorical = o.categorical;
  csv.task = parseTask(o.task);
  csv.missing = parseMissingPolicy(o.missing);
  return csv;
}

SourceData readSource(const config::DataOptions &o, int64_t seed) {
  const config::DataSourceInfo *kind = config::findDataSource(o.dataset);
  if (!kind)
    throw std::runtime_error("data.dataset: unknown dataset '" + o.dataset + "' (expected " +
                             config::dataSourceList() + ")");
  SourceData read;
  switch (kind->family) {
    case config::SourceFamily::Idx: return readIdxSource(o, seed);
    case config::SourceFamily::Csv: read = readCsvSource(o); break;
    case config::SourceFamily::ImageFolder: read = readImageFolderSource(o); break;
    case config::SourceFamily::Shards: read = readShardSource(o, seed); break;
    case config::SourceFamily::Synthetic: read = readSyntheticSource(o, seed); break;
    case config::SourceFamily::Tokens: read = readTokenSource(o, seed); break;
    case config::SourceFamily::TokenFile:
      throw std::runtime_error("data.dataset: token-file is read in windows (loadDataSplits), never whole");
  }
  read.source = o.path.empty() ? o.dataset : o.path;
  return read;
}

}  // namespace tw::data
