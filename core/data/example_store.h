#pragma once
// Examples read on demand, never held decoded as a whole: the streaming half of the data layer.
// An image folder or a packed image shard set opens as a store (its listing, labels and geometry
// only); the engine reads the examples of each batch as uint8 planes on the decode threads and
// turns them into floats only when the batch is assembled. Memory is the listing plus the batches
// in flight plus the cache (example_cache.h), whatever the number of examples.
//
//   std::shared_ptr<ExampleStore> store = openImageFolderStore("photos", geometry);
//   std::vector<uint8_t> pixels(store->exampleBytes());
//   store->read(42, pixels.data());   // decoded, resized to the store's shape, CHW
//
// Torch-free: core/data's interface, tensors only in the engine.

#include "core/data/examples.h"
#include "core/data/fingerprint.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tw::data {

class ExampleStore {
 public:
  virtual ~ExampleStore() = default;

  int64_t count() const { return static_cast<int64_t>(m_labels.size()); }
  const std::vector<int64_t> &featureShape() const { return m_shape; }  // {C, H, W}
  int64_t exampleBytes() const;                                          // C * H * W
  const std::vector<int64_t> &labels() const { return m_labels; }       // a class index per example
  const std::vector<std::string> &classNames() const { return m_classNames; }

  // Example `i` as exampleBytes() uint8 values (CHW) into `out`. Safe to call from several threads
  // at once. Throws std::runtime_error naming the file (a corrupt or truncated image, a file
  // changed or gone since the store was opened).
  virtual void read(int64_t i, uint8_t *out) const = 0;
  // What to call example `i` in a message: its file, or its shard and key.
  virtual std::string where(int64_t i) const = 0;
  // Encoded bytes read from disk so far, by every thread.
  uint64_t bytesRead() const { return m_bytesRead.load(std::memory_order_relaxed); }
  // Whether reading an example decodes it (images) rather than copying stored pixels (uint8
  // arrays): decoding is what a statistics sample saves (standardize.h's statisticsRows).
  virtual bool encoded() const { return true; }
  // Whether the examples are already in memory (a pixel store): a cache would only copy them.
  virtual bool inMemory() const { return false; }
  // Where each stretch of examples that is read fastest front to back begins (a shard set's
  // shards), as rows in ascending order; empty when there are none (a folder).
  virtual std::vector<int64_t> groupStarts() const { return {}; }
  // What identifies the stored data without reading it: every file's name, size and modification
  // time (folders) or every shard's checksum (shard sets).
  virtual void addToFingerprint(Fingerprint &fp) const = 0;

 protected:
  std::vector<int64_t> m_shape;
  std::vector<int64_t> m_labels;
  std::vector<std::string> m_classNames;
  mutable std::atomic<uint64_t> m_bytesRead{0};
};

// How images become examples: the size asked for (0 = the first image's) and the channels (0 =
// RGB when any of the images whose headers are read has colour, else gray).
struct ImageGeometryOptions {
  int64_t width = 0, height = 0, channels = 0;
  int64_t limitPerClass = 0;  // image folders: the first N images of each class (sorted order)
  // Image folders: take every file's size and time at opening (one stat each, on the decode
  // threads), so a file changed later is named rather than read. A preview leaves it off.
  bool stampFiles = true;
};

// How many headers the automatic channel choice reads: every image up to this many, else this
// many spread evenly over the listing (a million-image folder opens in well under a second).
inline constexpr int64_t kHeaderSample = 1024;

// An image folder (image_folder.h's layout and order) as a store. Throws std::runtime_error naming
// the folder or file: missing, no class folders, a class folder without images, an unreadable header.
std::shared_ptr<ExampleStore> openImageFolderStore(const std::string &dir, const ImageGeometryOptions &options,
                                                   int workers = 0);

// A packed shard set (shard_set.h) of images or of uint8 arrays (packed IDX files) as a store:
// its train split's examples first (*trainExamples of them), then its test split's when it has
// one. Each example's class is read at opening from its .cls member (headers only). Shard sizes and
// indices are checked at opening; every shard's SHA-256 and index-against-members too when the
// set's shards total at most `verifyNowBytes`, else on a background thread while training starts,
// and a mismatch fails the next read naming the shard. A float32 array set (a CSV) is refused: it
// is read whole (data_sources.h).
inline constexpr uint64_t kVerifyNowBytes = 256ull << 20;
std::shared_ptr<ExampleStore> openShardStore(const std::string &dir, const ImageGeometryOptions &options, int workers,
                                             int64_t *trainExamples, uint64_t verifyNowBytes = kVerifyNowBytes);

// Decoded examples held in memory as 8-bit pixels, part after part (the IDX files' train images,
// then their test images): each part's pixels (examples x C*H*W, CHW) and labels, and what to call
// it in messages. Throws std::logic_error when a part's pixels do not match its labels.
struct PixelPart {
  std::string source;
  std::vector<uint8_t> pixels;
  std::vector<int64_t> labels;
};
std::shared_ptr<ExampleStore> makePixelStore(std::vector<PixelPart> parts, std::vector<int64_t> shape,
                                             std::vector<std::string> classNames);

// 8-bit pixels read from files one example at a time (a plain IDX images file past
// data.memory_mb): each part's file, where its first example starts, and its examples' labels.
// Throws std::runtime_error naming a file that cannot be opened.
struct PixelFilePart {
  std::string path;
  uint64_t offset = 0;
  std::vector<int64_t> labels;
};
std::shared_ptr<ExampleStore> makePixelFileStore(std::vector<PixelFilePart> parts, std::vector<int64_t> shape,
                                                 std::vector<std::string> classNames);

// The examples at `rows`, decoded on `workers` threads into floats in [0, 1] (image_codec.h's
// kByteToUnit): the in-memory form of a store's examples, for previews and for tools that want
// them all. The same floats whatever the number of workers.
Examples readStore(const ExampleStore &store, const std::vector<int64_t> &rows, int workers = 0);

}  // namespace tw::data
