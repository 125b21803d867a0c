// Packed shard sets as a data source (readShardSource in data_sources.h): read whole into
// Examples, the in-memory path every source takes today.

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

bool isImageExtension(const std::string &ext) { return ext == "jpg" || ext == "png" || ext == "bmp"; }

const std::string &imageBytes(const ShardExample &example, const std::string &where) {
  for (const auto &m : example.members)
    if (isImageExtension(m.first)) return m.second;
  throw std::runtime_error(where + ": no image member (.jpg, .png or .bmp)");
}

struct ImageGeometry {
  int channels = 0, width = 0, height = 0;
};

// readImageFolder's rule: the size asked for or the first image's; channels asked for, or RGB
// when any image has colour.
ImageGeometry imageGeometry(ShardReader &reader, const config::DataOptions &o, int64_t count) {
  ImageGeometry g;
  bool colour = false;
  for (int64_t i = 0; i < count; ++i) {
    const std::string where = o.path + " example " + std::to_string(i);
    const ShardExample example = reader.read(i);
    const std::string &bytes = imageBytes(example, where);
    ImageHeader header;
    if (!readImageHeader(reinterpret_cast<const unsigned char *>(bytes.data()), bytes.size(), &header))
      throw std::runtime_error(where + ": cannot decode its image header");
    if (i == 0) {
      g.width = header.width;
      g.height = header.height;
    }
    colour = colour || header.components >= 3;
  }
  if (o.imageSize > 0) g.width = g.height = static_cast<int>(o.imageSize);
  g.channels = o.channels > 0 ? static_cast<int>(o.channels) : (colour ? 3 : 1);
  return g;
}

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
  ImageGeometry geometry;
  if (info.kind == "image") {
    geometry = imageGeometry(reader, o, e.count);
    e.featureShape = {geometry.channels, geometry.height, geometry.width};
  } else {
    e.featureShape = info.featureShape;
  }
  const int64_t size = e.featureSize();
  e.features.resize(static_cast<size_t>(size * e.count));
  // IDX's own conversion (idx_source.cpp), so a set packed from IDX files trains bit for bit alike.
  float scaled[256];
  for (int v = 0; v < 256; ++v) scaled[v] = static_cast<float>(v / 255.0);
  // Read in order a chunk at a time (one file position per shard), decoded on `workers` threads,
  // each example into its own slot.
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
      if (info.kind == "image") {
        decodeImage(imageBytes(example, where), where, geometry.channels, geometry.width, geometry.height, out);
        return;
      }
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

}  // namespace

SourceData readShardSource(const config::DataOptions &o, int64_t seed) {
  if (o.path.empty()) throw std::runtime_error("data.path: give the folder `torchwright pack` wrote (with manifest.json)");
  const ShardManifest manifest = readShardManifest(o.path);
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
  const ShardSetInfo &info = manifest.info;
  read.images = info.kind == "image" || (info.dtype == "uint8" && info.featureShape.size() == 3);
  // A set packed from IDX files splits as the IDX source does: same seed, same validation set.
  if (info.sourceKind == "idx") read.splitStream = kIdxSplitStream;
  read.scaleColumns = info.scaleColumns;
  read.notes.push_back("packed shard set from " + info.source + " (" + info.sourceKind + "), every shard's checksum verified");
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
