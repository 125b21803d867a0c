#include "core/engine/dataset_cache.h"
#include "core/engine/trainer.h"

#include <filesystem>
#include <system_error>

namespace fs = std::filesystem;

namespace tw::engine {

std::string datasetKey(const config::DataOptions &options, int64_t seed, const data::ModelUse &use) {
  config::RunConfig shaping;
  shaping.data = options;
  const config::DataOptions defaults;
  shaping.data.batchSize = defaults.batchSize;
  shaping.data.shuffle = defaults.shuffle;
  shaping.data.shuffleMode = defaults.shuffleMode;
  shaping.data.shuffleBuffer = defaults.shuffleBuffer;
  shaping.data.prefetch = defaults.prefetch;
  shaping.data.cropPadding = defaults.cropPadding;
  shaping.data.flip = defaults.flip;
  shaping.data.erase = defaults.erase;
  // Every data key the config table knows, so a new option is part of the key without a word here.
  std::string key;
  for (const auto &[name, value] : config::flattenConfig(shaping))
    if (name.rfind("data.", 0) == 0) key += name + "=" + value + "\n";
  key += "seed=" + std::to_string(seed) + "\nindex_inputs=" + (use.indexInputs ? "1" : "0") + "\n";
  for (const auto &e : use.embeddings) key += "embedding " + e.node + "=" + std::to_string(e.numEmbeddings) + "\n";
  // A CSV rewritten between two runs is read again.
  std::error_code ec;
  if (!options.path.empty() && fs::is_regular_file(options.path, ec)) {
    const auto size = fs::file_size(options.path, ec);
    const auto written = fs::last_write_time(options.path, ec).time_since_epoch().count();
    key += "file=" + std::to_string(size) + "@" + std::to_string(written) + "\n";
  }
  return key;
}

std::shared_ptr<DatasetCache> newDatasetCache() { return std::make_shared<DatasetCache>(); }

Dataset DatasetCache::load(const config::DataOptions &options, int64_t seed, const data::ModelUse &use) {
  std::string key = datasetKey(options, seed, use);
  if (m_data && key == m_key) {
    ++m_hits;
    return *m_data;
  }
  m_data.reset();  // the old tensors go before the new ones are read
  Dataset read = loadDataset(options, seed, use);
  m_key = std::move(key);
  m_data = read;
  return read;
}

}  // namespace tw::engine
