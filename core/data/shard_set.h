#pragma once
// Packed shard sets: a dataset as POSIX tar shards in the WebDataset layout, which Python's
// `webdataset` and `tarfile` read too. One folder holds
//
//   manifest.json            what the set is: kind, task, classes, shapes, counts, every shard's
//                            size and SHA-256, and how it was made
//   train-000000.tar ...     examples in order; each one key ("000000042") with its members:
//                              000000042.jpg|.png|.bmp  an image file's bytes, as they were (image sets)
//                              000000042.npy            the features as a NumPy array (array sets)
//                              000000042.cls            the class index as decimal text
//                              000000042.target.npy     regression targets, float32
//                              000000042.json           where the example came from
//   train-000000.idx         the sidecar index: one little-endian uint64 per example, the offset
//                            of its first member's header (numpy.fromfile(path, "<u8"))
//
// Splits ("train", and "test" when the source has its own, as IDX sets do) are shard sequences of
// their own. A shard closes once it reaches the size target, so shards hold whole examples.
//
//   ShardSetWriter out("fashion-shards", info, {.targetBytes = 64 << 20});
//   out.add("train", example);  ...
//   ShardManifest m = out.finish();   // writes manifest.json last; until then the folder is partial

#include "core/data/tar_archive.h"

#include <cstdint>
#include <memory>
#include <map>
#include <string>
#include <vector>

namespace tw::data {

inline constexpr int kShardFormatVersion = 1;
inline constexpr const char *kShardManifestName = "manifest.json";

struct ShardInfo {
  std::string file;   // "train-000000.tar", relative to the set's folder
  std::string index;  // "train-000000.idx"
  int64_t examples = 0;
  uint64_t bytes = 0;
  std::string sha256;
};

struct ShardSplit {
  int64_t examples = 0;
  std::vector<int64_t> classCounts;  // classification: examples per class
  std::vector<ShardInfo> shards;
};

// What every example of the set shares, known before packing starts.
struct ShardSetInfo {
  std::string kind;                   // "image": encoded image files; "array": .npy features
  std::string task = "classification";  // or "regression"
  std::vector<std::string> classNames;  // classification; their count is the class count
  int64_t classes = 0;
  std::vector<int64_t> featureShape;  // array sets: per example
  std::string dtype;                  // array sets: "uint8" or "float32"
  int64_t targetDim = 0;              // regression
  std::vector<std::string> featureNames;  // CSV: one per feature column
  std::vector<bool> scaleColumns;     // CSV: which features standardise (not the one-hot ones)
  std::string source;                 // what was packed (a folder, a file, a dataset name)
  std::string sourceKind;             // "image-folder", "idx", "csv"
};

struct ShardManifest {
  int version = kShardFormatVersion;
  ShardSetInfo info;
  std::map<std::string, ShardSplit> splits;  // "train", "test"
  std::string createdBy;                     // "torchwright 0.1.0"
};

// One example as stored: its members' extensions and bytes ("jpg", "cls", "json", "npy").
struct ShardExample {
  std::vector<std::pair<std::string, std::string>> members;
  int64_t label = -1;  // classification: counted into the split's class counts
};

struct ShardWriterOptions {
  uint64_t targetBytes = 64ull << 20;  // a shard closes once it holds at least this many bytes
  std::string createdBy;
};

class ShardSetWriter {
 public:
  // Creates `dir` (which must not hold a manifest or shards already: a set is never mixed into
  // another) and writes shards into it. Throws std::runtime_error naming the folder.
  ShardSetWriter(const std::string &dir, ShardSetInfo info, ShardWriterOptions options);
  // Without finish() (an error, a full disk, Ctrl-C) the partial output is removed.
  ~ShardSetWriter();
  ShardSetWriter(const ShardSetWriter &) = delete;
  ShardSetWriter &operator=(const ShardSetWriter &) = delete;

  // Appends the next example of `split`; throws std::runtime_error naming the shard on a failed
  // write (a full disk).
  void add(const std::string &split, const ShardExample &example);
  // Closes the open shards, writes their indices and then manifest.json (through a temporary file
  // renamed into place). Returns what it wrote.
  ShardManifest finish();
  // The bytes written so far, for progress.
  uint64_t bytesWritten() const;

 private:
  struct Open;
  void closeShard(const std::string &split);
  void removeOutput();

  std::string m_dir;
  ShardWriterOptions m_options;
  ShardManifest m_manifest;
  std::map<std::string, std::unique_ptr<Open>> m_open;
  std::vector<std::string> m_written;  // every file created, to remove when not finished
  uint64_t m_closedBytes = 0;
  bool m_finished = false;
};

// manifest.json as JSON text, and back. readShardManifest throws std::runtime_error naming the
// file and the field (missing, wrong type, a count that disagrees with the shards').
std::string manifestJson(const ShardManifest &manifest);
ShardManifest readShardManifest(const std::string &dir);

// Checks a shard's size and SHA-256 against the manifest and its index against its members;
// throws std::runtime_error naming the file and what differs (a truncated or changed shard, a
// missing or stale index).
void verifyShard(const std::string &dir, const ShardInfo &shard);

// A shard's sidecar index: `examples` header offsets. Throws naming the file when it is missing or
// has another number of entries (stale).
std::vector<uint64_t> readShardIndex(const std::string &path, int64_t examples);

// Random access to one split of a set, through the sidecar indices.
class ShardReader {
 public:
  ShardReader(const std::string &dir, const std::string &split);
  ~ShardReader();
  const ShardManifest &manifest() const { return m_manifest; }
  int64_t size() const { return m_split.examples; }
  // Example `i` of the split (0-based, the order it was packed in). Throws naming the shard.
  ShardExample read(int64_t i);

 private:
  std::string m_dir;
  ShardManifest m_manifest;
  ShardSplit m_split;
  std::vector<int64_t> m_firstExample;        // per shard: its first example's number
  std::vector<std::vector<uint64_t>> m_index;  // per shard: header offsets
  std::vector<std::FILE *> m_files;
};

// The member extension of a key's file name: "000000042.target.npy" -> "target.npy" (WebDataset
// splits at the first dot of the base name).
std::string memberExtension(const std::string &name);
std::string memberKey(const std::string &name);

}  // namespace tw::data
