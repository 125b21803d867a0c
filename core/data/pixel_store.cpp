// Examples already decoded as 8-bit pixels (example_store.h's makePixelStore and
// makePixelFileStore): the IDX files' images when their floats would pass data.memory_mb, held
// in memory (a quarter of the floats') or, from plain files, read one at a time with pread. The
// batches come out of the same pipeline as a streamed folder's, bit for bit the in-memory floats.

#include "core/data/example_store.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace tw::data {

namespace {

class PixelStore : public ExampleStore {
 public:
  PixelStore(std::vector<PixelPart> parts, std::vector<int64_t> shape, std::vector<std::string> classNames)
      : m_parts(std::move(parts)) {
    m_shape = std::move(shape);
    m_classNames = std::move(classNames);
    const int64_t size = exampleBytes();
    for (const PixelPart &part : m_parts) {
      if (static_cast<int64_t>(part.pixels.size()) != static_cast<int64_t>(part.labels.size()) * size)
        throw std::logic_error(part.source + ": " + std::to_string(part.pixels.size()) + " pixels for " +
                               std::to_string(part.labels.size()) + " examples of " + std::to_string(size));
      m_firsts.push_back(count());
      m_labels.insert(m_labels.end(), part.labels.begin(), part.labels.end());
    }
  }

  void read(int64_t i, uint8_t *out) const override {
    const auto [part, k] = locate(i);
    const size_t size = static_cast<size_t>(exampleBytes());
    std::memcpy(out, m_parts[part].pixels.data() + static_cast<size_t>(k) * size, size);
    m_bytesRead.fetch_add(size, std::memory_order_relaxed);
  }
  std::string where(int64_t i) const override {
    const auto [part, k] = locate(i);
    return m_parts[part].source + " (example " + std::to_string(k) + ")";
  }
  bool encoded() const override { return false; }
  bool inMemory() const override { return true; }
  void addToFingerprint(Fingerprint &fp) const override {
    fp.addOption("store", std::string("pixels"));
    for (const PixelPart &part : m_parts) {
      fp.addBytes(part.source + ":pixels", part.pixels.data(), part.pixels.size());
      fp.addBytes(part.source + ":labels", part.labels.data(), part.labels.size() * sizeof(int64_t));
    }
  }

 private:
  std::pair<size_t, int64_t> locate(int64_t i) const {
    if (i < 0 || i >= count()) throw std::out_of_range("pixel store: example " + std::to_string(i) + " of " + std::to_string(count()));
    size_t part = m_firsts.size() - 1;
    while (m_firsts[part] > i) --part;
    return {part, i - m_firsts[part]};
  }

  std::vector<PixelPart> m_parts;
  std::vector<int64_t> m_firsts;  // each part's first example
};

class PixelFileStore : public ExampleStore {
 public:
  PixelFileStore(std::vector<PixelFilePart> parts, std::vector<int64_t> shape, std::vector<std::string> classNames)
      : m_parts(std::move(parts)) {
    m_shape = std::move(shape);
    m_classNames = std::move(classNames);
    for (const PixelFilePart &part : m_parts) {
      const int fd = ::open(part.path.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) {
        closeAll();
        throw std::runtime_error(part.path + ": cannot open (" + std::strerror(errno) + ")");
      }
      m_fds.push_back(fd);
      m_firsts.push_back(count());
      m_labels.insert(m_labels.end(), part.labels.begin(), part.labels.end());
    }
  }
  ~PixelFileStore() override { closeAll(); }

  void read(int64_t i, uint8_t *out) const override {
    if (i < 0 || i >= count()) throw std::out_of_range("pixel file store: example " + std::to_string(i));
    size_t part = m_firsts.size() - 1;
    while (m_firsts[part] > i) --part;
    const size_t size = static_cast<size_t>(exampleBytes());
    const uint64_t at = m_parts[part].offset + static_cast<uint64_t>(i - m_firsts[part]) * size;
    size_t done = 0;
    while (done < size) {
      const ssize_t n = ::pread(m_fds[part], out + done, size - done, static_cast<off_t>(at + done));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0)
        throw std::runtime_error(m_parts[part].path + ": cannot read example " + std::to_string(i - m_firsts[part]) +
                                 " (" + (n < 0 ? std::string(std::strerror(errno)) : std::string("the file ends early")) +
                                 "; it changed since the run opened it?)");
      done += static_cast<size_t>(n);
    }
    m_bytesRead.fetch_add(size, std::memory_order_relaxed);
  }
  std::string where(int64_t i) const override {
    size_t part = m_firsts.size() - 1;
    while (m_firsts[part] > i) --part;
    return m_parts[part].path + " (example " + std::to_string(i - m_firsts[part]) + ")";
  }
  bool encoded() const override { return false; }
  void addToFingerprint(Fingerprint &fp) const override {
    // The IDX source hashes the files' bytes itself; this names what was read.
    fp.addOption("store", std::string("pixel-files"));
    for (const PixelFilePart &part : m_parts) fp.addOption(part.path, static_cast<int64_t>(part.labels.size()));
  }

 private:
  void closeAll() {
    for (int fd : m_fds) ::close(fd);
    m_fds.clear();
  }

  std::vector<PixelFilePart> m_parts;
  std::vector<int> m_fds;
  std::vector<int64_t> m_firsts;
};

}  // namespace

std::shared_ptr<ExampleStore> makePixelFileStore(std::vector<PixelFilePart> parts, std::vector<int64_t> shape,
                                                 std::vector<std::string> classNames) {
  return std::make_shared<PixelFileStore>(std::move(parts), std::move(shape), std::move(classNames));
}

std::shared_ptr<ExampleStore> makePixelStore(std::vector<PixelPart> parts, std::vector<int64_t> shape,
                                             std::vector<std::string> classNames) {
  return std::make_shared<PixelStore>(std::move(parts), std::move(shape), std::move(classNames));
}

}  // namespace tw::data
