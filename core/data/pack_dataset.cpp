#include "core/data/pack_dataset.h"

#include "core/data/data_sources.h"
#include "core/data/example_store.h"
#include "core/data/parallel_for.h"
#include "core/data/idx.h"
#include "core/data/image_folder.h"
#include "core/data/json_text.h"
#include "core/data/npy.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace tw::data {

namespace fs = std::filesystem;

namespace {

std::string readFileBytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot read");
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::string lowerExtension(const std::string &path) {
  std::string ext = fs::path(path).extension().string();
  if (!ext.empty()) ext.erase(0, 1);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext == "jpeg" ? "jpg" : ext;
}

ShardManifest packImageFolder(const config::DataOptions &data, const PackOptions &options, const std::string &out) {
  if (data.path.empty()) throw std::runtime_error("data.path: give the folder with one subfolder per class");
  const ImageFolderListing listing = listImageFolder(data.path);
  ShardSetInfo info;
  info.kind = "image";
  info.classNames = listing.classNames;
  info.classes = static_cast<int64_t>(listing.classNames.size());
  info.source = data.path;
  info.sourceKind = "image-folder";
  ShardSetWriter writer(out, info, {options.targetBytes, options.createdBy});
  const int64_t total = static_cast<int64_t>(listing.files.size());
  for (int64_t i = 0; i < total; ++i) {
    const ImageFile &file = listing.files[static_cast<size_t>(i)];
    ShardExample example;
    example.label = file.label;
    example.members.emplace_back(lowerExtension(file.path), readFileBytes(file.path));
    example.members.emplace_back("cls", std::to_string(file.label));
    const std::string relative = fs::relative(file.path, data.path).generic_string();
    example.members.emplace_back("json", "{\"source\": " + jsonString(relative) + "}");
    writer.add("train", example);
    if (options.progress) options.progress(i + 1, total);
  }
  return writer.finish();
}

// The folder's images as its streamed reader decodes them (example_store.h), in chunks decoded on
// data.workers threads, written in the folder's order as uint8 arrays.
ShardManifest packDecodedImageFolder(const config::DataOptions &data, const PackOptions &options,
                                     const std::string &out) {
  if (data.path.empty()) throw std::runtime_error("data.path: give the folder with one subfolder per class");
  ImageGeometryOptions geometry;
  geometry.width = geometry.height = data.imageSize;
  geometry.channels = data.channels;
  const int workers = static_cast<int>(data.workers);
  const std::shared_ptr<ExampleStore> store = openImageFolderStore(data.path, geometry, workers);
  ShardSetInfo info;
  info.kind = "array";
  info.dtype = "uint8";
  info.classNames = store->classNames();
  info.classes = static_cast<int64_t>(info.classNames.size());
  info.featureShape = store->featureShape();
  info.source = data.path;
  info.sourceKind = "image-folder";
  ShardSetWriter writer(out, info, {options.targetBytes, options.createdBy});
  const int64_t total = store->count(), size = store->exampleBytes();
  constexpr int64_t kChunk = 256;
  std::vector<uint8_t> pixels;
  for (int64_t begin = 0; begin < total; begin += kChunk) {
    const int64_t n = std::min(kChunk, total - begin);
    pixels.resize(static_cast<size_t>(n * size));
    parallelFor(n, decodeWorkers(workers), [&](int64_t k) { store->read(begin + k, pixels.data() + k * size); });
    for (int64_t k = 0; k < n; ++k) {
      const int64_t i = begin + k;
      ShardExample example;
      example.label = store->labels()[static_cast<size_t>(i)];
      example.members.emplace_back("npy", npyBytes(NpyType::Uint8, info.featureShape, pixels.data() + k * size, size));
      example.members.emplace_back("cls", std::to_string(example.label));
      const std::string relative = fs::relative(store->where(i), data.path).generic_string();
      example.members.emplace_back("json", "{\"source\": " + jsonString(relative) + "}");
      writer.add("train", example);
      if (options.progress) options.progress(i + 1, total);
    }
  }
  return writer.finish();
}

ShardManifest packIdx(const config::DataOptions &data, const PackOptions &options, const std::string &out) {
  const std::string dir = data.path.empty() ? defaultDatasetDir(data.dataset) : data.path;
  struct Part {
    const char *split, *prefix;
    IdxImages images;
    IdxLabels labels;
    std::string imagesPath;
  };
  std::vector<Part> parts{{"train", "train", {}, {}, {}}, {"test", "t10k", {}, {}, {}}};
  const int64_t limits[2] = {data.trainLimit, data.testLimit};
  int64_t total = 0;
  for (Part &part : parts) {
    const int64_t limit = limits[&part - parts.data()];
    part.imagesPath = findIdxFile(dir, std::string(part.prefix) + "-images-idx3-ubyte");
    const std::string labelsPath = findIdxFile(dir, std::string(part.prefix) + "-labels-idx1-ubyte");
    if (part.imagesPath.empty() || labelsPath.empty())
      throw std::runtime_error(dir + ": no " + part.prefix + "-images-idx3-ubyte and " + part.prefix +
                               "-labels-idx1-ubyte (or .gz)");
    part.images = readIdxImages(part.imagesPath, limit);
    part.labels = readIdxLabels(labelsPath, limit, kIdxClasses);
    if (part.images.count != part.labels.count)
      throw std::runtime_error(dir + ": " + std::to_string(part.images.count) + " images but " +
                               std::to_string(part.labels.count) + " labels in the " + part.split + " files");
    total += part.images.count;
  }
  ShardSetInfo info;
  info.kind = "array";
  info.dtype = "uint8";
  info.classes = kIdxClasses;
  info.classNames = data.dataset == "fashion-mnist" ? fashionMnistClassNames() : std::vector<std::string>();
  info.featureShape = {1, parts[0].images.rows, parts[0].images.cols};
  info.source = dir;
  info.sourceKind = "idx";
  ShardSetWriter writer(out, info, {options.targetBytes, options.createdBy});
  int64_t done = 0;
  for (const Part &part : parts) {
    const int64_t pixels = part.images.rows * part.images.cols;
    const std::string file = fs::path(part.imagesPath).filename().string();
    for (int64_t i = 0; i < part.images.count; ++i) {
      ShardExample example;
      example.label = part.labels.labels[static_cast<size_t>(i)];
      example.members.emplace_back("npy", npyBytes(NpyType::Uint8, info.featureShape,
                                                   part.images.pixels.data() + i * pixels, pixels));
      example.members.emplace_back("cls", std::to_string(example.label));
      example.members.emplace_back("json", "{\"source\": " + jsonString(file) + ", \"index\": " + std::to_string(i) + "}");
      writer.add(part.split, example);
      if (options.progress) options.progress(++done, total);
    }
  }
  return writer.finish();
}

ShardManifest packCsv(const config::DataOptions &data, const PackOptions &options, const std::string &out) {
  SourceData read = readSource(data, 0);
  const Examples &e = read.examples;
  ShardSetInfo info;
  info.kind = "array";
  info.dtype = "float32";
  info.task = taskName(e.task);
  info.classes = e.task == Task::Classification ? e.classes : 0;
  info.classNames = e.classNames;
  info.featureShape = e.featureShape;
  info.targetDim = e.targetDim;
  info.featureNames = e.featureNames;
  info.scaleColumns = read.scaleColumns;
  info.source = data.path;
  info.sourceKind = "csv";
  ShardSetWriter writer(out, info, {options.targetBytes, options.createdBy});
  const int64_t size = e.featureSize();
  // A table too large for memory (csv_rows.h) is packed a chunk of rows at a time.
  constexpr int64_t kChunk = 4096;
  std::vector<float> chunk;
  std::vector<int64_t> chunkRows;
  for (int64_t i = 0; i < e.count; ++i) {
    const float *features = nullptr;
    if (read.tableRows) {
      if (i % kChunk == 0) {
        chunkRows.resize(static_cast<size_t>(std::min(kChunk, e.count - i)));
        for (size_t k = 0; k < chunkRows.size(); ++k) chunkRows[k] = i + static_cast<int64_t>(k);
        chunk.resize(chunkRows.size() * static_cast<size_t>(size));
        read.tableRows->read(chunkRows.data(), static_cast<int64_t>(chunkRows.size()), chunk.data(),
                             static_cast<int>(data.workers));
      }
      features = chunk.data() + (i % kChunk) * size;
    } else {
      features = e.features.data() + i * size;
    }
    ShardExample example;
    example.members.emplace_back("npy", npyBytes(NpyType::Float32, e.featureShape, features, size));
    if (e.task == Task::Classification) {
      example.label = e.labels[static_cast<size_t>(i)];
      example.members.emplace_back("cls", std::to_string(example.label));
    } else {
      example.members.emplace_back("target.npy", npyBytes(NpyType::Float32, {e.targetDim},
                                                          e.targets.data() + i * e.targetDim, e.targetDim));
    }
    example.members.emplace_back("json", "{\"row\": " + std::to_string(i) + "}");
    writer.add("train", example);
    if (options.progress) options.progress(i + 1, e.count);
  }
  return writer.finish();
}

}  // namespace

config::DataOptions packSource(const std::string &src, const std::vector<std::string> &overrides) {
  const auto endsWith = [&](const std::string &tail) {
    return src.size() >= tail.size() && src.compare(src.size() - tail.size(), tail.size(), tail) == 0;
  };
  if (endsWith(".yaml") || endsWith(".yml")) return config::loadRunConfig(src, overrides, false).data;
  std::error_code ec;
  std::string dataset;
  if (!std::filesystem::exists(src, ec)) {
    if (src == "fashion-mnist" || src == "mnist") dataset = src;
    else throw std::runtime_error(src + ": no such file or folder (give an image folder, an IDX folder, a CSV file, "
                                  "a run file, or fashion-mnist / mnist)");
  } else if (std::filesystem::is_directory(src, ec)) {
    dataset = findIdxFile(src, "train-images-idx3-ubyte").empty() ? "image-folder" : "mnist";
  } else {
    dataset = "csv";
  }
  std::string yaml = "data:\n  dataset: " + jsonString(dataset) + "\n";
  if (dataset != src) yaml += "  path: " + jsonString(src) + "\n";
  return config::parseRunConfig(yaml, "pack " + src, overrides, false).data;
}

ShardManifest packDataset(const config::DataOptions &data, const std::string &outDir, const PackOptions &options) {
  if (data.dataset == "fashion-mnist" || data.dataset == "mnist") return packIdx(data, options, outDir);
  if (data.dataset == "image-folder")
    return options.decoded ? packDecodedImageFolder(data, options, outDir) : packImageFolder(data, options, outDir);
  if (data.dataset == "csv") return packCsv(data, options, outDir);
  throw std::runtime_error("data.dataset: " + data.dataset +
                           " is generated from the run's seed; there is nothing to pack (pack an image folder, "
                           "an IDX folder or a CSV file)");
}

}  // namespace tw::data
