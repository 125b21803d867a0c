#pragma once
// The data sources a run can read (data.dataset), in one table: the config table takes its
// choices and which keys apply to which source from here, and the readers (core/data), the
// validator, the Launch form and its preview dispatch on a source's family. A new source is a row
// here and one reader.
//
//   const DataSourceInfo *s = findDataSource("image-folder");
//   if (s && s->streamed) ...;                     // read per batch: data.cache applies
//   dataSourceNames();                             // {"fashion-mnist", "mnist", "csv", ...}

#include <string>
#include <vector>

namespace tw::config {

enum class SourceFamily {
  Idx,          // the MNIST family's four IDX files, found by name or in data.path
  Csv,          // a table: data.target, data.features, data.categorical, data.missing
  ImageFolder,  // one subfolder per class
  Shards,       // a packed shard set (`torchwright pack`): whatever it was packed from
  Synthetic,    // spirals, blobs: points drawn from the seed (data.samples, classes, noise)
  Tokens,       // token sequences drawn from the seed (data.samples, classes, seq_len, vocab_size)
  TokenFile,    // a language model's token ids in a flat file, read in windows (data.seq_len, token_dtype)
};

struct DataSourceInfo {
  const char *name;     // the data.dataset value
  SourceFamily family;
  const char *summary;  // one line: what it is
  const char *path;     // what data.path names; "" when the source reads no file
  bool pathOptional;    // IDX: an empty path reads the installed dataset
  bool ownTestSet;      // brings its own test file, so data.test_fraction never applies
  bool images;          // [C, H, W] images: augmentation applies (shards: when packed from images)
  bool imageGeometry;   // data.image_size and data.channels apply
  bool streamed;        // read per batch from disk: data.cache, data.memory_mb and data.on_bad apply
  bool preview;         // the Launch page previews it
  bool memoryBudget;    // data.memory_mb applies: the decoded cache, or whether the data are held as floats
                        // (csv: else parsed per batch; IDX: else read per batch, or held as 8-bit pixels)
  bool readThreads;     // data.workers applies: threads that decode images or parse a streamed table's rows
};

const std::vector<DataSourceInfo> &dataSources();
// Null for a name that is no source.
const DataSourceInfo *findDataSource(const std::string &name);
std::vector<std::string> dataSourceNames();
// The names of the sources for which `pred` holds, in table order.
std::vector<std::string> dataSourcesWhere(bool (*pred)(const DataSourceInfo &));
// "fashion-mnist, mnist, csv, ... or tokens", for messages.
std::string dataSourceList();

}  // namespace tw::config
