#include "core/validate/data_source.h"
#include "core/config/data_source_table.h"

#include "core/data/csv_layout.h"
#include "core/data/csv_parser.h"
#include "core/data/data_sources.h"
#include "core/data/dataset_presence.h"
#include "core/data/idx.h"
#include "core/data/shard_set.h"
#include "core/data/splits.h"
#include "core/data/token_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <vector>

namespace fs = std::filesystem;

namespace tw::validate::detail {

namespace {

// Opening the file for reading is the one honest test of "readable" (permissions, ACLs, a
// dangling link); existence alone is not.
std::string unreadable(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (in) return {};
  return path + ": " + std::strerror(errno);
}

// A table up to this size is scanned whole, as the loader scans it (milliseconds); a larger one by
// its header, its first kCsvSampleRows rows and its last kCsvTailBytes.
constexpr uint64_t kCsvScannedWhole = 1 << 20;
constexpr int64_t kCsvSampleRows = 1000;
constexpr uint64_t kCsvTailBytes = 64 << 10;

// The rows wholly inside a large table's last kCsvTailBytes must have the header's field count: a
// file cut short (a copy interrupted, a disk full) ends in a short row. Without a quote in the
// stretch, a line is a record; with one, a line break may sit inside a field, and the sample has
// to do.
std::string checkCsvTail(const std::string &path, uint64_t size, size_t headerFields, char delimiter) {
  std::ifstream in(path, std::ios::binary);
  const uint64_t start = size - kCsvTailBytes;
  std::string text(kCsvTailBytes, '\0');
  in.seekg(static_cast<std::streamoff>(start));
  if (!in.read(text.data(), static_cast<std::streamsize>(text.size()))) return path + ": cannot read its last rows";
  if (text.find('"') != std::string::npos) return {};
  const size_t firstBreak = text.find_first_of("\r\n");
  if (firstBreak == std::string::npos) return {};
  const std::string_view rows = std::string_view(text).substr(firstBreak);  // the first line may be a part
  data::CsvRecordReader reader(rows, path, delimiter, 1);
  std::vector<std::string> fields;
  while (reader.next(fields))
    if (fields.size() != headerFields)
      return path + ": the row at byte " + std::to_string(start + firstBreak + reader.recordOffset()) + " has " +
             std::to_string(fields.size()) + " fields, the header has " + std::to_string(headerFields) +
             (reader.offset() >= rows.size() ? " (the file ends inside a row: is it cut short?)" : "");
  return {};
}

std::string checkIdx(const config::DataOptions &data) {
  const std::string dir = data.path.empty() ? data::defaultDatasetDir(data.dataset) : data.path;
  if (dir.empty()) return "no folder for dataset '" + data.dataset + "'; give data.path";
  // Where the named dataset should be installed, what to do to get it; nothing for a folder of
  // one's own.
  const std::string hint = data.path.empty() ? data::datasetInstallHint(data.dataset) : std::string();
  const std::string toGetIt = hint.empty() ? std::string() : " (to get it: " + hint + ")";
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return "'" + dir + "' is not a folder" + (fs::exists(dir, ec) ? "" : " (it does not exist)") +
           "; data.path names the folder with the IDX files" + toGetIt;
  for (const std::string &stem : data::idxFileStems()) {
    const std::string file = data::findIdxFile(dir, stem);
    if (file.empty()) return dir + ": no " + stem + " or " + stem + ".gz" + toGetIt;
    if (auto problem = unreadable(file); !problem.empty()) return problem;
  }
  // Headers and sizes, labels whole (a byte each), no pixel: a file that lies about its size is
  // refused here, before a run is recorded, not by the worker afterwards.
  try {
    data::checkIdxSet(dir);
  } catch (const std::exception &e) {
    return e.what();
  }
  return {};
}

std::string checkCsv(const config::DataOptions &data) {
  if (data.path.empty()) return "the csv dataset needs data.path, the CSV file";
  std::error_code ec;
  if (!fs::exists(data.path, ec)) return data.path + ": no such file";
  if (fs::is_directory(data.path, ec)) return data.path + ": is a folder; data.path names the CSV file";
  if (auto problem = unreadable(data.path); !problem.empty()) return problem;
  if (data.target.empty()) return {};  // validateRun names the missing data.target
  // The loader's own scan (csv_layout.h) over the whole of a small table, or over the header and
  // the first rows of a large one, whose last rows are then counted: the columns, the field
  // counts, missing values and text in numeric columns, in the loader's words.
  try {
    const uint64_t size = fs::file_size(data.path);
    data::CsvOptions options = data::csvOptions(data);
    if (size > kCsvScannedWhole) options.limit = kCsvSampleRows;
    const data::CsvScan scan = data::scanCsv(data.path, options);
    if (size > kCsvScannedWhole) return checkCsvTail(data.path, size, scan.layout.fieldCount(), options.delimiter);
  } catch (const std::exception &e) {
    return e.what();
  }
  return {};
}

std::string checkImageFolder(const config::DataOptions &data) {
  if (data.path.empty()) return "the image-folder dataset needs data.path, a folder with one subfolder per class";
  std::error_code ec;
  if (!fs::exists(data.path, ec)) return data.path + ": no such folder";
  if (!fs::is_directory(data.path, ec)) return data.path + ": not a folder (one subfolder per class expected)";
  fs::directory_iterator it(data.path, ec);
  if (ec) return data.path + ": " + ec.message();
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.empty() && name[0] != '.' && it->is_directory(ec)) return {};
  }
  return data.path + ": no class folders (one subfolder per class expected)";
}

std::string checkShards(const config::DataOptions &data) {
  if (data.path.empty()) return "the shards dataset needs data.path, the folder `torchwright pack` wrote";
  try {
    const data::ShardManifest manifest = data::readShardManifest(data.path);
    for (const auto &entry : manifest.splits)
      for (const data::ShardInfo &shard : entry.second.shards) {
        const std::string file = (fs::path(data.path) / shard.file).string();
        if (auto problem = unreadable(file); !problem.empty()) return problem;
      }
  } catch (const std::exception &e) {
    return e.what();
  }
  return {};
}

}  // namespace

std::string checkDataSource(const config::DataOptions &data) {
  const config::DataSourceInfo *kind = config::findDataSource(data.dataset);
  if (!kind) return {};  // the config table refuses the name, listing the sources
  switch (kind->family) {
    case config::SourceFamily::Idx: return checkIdx(data);
    case config::SourceFamily::Csv: return checkCsv(data);
    case config::SourceFamily::ImageFolder: return checkImageFolder(data);
    case config::SourceFamily::Shards: return checkShards(data);
    case config::SourceFamily::Synthetic:
    case config::SourceFamily::Tokens: return {};  // drawn from the seed: nothing to read
    case config::SourceFamily::TokenFile:
      try {
        data::openTokenFile(data);  // sizes only: no token is read
      } catch (const std::exception &e) {
        return e.what();
      }
      return {};
  }
  return {};
}

int64_t trainingExamples(const config::DataOptions &data) {
  int64_t n = -1;
  double testFraction = data.testFraction;
  try {
    const config::DataSourceInfo *kind = config::findDataSource(data.dataset);
    if (!kind) return -1;
    if (kind->family == config::SourceFamily::TokenFile)
      return data.windowsPerEpoch > 0 ? data.windowsPerEpoch : data::openTokenFile(data).train.windows();
    if (kind->family == config::SourceFamily::Synthetic || kind->family == config::SourceFamily::Tokens) {
      n = data.samples;
    } else if (kind->family == config::SourceFamily::Idx) {
      const std::string dir = data.path.empty() ? data::defaultDatasetDir(data.dataset) : data.path;
      const std::string labels = dir.empty() ? std::string() : data::findIdxFile(dir, "train-labels-idx1-ubyte");
      if (labels.empty()) return -1;
      n = data::readIdxLabels(labels).fileCount;  // a few bytes per example, never the images
      testFraction = 0.0;                          // IDX sets bring their own test file
    } else if (kind->family == config::SourceFamily::Shards) {
      // The manifest counts each split; a set with its own test split holds none out.
      const data::ShardManifest manifest = data::readShardManifest(data.path);
      const auto train = manifest.splits.find("train");
      if (train == manifest.splits.end()) return -1;
      n = train->second.examples;
      if (manifest.splits.count("test")) testFraction = 0.0;
    }
    if (n <= 0) return -1;
    if (data.trainLimit > 0) n = std::min(n, data.trainLimit);
    return data::splitSizes(n, data.valFraction, testFraction).train;
  } catch (const std::exception &) {
    return -1;  // the loader says what is wrong with the file or the fractions, with the numbers
  }
}

}  // namespace tw::validate::detail
