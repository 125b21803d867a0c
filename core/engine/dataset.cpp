#include "core/engine/dataset.h"

#include "core/data/shuffle_order.h"
#include "core/spec/param.h"
#include "core/spec/registry.h"

#include <spdlog/fmt/fmt.h>

#include <filesystem>
#include <memory>
#include <utility>

namespace tw::engine {

namespace {

// A tensor over a vector's memory, keeping the vector alive as long as the tensor: the one
// conversion from core/data's examples, with no copy of the pixels.
template <typename T>
torch::Tensor adopt(std::vector<T> &&values, std::vector<int64_t> shape, torch::ScalarType type) {
  auto owner = std::make_shared<std::vector<T>>(std::move(values));
  T *data = owner->data();
  return torch::from_blob(data, shape, [owner](void *) mutable { owner.reset(); }, torch::TensorOptions(type));
}

Split toTensors(data::Examples &&e) {
  Split split;
  if (e.task == Task::NextToken) return split;  // its windows stay in the file (TokenInputs)
  std::vector<int64_t> shape{e.count};
  shape.insert(shape.end(), e.featureShape.begin(), e.featureShape.end());
  if (!e.features.empty() || e.featureSize() == 0 || e.count == 0)
    split.inputs = adopt(std::move(e.features), shape, torch::kFloat);
  if (e.task == Task::Classification)
    split.targets = adopt(std::move(e.labels), {e.count}, torch::kLong);
  else
    split.targets = adopt(std::move(e.targets), {e.count, e.targetDim}, torch::kFloat);
  return split;
}

// Rows of a streamed split read into their places in the batch (data::readImageBatch); a bad
// example with on_bad: skip leaves its place out.
Batch readStreamed(const Split &split, const int64_t *positions, int64_t n, const data::BatchAugment *augment) {
  const StreamedInputs &s = *split.streamed;
  std::vector<int64_t> rows(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) rows[static_cast<size_t>(k)] = s.rows.at(static_cast<size_t>(positions[k]));
  std::vector<int64_t> batchShape{n};
  const data::ExampleStore &store = s.cache->store();
  batchShape.insert(batchShape.end(), store.featureShape().begin(), store.featureShape().end());
  torch::Tensor inputs = torch::empty(batchShape, torch::kFloat);
  const data::BatchRead read =
      data::readImageBatch(*s.cache, rows.data(), n, s.table, s.workers, s.skipBad, inputs.data_ptr<float>(), augment);
  torch::Tensor where = torch::from_blob(const_cast<int64_t *>(positions), {n}, torch::kLong);
  if (read.skipped == 0) return {inputs, split.targets.index_select(0, where)};
  {
    s.counters->skipped.fetch_add(read.skipped);
    std::lock_guard<std::mutex> lock(s.counters->mutex);
    for (const std::string &error : read.errors)
      if (s.counters->skippedNames.size() < 20) s.counters->skippedNames.push_back(error);
  }
  std::vector<int64_t> good;
  for (int64_t k = 0; k < n; ++k)
    if (read.kept[static_cast<size_t>(k)]) good.push_back(k);
  const torch::Tensor keep = torch::from_blob(good.data(), {static_cast<int64_t>(good.size())}, torch::kLong).clone();
  return {inputs.index_select(0, keep), split.targets.index_select(0, where).index_select(0, keep)};
}

// Windows of a token file: ids as the float inputs an int64 Input casts back, and each
// position's next token as its target.
Batch readTokens(const TokenInputs &s, const int64_t *positions, int64_t n) {
  const int64_t t = s.windows.seqLen();
  torch::Tensor ids = torch::empty({n, t + 1}, torch::kLong);
  int64_t *row = ids.data_ptr<int64_t>();
  for (int64_t k = 0; k < n; ++k) {
    if (s.randomWindows > 0)
      s.windows.readAt(s.windows.randomStart(s.seed, positions[k]), row + k * (t + 1), s.vocabulary);
    else
      s.windows.read(positions[k], row + k * (t + 1), s.vocabulary);
  }
  return {ids.slice(1, 0, t).to(torch::kFloat), ids.slice(1, 1, t + 1).contiguous()};
}

// Rows of a streamed table: parsed into the batch, then standardised in place.
Batch readTable(const Split &split, const int64_t *positions, int64_t n) {
  const TableInputs &s = *split.table;
  std::vector<int64_t> rows(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) rows[static_cast<size_t>(k)] = s.rows.at(static_cast<size_t>(positions[k]));
  torch::Tensor inputs = torch::empty({n, s.table->width()}, torch::kFloat);
  s.table->read(rows.data(), n, inputs.data_ptr<float>(), s.workers);
  if (!s.standardizer.mean.empty()) s.standardizer.apply(inputs.data_ptr<float>(), n);
  torch::Tensor where = torch::from_blob(const_cast<int64_t *>(positions), {n}, torch::kLong);
  return {inputs, split.targets.index_select(0, where)};
}

// In-memory images [N, C, H, W] augmented into a new tensor (the split's own stay as they are).
Batch augmented(Batch batch, const data::BatchAugment *augment) {
  if (!augment || !augment->options.active() || batch.inputs.dim() != 4) return batch;
  const torch::Tensor images = batch.inputs.contiguous();
  torch::Tensor out = torch::empty_like(images);
  data::augmentFloatImages(images.data_ptr<float>(), images.size(0), images.size(1), images.size(2), images.size(3),
                           augment->options, augment->seed, out.data_ptr<float>());
  batch.inputs = out;
  return batch;
}

}  // namespace

Batch Split::range(int64_t begin, int64_t end, const data::BatchAugment *augment) const {
  if (!streamed && !tokens && !table)
    return augmented({inputs.slice(0, begin, end), targets.slice(0, begin, end)}, augment);
  std::vector<int64_t> positions(static_cast<size_t>(std::max<int64_t>(0, end - begin)));
  for (size_t k = 0; k < positions.size(); ++k) positions[k] = begin + static_cast<int64_t>(k);
  if (tokens) return readTokens(*tokens, positions.data(), static_cast<int64_t>(positions.size()));
  if (table) return readTable(*this, positions.data(), static_cast<int64_t>(positions.size()));
  return readStreamed(*this, positions.data(), static_cast<int64_t>(positions.size()), augment);
}

Batch Split::gather(const torch::Tensor &indices, const data::BatchAugment *augment) const {
  if (!streamed && !tokens && !table)
    return augmented({inputs.index_select(0, indices), targets.index_select(0, indices)}, augment);
  const torch::Tensor idx = indices.to(torch::kLong).contiguous();
  if (tokens) return readTokens(*tokens, idx.data_ptr<int64_t>(), idx.numel());
  if (table) return readTable(*this, idx.data_ptr<int64_t>(), idx.numel());
  return readStreamed(*this, idx.data_ptr<int64_t>(), idx.numel(), augment);
}

data::ModelUse modelUse(const spec::Analysis &analysis) {
  data::ModelUse use;
  for (const spec::NodeInfo &node : analysis.nodes) {
    if (node.op == "Input" && spec::has(node.params, "dtype") && spec::getString(node.params, "dtype") == "int64")
      use.indexInputs = true;
    // Only indices reach an Embedding (the analysis refuses floats there), and the one Input is
    // where they come from.
    if (const spec::OpDef *def = spec::Registry::instance().find(node.op); def && def->takesIndices)
      use.embeddings.push_back({node.id, spec::getInt(node.params, "num_embeddings")});
  }
  return use;
}

Dataset loadDataset(const config::DataOptions &options, int64_t seed, const data::ModelUse &use) {
  data::DataSplits splits = data::loadDataSplits(options, seed, use);
  Dataset out;
  out.task = splits.train.task;
  out.classes = splits.train.classes;
  out.targetDim = splits.train.targetDim;
  out.classNames = splits.train.classNames;
  out.inputShape = splits.train.featureShape;
  out.images = splits.images;
  out.fingerprint = std::move(splits.fingerprint);
  out.source = std::move(splits.source);
  out.notes = std::move(splits.notes);
  out.reading = std::move(splits.reading);
  out.preprocessing = std::move(splits.preprocessing);
  out.train = toTensors(std::move(splits.train));
  out.val = toTensors(std::move(splits.val));
  out.test = toTensors(std::move(splits.test));
  if (splits.tokens) {
    int64_t vocabulary = 0;
    for (const data::ModelUse::Embedding &e : use.embeddings)
      vocabulary = vocabulary == 0 ? e.numEmbeddings : std::min(vocabulary, e.numEmbeddings);
    const auto windows = [&](Split &split, const data::TokenWindows &w) {
      auto s = std::make_shared<TokenInputs>();
      s->windows = w;
      s->vocabulary = vocabulary;
      split.tokens = std::move(s);
    };
    windows(out.train, splits.tokens->train);
    if (options.windowsPerEpoch > 0) {
      auto random = std::make_shared<TokenInputs>(*out.train.tokens);
      random->randomWindows = options.windowsPerEpoch;
      random->seed = static_cast<uint64_t>(seed);
      out.train.tokens = std::move(random);
    }
    windows(out.val, splits.tokens->val);
    windows(out.test, splits.tokens->test);
    out.reading.push_back(fmt::format("token windows of {} read from the file per batch: {} train{}, {} val, {} test",
                                    options.seqLen + 1, out.train.size(),
                                    options.windowsPerEpoch > 0 ? " (random starts, fresh each epoch)" : "",
                                    out.val.size(), out.test.size()));
  }
  if (splits.tableRows) {
    data::Standardizer standardizer;
    if (out.preprocessing.standardization == "per-feature") {
      standardizer.mean = out.preprocessing.featureMean;
      standardizer.stddev = out.preprocessing.featureStd;
    }
    const auto table = [&](Split &split, std::vector<int64_t> &&rows) {
      auto s = std::make_shared<TableInputs>();
      s->table = splits.tableRows;
      s->rows = std::move(rows);
      s->standardizer = standardizer;
      s->workers = static_cast<int>(options.workers);
      split.table = std::move(s);
    };
    table(out.train, std::move(splits.trainRows));
    table(out.val, std::move(splits.valRows));
    table(out.test, std::move(splits.testRows));
  }
  if (splits.store) {
    out.pipeline = std::make_shared<PipelineCounters>();
    const bool onDisk = options.cache == "disk";
    const std::string cacheDir = !onDisk ? std::string()
                                 : !options.cacheDir.empty() ? options.cacheDir
                                                             : std::filesystem::temp_directory_path().string();
    const uint64_t budget = options.cache == "memory" ? data::memoryBudgetBytes(options.memoryMb)
                            : onDisk                  ? data::diskCacheBudgetBytes(cacheDir)
                                                      : 0;
    // Examples already in memory (a pixel store) are not copied into a cache.
    out.exampleCache = std::make_shared<data::ExampleCache>(
        splits.store, splits.store->inMemory() ? 0 : budget, onDisk ? data::CacheMedium::Disk : data::CacheMedium::Memory,
        cacheDir);
    const auto stream = [&](Split &split, std::vector<int64_t> &&rows) {
      auto s = std::make_shared<StreamedInputs>();
      s->cache = out.exampleCache;
      s->rows = std::move(rows);
      s->table = data::standardisedBytes(out.preprocessing.standardization == "image", out.preprocessing.imageMean,
                                         out.preprocessing.imageStd);
      s->workers = static_cast<int>(options.workers);
      s->skipBad = options.onBad == "skip";
      s->counters = out.pipeline;
      split.streamed = std::move(s);
    };
    // The store's groups (shards) as positions in the training split, whose rows ascend.
    std::vector<int64_t> trainGroups;
    for (int64_t row : splits.store->groupStarts()) {
      const int64_t at = std::lower_bound(splits.trainRows.begin(), splits.trainRows.end(), row) - splits.trainRows.begin();
      if (at < static_cast<int64_t>(splits.trainRows.size()) && (trainGroups.empty() || trainGroups.back() != at))
        trainGroups.push_back(at);
    }
    if (!trainGroups.empty()) trainGroups.front() = 0;
    stream(out.train, std::move(splits.trainRows));
    std::const_pointer_cast<StreamedInputs>(out.train.streamed)->groupStarts = std::move(trainGroups);
    stream(out.val, std::move(splits.valRows));
    stream(out.test, std::move(splits.testRows));
    const data::ExampleStore &store = *splits.store;
    const double decodedMb = static_cast<double>(store.exampleBytes()) * static_cast<double>(store.count()) / (1 << 20);
    const int64_t kept = out.exampleCache->capacity();
    if (!store.inMemory()) {
      out.reading.push_back(fmt::format(
          "{} images streamed from disk and decoded per batch ({:.0f} MiB as 8-bit pixels); {}", store.count(), decodedMb,
          options.cache == "none" ? std::string("no cache (data.cache: none)")
          : onDisk && kept >= store.count()
              ? fmt::format("all kept on disk after their first read (a cache file in {}, removed when the run ends)",
                            cacheDir)
          : onDisk ? fmt::format("{} of them ({:.0f}%) kept on disk after their first read, within the free space of {}",
                                 kept, 100.0 * static_cast<double>(kept) / static_cast<double>(store.count()), cacheDir)
          : kept >= store.count() ? fmt::format("all kept in memory after their first read (data.memory_mb {})",
                                                static_cast<int64_t>(budget >> 20))
                                  : fmt::format("{} of them ({:.0f}%) kept in memory after their first read, within "
                                                "data.memory_mb {}",
                                                kept, 100.0 * static_cast<double>(kept) / static_cast<double>(store.count()),
                                                static_cast<int64_t>(budget >> 20))));
    }
  }
  return out;
}

BatchOrder::BatchOrder(int64_t examples, int64_t batchSize, bool shuffle, int64_t seed, int64_t epoch)
    : m_examples(examples), m_batchSize(std::max<int64_t>(1, batchSize)) {
  if (shuffle && examples > 1) {
    const uint64_t s = mixSeed(mixSeed(static_cast<uint64_t>(seed), data::kShuffleStream), static_cast<uint64_t>(epoch));
    m_order = adopt(permutation(examples, s), {examples}, torch::kLong);
  }
}

BatchOrder::BatchOrder(const std::vector<int64_t> &order, int64_t batchSize)
    : m_examples(static_cast<int64_t>(order.size())), m_batchSize(std::max<int64_t>(1, batchSize)) {
  if (!order.empty())
    m_order = torch::from_blob(const_cast<int64_t *>(order.data()), {m_examples}, torch::kLong).clone();
}

std::vector<int64_t> BatchOrder::positions() const {
  if (!m_order.defined()) {
    std::vector<int64_t> all(static_cast<size_t>(m_examples));
    for (int64_t i = 0; i < m_examples; ++i) all[static_cast<size_t>(i)] = i;
    return all;
  }
  const int64_t *p = m_order.data_ptr<int64_t>();
  return std::vector<int64_t>(p, p + m_examples);
}

BatchOrder epochOrder(const Split &train, const config::DataOptions &options, int64_t seed, int64_t epoch) {
  if (train.tokens && train.tokens->randomWindows > 0) {
    // Fresh random windows every epoch: positions no earlier epoch used, each its own draw.
    const int64_t n = train.tokens->randomWindows;
    std::vector<int64_t> positions(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k) positions[static_cast<size_t>(k)] = epoch * n + k;
    return BatchOrder(positions, options.batchSize);
  }
  if (options.shuffle && options.shuffleMode == "shards" && train.streamed && train.size() > 1) {
    const uint64_t s = mixSeed(mixSeed(static_cast<uint64_t>(seed), data::kShuffleStream), static_cast<uint64_t>(epoch));
    return BatchOrder(data::bufferedShardOrder(train.streamed->groupStarts, train.size(), options.shuffleBuffer, s),
                      options.batchSize);
  }
  return BatchOrder(train.size(), options.batchSize, options.shuffle, seed, epoch);
}

void BatchOrder::shard(int rank, int world) {
  m_rank = rank;
  m_world = std::max(1, world);
}

torch::Tensor BatchOrder::indices(int64_t b) const {
  if (!m_order.defined()) return {};
  return m_order.slice(0, begin(b), end(b));
}

Batch takeBatch(const Split &split, const BatchOrder &order, int64_t b, const data::BatchAugment *augment) {
  const torch::Tensor idx = order.indices(b);
  if (idx.defined()) return split.gather(idx, augment);
  return split.range(order.begin(b), order.end(b), augment);
}

}  // namespace tw::engine
