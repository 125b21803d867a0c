#include "core/config/data_source_table.h"

namespace tw::config {

const std::vector<DataSourceInfo> &dataSources() {
  using F = SourceFamily;
  // name, family, summary, path, pathOptional, ownTestSet, images, imageGeometry, streamed, preview,
  // memoryBudget, readThreads
  static const std::vector<DataSourceInfo> table = {
      {"fashion-mnist", F::Idx, "Fashion-MNIST's IDX files (28x28 gray clothing, 10 classes)",
       "the folder holding the four IDX files", true, true, true, false, false, true, true, false},
      {"mnist", F::Idx, "MNIST's IDX files (28x28 gray digits, 10 classes)", "the folder holding the four IDX files",
       true, true, true, false, false, true, true, false},
      {"csv", F::Csv, "a CSV table: one example per row, a target column", "the CSV file", false, false, false, false,
       false, true, true, true},
      {"image-folder", F::ImageFolder, "a folder of images, one subfolder per class, streamed from disk",
       "the folder with one subfolder per class", false, false, true, true, true, true, true, true},
      // Streamed when packed from images or uint8 arrays; a set of CSV rows is read whole.
      {"shards", F::Shards, "a packed shard set written by `torchwright pack`", "the folder `torchwright pack` wrote",
       false, false, true, true, true, true, true, true},
      {"spirals", F::Synthetic, "interleaved spirals drawn from the seed (2 features)", "", false, false, false, false,
       false, true, false, false},
      {"blobs", F::Synthetic, "Gaussian blobs drawn from the seed (2 features)", "", false, false, false, false, false,
       true, false, false},
      {"tokens", F::Tokens, "token sequences whose class is the marker token seen most", "", false, false, false,
       false, false, true, false, false},
      // Read a window at a time (token_file.h), but none of the image pipeline's keys apply.
      {"token-file", F::TokenFile, "a language model's token ids: each position learns the next token",
       "a flat file of uint16/uint32 token ids, or a folder with train.bin (and val.bin, test.bin)", false, false,
       false, false, false, true, false, false},
  };
  return table;
}

const DataSourceInfo *findDataSource(const std::string &name) {
  for (const DataSourceInfo &s : dataSources())
    if (name == s.name) return &s;
  return nullptr;
}

std::vector<std::string> dataSourceNames() {
  return dataSourcesWhere([](const DataSourceInfo &) { return true; });
}

std::vector<std::string> dataSourcesWhere(bool (*pred)(const DataSourceInfo &)) {
  std::vector<std::string> names;
  for (const DataSourceInfo &s : dataSources())
    if (pred(s)) names.emplace_back(s.name);
  return names;
}

std::string dataSourceList() {
  const std::vector<std::string> names = dataSourceNames();
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return text;
}

}  // namespace tw::config
