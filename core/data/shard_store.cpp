// A packed shard set as an ExampleStore (example_store.h): the manifest, the sidecar indices and
// each example's class read at opening; an example's members read with one pread through its
// index entry and decoded (image sets) or copied (uint8 array sets) when a batch asks for it.

#include "core/config/sha256.h"
#include "core/data/example_store.h"
#include "core/data/image_codec.h"
#include "core/data/npy.h"
#include "core/data/parallel_for.h"
#include "core/data/shard_set.h"
#include "core/data/tar_archive.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace tw::data {

namespace {

namespace fs = std::filesystem;

struct Shard {
  std::string path;
  uint64_t bytes = 0;
  int64_t first = 0;               // the store row of its first example
  std::vector<uint64_t> offsets;   // header offset of each example (the .idx)
  const ShardInfo *info = nullptr;
};

// `length` bytes at `offset` of the open `fd` (`path` in messages); a short read is a truncated shard.
void readRange(int fd, const std::string &path, uint64_t offset, uint64_t length, std::vector<unsigned char> &out) {
  out.resize(static_cast<size_t>(length));
  size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::pread(fd, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error(path + ": truncated at byte " + std::to_string(offset + done));
    done += static_cast<size_t>(n);
  }
}

int openShard(const std::string &path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(path + ": cannot open (" + std::strerror(errno) + ")");
  return fd;
}

// Shards stay open once read, up to this many (a process's descriptors are limited); reads of the
// others open and close their shard each time.
constexpr int kKeptOpen = 256;

// Per shard, its open descriptor or -1; closed when the store goes, or when opening fails half-way.
struct KeptDescriptors {
  std::unique_ptr<std::atomic<int>[]> fds;
  size_t count = 0;
  void reset(size_t n) {
    fds = std::make_unique<std::atomic<int>[]>(n);
    count = n;
    for (size_t i = 0; i < n; ++i) fds[i].store(-1);
  }
  std::atomic<int> &operator[](size_t i) const { return fds[i]; }
  ~KeptDescriptors() {
    for (size_t i = 0; i < count; ++i)
      if (fds[i].load() >= 0) ::close(fds[i].load());
  }
};

bool isImageExtension(const std::string &ext) { return ext == "jpg" || ext == "png" || ext == "bmp"; }

// The members of the example whose bytes are in `block` (from its first header on).
struct Members {
  const unsigned char *image = nullptr, *npy = nullptr, *cls = nullptr;
  uint64_t imageSize = 0, npySize = 0, clsSize = 0;
};

Members parseMembers(const std::vector<unsigned char> &block, const std::string &path, uint64_t at) {
  Members m;
  std::string key;
  uint64_t pos = 0;
  while (pos + kTarBlock <= block.size()) {
    const unsigned char *header = block.data() + pos;
    if (std::all_of(header, header + kTarBlock, [](unsigned char c) { return c == 0; })) break;
    const TarMember member = parseTarHeader(header, path, at + pos);
    const std::string memberKeyText = memberKey(member.name);
    if (key.empty()) key = memberKeyText;
    else if (memberKeyText != key) break;
    if (pos + kTarBlock + member.size > block.size())
      throw std::runtime_error(path + ": truncated inside '" + member.name + "'");
    const unsigned char *data = header + kTarBlock;
    const std::string ext = memberExtension(member.name);
    if (isImageExtension(ext)) m.image = data, m.imageSize = member.size;
    else if (ext == "npy") m.npy = data, m.npySize = member.size;
    else if (ext == "cls") m.cls = data, m.clsSize = member.size;
    pos += kTarBlock + tarPadded(member.size);
  }
  return m;
}

int64_t parseClass(const Members &m, const std::string &where) {
  if (!m.cls) throw std::runtime_error(where + ": no .cls member (its class)");
  const std::string text(reinterpret_cast<const char *>(m.cls), static_cast<size_t>(m.clsSize));
  try {
    size_t used = 0;
    const long long value = std::stoll(text, &used);
    return value;
  } catch (const std::exception &) {
    throw std::runtime_error(where + ": '" + text + "' is not a class number");
  }
}

class ShardStore : public ExampleStore {
 public:
  ShardStore(const std::string &dir, const ImageGeometryOptions &options, int workers, uint64_t verifyNowBytes)
      : m_dir(dir), m_manifest(readShardManifest(dir)) {
    const ShardSetInfo &info = m_manifest.info;
    m_image = info.kind == "image";
    if (!m_image && info.dtype != "uint8")
      throw std::runtime_error(dir + ": a " + info.dtype + " array set is read whole, not streamed");
    if (!m_manifest.splits.count("train")) throw std::runtime_error(dir + "/manifest.json: the set has no train split");
    m_classNames = info.classNames;
    uint64_t total = 0;
    for (const char *split : {"train", "test"}) {
      auto found = m_manifest.splits.find(split);
      if (found == m_manifest.splits.end()) continue;
      if (std::string(split) == "train") m_trainExamples = found->second.examples;
      for (const ShardInfo &s : found->second.shards) {
        Shard shard;
        shard.path = (fs::path(dir) / s.file).string();
        shard.bytes = s.bytes;
        shard.first = static_cast<int64_t>(m_rowsSoFar);
        shard.info = &s;
        std::error_code ec;
        const auto size = fs::file_size(shard.path, ec);
        if (ec) throw std::runtime_error(shard.path + ": missing (listed in the manifest)");
        if (size != s.bytes)
          throw std::runtime_error(shard.path + ": " + std::to_string(size) + " bytes, the manifest says " +
                                   std::to_string(s.bytes) + (size < s.bytes ? " (truncated)" : " (changed)"));
        shard.offsets = readShardIndex((fs::path(dir) / s.index).string(), s.examples);
        m_rowsSoFar += static_cast<uint64_t>(s.examples);
        total += s.bytes;
        m_shards.push_back(std::move(shard));
      }
    }
    const int64_t n = static_cast<int64_t>(m_rowsSoFar);
    m_fds.reset(m_shards.size());
    m_labels.assign(static_cast<size_t>(n), 0);
    const int threads = decodeWorkers(workers);
    // Each example's class from its .cls member: a header or two per example, never the images.
    parallelFor(n, threads, [&](int64_t i) { m_labels[static_cast<size_t>(i)] = scanClass(i); });
    for (int64_t i = 0; i < n; ++i)
      if (m_labels[static_cast<size_t>(i)] < 0 || m_labels[static_cast<size_t>(i)] >= static_cast<int64_t>(m_classNames.size()))
        throw std::runtime_error(where(i) + ": class " + std::to_string(m_labels[static_cast<size_t>(i)]) + " outside 0.." +
                                 std::to_string(static_cast<int64_t>(m_classNames.size()) - 1));

    if (m_image) {
      const int64_t sample = std::min<int64_t>(m_trainExamples, kHeaderSample);
      std::vector<ImageHeader> headers(static_cast<size_t>(sample));
      parallelFor(sample, threads, [&](int64_t k) {
        const int64_t i = sample == m_trainExamples ? k : k * m_trainExamples / sample;
        std::vector<unsigned char> block;
        const Members m = readMembers(i, block);
        if (!m.image) throw std::runtime_error(where(i) + ": no image member (.jpg, .png or .bmp)");
        if (!readImageHeader(m.image, m.imageSize, &headers[static_cast<size_t>(k)]))
          throw std::runtime_error(where(i) + ": cannot decode its image header");
      });
      const bool colour = std::any_of(headers.begin(), headers.end(), [](const ImageHeader &h) { return h.components >= 3; });
      const int64_t width = options.width > 0 ? options.width : headers.front().width;
      const int64_t height = options.height > 0 ? options.height : headers.front().height;
      m_shape = {options.channels > 0 ? options.channels : (colour ? 3 : 1), height, width};
    } else {
      m_shape = info.featureShape;
    }

    // Every shard's SHA-256 and index against its members: now when the set is small, else on a
    // thread of its own while training starts; a mismatch fails the next read, naming the shard.
    if (total <= verifyNowBytes) {
      for (const Shard &shard : m_shards) verifyShard(m_dir, *shard.info);
    } else {
      m_verifier = std::thread([this] {
        for (const Shard &shard : m_shards) {
          if (m_stop.load()) return;
          try {
            verifyShard(m_dir, *shard.info);
          } catch (const std::exception &e) {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_verifyError = e.what();
            m_failed.store(true);
            return;
          }
        }
      });
    }
  }

  ~ShardStore() override {
    m_stop.store(true);
    if (m_verifier.joinable()) m_verifier.join();
  }

  int64_t trainExamples() const { return m_trainExamples; }

  void read(int64_t i, uint8_t *out) const override {
    if (m_failed.load()) {
      std::lock_guard<std::mutex> lock(m_mutex);
      throw std::runtime_error(m_verifyError);
    }
    thread_local std::vector<unsigned char> block;
    const Members m = readMembers(i, block);
    m_bytesRead.fetch_add(block.size(), std::memory_order_relaxed);
    if (m_image) {
      if (!m.image) throw std::runtime_error(where(i) + ": no image member (.jpg, .png or .bmp)");
      decodeImage(m.image, m.imageSize, where(i), static_cast<int>(m_shape[0]), static_cast<int>(m_shape[2]),
                  static_cast<int>(m_shape[1]), out);
      return;
    }
    if (!m.npy) throw std::runtime_error(where(i) + ": no .npy member");
    const NpyArray array =
        parseNpy(std::string(reinterpret_cast<const char *>(m.npy), static_cast<size_t>(m.npySize)), where(i) + ".npy");
    if (array.type != NpyType::Uint8 || array.shape != m_shape)
      throw std::runtime_error(where(i) + ".npy: not the manifest's uint8 feature_shape");
    std::memcpy(out, array.data.data(), array.data.size());
  }

  std::string where(int64_t i) const override {
    const Shard &s = shardOf(i);
    return s.path + " example " + std::to_string(i - s.first);
  }

  bool encoded() const override { return m_image; }

  std::vector<int64_t> groupStarts() const override {
    std::vector<int64_t> starts;
    for (const Shard &shard : m_shards) starts.push_back(shard.first);
    return starts;
  }

  void addToFingerprint(Fingerprint &fp) const override {
    fp.addOption("store", std::string("shards"));
    for (const Shard &shard : m_shards) fp.addOption(shard.info->file, shard.info->sha256);
    fp.addOption("shape", std::to_string(m_shape[0]) + "x" + std::to_string(m_shape[1]) + "x" + std::to_string(m_shape[2]));
  }

 private:
  const Shard &shardOf(int64_t i) const {
    if (i < 0 || i >= count()) throw std::out_of_range(m_dir + ": example " + std::to_string(i) + " outside the set");
    const auto it = std::upper_bound(m_shards.begin(), m_shards.end(), i,
                                     [](int64_t row, const Shard &s) { return row < s.first; });
    return *(it - 1);
  }

  // Reads `length` bytes at `offset` of shard `s`, through its kept descriptor when it has one.
  void readShard(const Shard &s, uint64_t offset, uint64_t length, std::vector<unsigned char> &out) const {
    const size_t index = static_cast<size_t>(&s - m_shards.data());
    int fd = m_fds[index].load(std::memory_order_acquire);
    if (fd < 0 && m_keptOpen.load() < kKeptOpen) {
      const int opened = openShard(s.path);
      int expected = -1;
      if (m_fds[index].compare_exchange_strong(expected, opened)) {
        m_keptOpen.fetch_add(1);
        fd = opened;
      } else {
        ::close(opened);  // another thread kept its own first
        fd = expected;
      }
    }
    if (fd >= 0) return readRange(fd, s.path, offset, length, out);
    const int once = openShard(s.path);
    try {
      readRange(once, s.path, offset, length, out);
    } catch (...) {
      ::close(once);
      throw;
    }
    ::close(once);
  }

  // Example i's members: from its header to the next example's (or the shard's end).
  Members readMembers(int64_t i, std::vector<unsigned char> &block) const {
    const Shard &s = shardOf(i);
    const size_t local = static_cast<size_t>(i - s.first);
    const uint64_t at = s.offsets[local];
    const uint64_t end = local + 1 < s.offsets.size() ? s.offsets[local + 1] : s.bytes;
    if (at >= end || end > s.bytes) throw std::runtime_error(s.path + ": stale index: entry " + std::to_string(local));
    readShard(s, at, end - at, block);
    return parseMembers(block, s.path, at);
  }

  // The class without reading the image: header by header to the .cls member.
  int64_t scanClass(int64_t i) const {
    const Shard &s = shardOf(i);
    const size_t local = static_cast<size_t>(i - s.first);
    const uint64_t end = local + 1 < s.offsets.size() ? s.offsets[local + 1] : s.bytes;
    std::vector<unsigned char> block;
    uint64_t at = s.offsets[local];
    while (at + kTarBlock <= end) {
      readShard(s, at, kTarBlock, block);
      const TarMember member = parseTarHeader(block.data(), s.path, at);
      if (memberExtension(member.name) == "cls") {
        readShard(s, member.dataOffset, member.size, block);
        Members m;
        m.cls = block.data();
        m.clsSize = member.size;
        return parseClass(m, where(i));
      }
      at = member.dataOffset + tarPadded(member.size);
    }
    throw std::runtime_error(where(i) + ": no .cls member (its class)");
  }

  std::string m_dir;
  ShardManifest m_manifest;
  bool m_image = false;
  std::vector<Shard> m_shards;
  uint64_t m_rowsSoFar = 0;
  int64_t m_trainExamples = 0;
  KeptDescriptors m_fds;  // per shard: its kept descriptor, or -1
  mutable std::atomic<int> m_keptOpen{0};
  std::thread m_verifier;
  std::atomic<bool> m_stop{false}, m_failed{false};
  mutable std::mutex m_mutex;
  std::string m_verifyError;
};

}  // namespace

std::shared_ptr<ExampleStore> openShardStore(const std::string &dir, const ImageGeometryOptions &options, int workers,
                                             int64_t *trainExamples, uint64_t verifyNowBytes) {
  auto store = std::make_shared<ShardStore>(dir, options, workers, verifyNowBytes);
  if (trainExamples) *trainExamples = store->trainExamples();
  return store;
}

}  // namespace tw::data
