// Packed shard sets as a data source (readShardSource in data_sources.h): image sets and uint8
// array sets stream through openShardStore; float arrays (CSV rows) are read whole into Examples.

#include "core/data/data_sources.h"
#include "core/data/fingerprint.h"
#include "core/data/image_codec.h"
#include "core/data/image_folder.h"
#include "core/data/npy.h"
#include "core/data/parallel_for.h"
#include "core/data/shard_set.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace tw::data {

namespace {

const std::string *member(const ShardExample &example, const std::string &ext) {
  for (const auto &m : example.members)
    if (m.first == ext) return &m.second;
  return nullptr;
}

// An array set (CSV rows, regression targets) read whole, in order a chunk at a time.
Examples readSplit(const std::string &dir, const std::string &split, int64_t limit, const config::DataOptions &o) {
  ShardReader reader(dir, split);
  const ShardSetInfo &info = reader.manifest().info;
  Examples e;
  e.task = parseTask(info.task);
  e.classes = info.classes;
  e.classNames = info.classNames;
  e.featureNames = info.featureNames;
  e.targetDim = info.targetDim;
  e.count = limit > 0 ? std::min(limit, reader.size()) : reader.size();
  e.featureShape = info.featureShape;
  const int64_t size = e.featureSize();
  e.features.resize(static_cast<size_t>(size * e.count));
  // IDX's own conversion (idx_source.cpp), so a set packed from IDX files trains bit for bit alike.
  float scaled[256];
  for (int v = 0; v < 256; ++v) scaled[v] = static_cast<float>(v / 255.0);
  // One file position per shard; converted on `workers` threads, each example into its own slot.
  const int workers = decodeWorkers(o.workers);
  constexpr int64_t kChunk = 1024;
  std::vector<ShardExample> chunk;
  for (int64_t begin = 0; begin < e.count; begin += kChunk) {
    const int64_t end = std::min(e.count, begin + kChunk);
    chunk.clear();
    for (int64_t i = begin; i < end; ++i) chunk.push_back(reader.read(i));
    parallelFor(end - begin, workers, [&](int64_t k) {
      const int64_t i = begin + k;
      const ShardExample &example = chunk[static_cast<size_t>(k)];
      const std::string where = dir + ": " + split + " example " + std::to_string(i);
      float *out = e.features.data() + i * size;
      const std::string *npy = member(example, "npy");
      if (!npy) throw std::runtime_error(where + ": no .npy member");
      const NpyArray array = parseNpy(*npy, where + ".npy");
      if (array.shape != info.featureShape || array.elements() != size)
        throw std::runtime_error(where + ".npy: its shape is not the manifest's feature_shape");
      if (array.type == NpyType::Uint8 && info.dtype == "uint8") {
        for (int64_t j = 0; j < size; ++j) out[j] = scaled[static_cast<unsigned char>(array.data[static_cast<size_t>(j)])];
      } else if (array.type == NpyType::Float32 && info.dtype == "float32") {
        std::memcpy(out, array.data.data(), static_cast<size_t>(size) * sizeof(float));
      } else {
        throw std::runtime_error(where + ".npy: its dtype is not the manifest's " + info.dtype);
      }
    });
    for (int64_t i = begin; i < end; ++i) {
      const ShardExample &example = chunk[static_cast<size_t>(i - begin)];
      const std::string where = dir + ": " + split + " example " + std::to_string(i);
      if (e.task == Task::Classification) {
        if (example.label < 0 || example.label >= e.classes)
          throw std::runtime_error(where + ": class " + std::to_string(example.label) + " outside 0.." +
                                   std::to_string(e.classes - 1));
        e.labels.push_back(example.label);
        continue;
      }
      const std::string *target = member(example, "target.npy");
      if (!target) throw std::runtime_error(where + ": no .target.npy member");
      const NpyArray array = parseNpy(*target, where + ".target.npy");
      if (array.type != NpyType::Float32 || array.elements() != e.targetDim)
        throw std::runtime_error(where + ".target.npy: not " + std::to_string(e.targetDim) + " float32 targets");
      const size_t at = e.targets.size();
      e.targets.resize(at + static_cast<size_t>(e.targetDim));
      std::memcpy(e.targets.data() + at, array.data.data(), array.data.size());
    }
  }
  return e;
}

// Labels-only examples of store rows [first, first + count), limited to the first `limit`.
Examples storeLabels(const ExampleStore &store, const ShardSetInfo &info, int64_t first, int64_t count, int64_t limit) {
  Examples e;
  e.task = Task::Classification;
  e.classes = info.classes;
  e.classNames = info.classNames;
  e.featureShape = store.featureShape();
  e.count = limit > 0 ? std::min(limit, count) : count;
  e.labels.assign(store.labels().begin() + first, store.labels().begin() + first + e.count);
  return e;
}

// Image sets and uint8 array sets (packed IDX files) stream: the store reads each batch's examples
// through the index. Float arrays (CSV rows) are read whole below.
SourceData streamShardSource(const config::DataOptions &o, const ShardManifest &manifest) {
  ImageGeometryOptions geometry;
  geometry.width = geometry.height = o.imageSize;
  geometry.channels = o.channels;
  int64_t trainExamples = 0;
  std::shared_ptr<ExampleStore> store = openShardStore(o.path, geometry, static_cast<int>(o.workers), &trainExamples);
  const ShardSetInfo &info = manifest.info;
  SourceData read;
  read.examples = storeLabels(*store, info, 0, trainExamples, o.trainLimit);
  if (manifest.splits.count("test")) {
    read.hasOwnTest = true;
    read.ownTestFirstRow = trainExamples;
    read.ownTest = storeLabels(*store, info, trainExamples, store->count() - trainExamples, o.testLimit);
  }
  read.store = std::move(store);
  return read;
}

// What both paths record: whether the examples are images, how the set splits, how it is read.
void finishShardSource(SourceData &read, const ShardManifest &manifest, bool streamed) {
  const ShardSetInfo &info = manifest.info;
  read.images = info.kind == "image" || (info.dtype == "uint8" && info.featureShape.size() == 3);
  // A set packed from IDX files splits as the IDX source does: same seed, same validation set.
  if (info.sourceKind == "idx") read.splitStream = kIdxSplitStream;
  read.scaleColumns = info.scaleColumns;
  read.reading.push_back("packed shard set from " + info.source + " (" + info.sourceKind + "), " +
                         (streamed ? "streamed through its index; every shard's size and index checked, its checksum "
                                     "verified before or while training"
                                   : "read whole; every shard's checksum verified"));
}

}  // namespace

SourceData readShardSource(const config::DataOptions &o, int64_t seed) {
  if (o.path.empty()) throw std::runtime_error("data.path: give the folder `torchwright pack` wrote (with manifest.json)");
  const ShardManifest manifest = readShardManifest(o.path);
  const bool streamed = manifest.info.task == "classification" &&
                        (manifest.info.kind == "image" || manifest.info.dtype == "uint8");
  if (streamed) {
    SourceData read = streamShardSource(o, manifest);
    finishShardSource(read, manifest, /*streamed=*/true);
    return read;
  }
  Fingerprint fp;
  for (const auto &[name, split] : manifest.splits)
    for (const ShardInfo &shard : split.shards) {
      verifyShard(o.path, shard);
      fp.addOption(name + "/" + shard.file, shard.sha256);
    }
  if (!manifest.splits.count("train")) throw std::runtime_error(o.path + "/manifest.json: the set has no train split");
  SourceData read;
  read.examples = readSplit(o.path, "train", o.trainLimit, o);
  if (manifest.splits.count("test")) {
    read.ownTest = readSplit(o.path, "test", o.testLimit, o);
    read.hasOwnTest = true;
  }
  finishShardSource(read, manifest, /*streamed=*/false);
  fp.addOption("train_limit", o.trainLimit);
  fp.addOption("test_limit", o.testLimit);
  fp.addOption("val_fraction", o.valFraction);
  fp.addOption("test_fraction", o.testFraction);
  fp.addOption("image_size", o.imageSize);
  fp.addOption("channels", o.channels);
  fp.addOption("normalize", std::string(o.normalize ? "true" : "false"));
  fp.addOption("stratify", std::string(o.stratify ? "true" : "false"));
  fp.addOption("split_seed", seed);
  read.fingerprint = fp.hexDigest();
  return read;
}

}  // namespace tw::data
