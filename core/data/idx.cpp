#include "core/data/idx.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace tw::data {

namespace {

constexpr uint32_t kImagesMagic = 0x00000803;  // unsigned byte, 3 dimensions
constexpr uint32_t kLabelsMagic = 0x00000801;  // unsigned byte, 1 dimension

[[noreturn]] void fail(const std::string &path, const std::string &problem) {
  throw std::runtime_error(path + ": " + problem);
}

// gzread reads plain files transparently, so one reader serves both .gz and uncompressed copies.
class IdxFile {
 public:
  explicit IdxFile(std::string path) : m_path(std::move(path)) {
    std::error_code ec;
    if (!std::filesystem::exists(m_path, ec)) fail(m_path, "file not found");
    if (std::filesystem::is_directory(m_path, ec)) fail(m_path, "is a folder, not an IDX file");
    m_file = gzopen(m_path.c_str(), "rb");
    if (!m_file) fail(m_path, std::string("cannot open: ") + std::strerror(errno));
    gzbuffer(m_file, 1 << 17);  // the default 8 KiB buffer makes inflating 47 MB noticeably slower
  }
  ~IdxFile() {
    if (m_file) gzclose(m_file);
  }
  IdxFile(const IdxFile &) = delete;
  IdxFile &operator=(const IdxFile &) = delete;

  // Reads exactly `size` bytes or throws, naming what was being read.
  void read(void *data, size_t size, const std::string &what) {
    auto *out = static_cast<uint8_t *>(data);
    size_t done = 0;
    while (done < size) {
      // gzread takes an unsigned int count; read in chunks well below that.
      unsigned chunk = static_cast<unsigned>(std::min<size_t>(size - done, 1u << 30));
      int got = gzread(m_file, out + done, chunk);
      if (got < 0) {
        int code = 0;
        const char *message = gzerror(m_file, &code);
        fail(m_path, std::string("corrupt or unreadable (") + (message ? message : "zlib error") +
                         ") while reading " + what);
      }
      if (got == 0) {
        fail(m_path, "truncated: expected " + std::to_string(size) + " bytes of " + what + ", got " +
                         std::to_string(done));
      }
      done += static_cast<size_t>(got);
    }
  }

  uint32_t readBigEndian32(const std::string &what) {
    uint8_t b[4];
    read(b, sizeof b, what);
    return uint32_t(b[0]) << 24 | uint32_t(b[1]) << 16 | uint32_t(b[2]) << 8 | uint32_t(b[3]);
  }

  void expectMagic(uint32_t expected, const std::string &kind) {
    uint32_t magic = readBigEndian32("the header");
    if (magic != expected) {
      char text[96];
      std::snprintf(text, sizeof text, "bad magic 0x%08x (expected 0x%08x for an IDX %s file)", magic,
                    expected, kind.c_str());
      fail(m_path, text);
    }
  }

  const std::string &path() const { return m_path; }

 private:
  std::string m_path;
  gzFile m_file = nullptr;
};

int64_t itemsToRead(int64_t count, int64_t limit) {
  return limit > 0 ? std::min(count, limit) : count;
}

}  // namespace

IdxImages readIdxImages(const std::string &path, int64_t limit) {
  IdxFile file(path);
  file.expectMagic(kImagesMagic, "image");
  IdxImages images;
  const int64_t count = file.readBigEndian32("the header");
  images.rows = file.readBigEndian32("the header");
  images.cols = file.readBigEndian32("the header");
  if (images.rows <= 0 || images.cols <= 0 || images.rows > 4096 || images.cols > 4096) {
    fail(path, "implausible image size " + std::to_string(images.rows) + "x" +
                   std::to_string(images.cols));
  }
  images.count = itemsToRead(count, limit);
  images.pixels.resize(static_cast<size_t>(images.count * images.rows * images.cols));
  file.read(images.pixels.data(), images.pixels.size(),
            "pixels (" + std::to_string(images.count) + " images of " + std::to_string(images.rows) +
                "x" + std::to_string(images.cols) + ")");
  return images;
}

IdxLabels readIdxLabels(const std::string &path, int64_t limit) {
  IdxFile file(path);
  file.expectMagic(kLabelsMagic, "label");
  IdxLabels labels;
  labels.count = itemsToRead(file.readBigEndian32("the header"), limit);
  labels.labels.resize(static_cast<size_t>(labels.count));
  file.read(labels.labels.data(), labels.labels.size(),
            "labels (" + std::to_string(labels.count) + " items)");
  return labels;
}

std::string findIdxFile(const std::string &dir, const std::string &stem) {
  std::error_code ec;
  const std::filesystem::path base = std::filesystem::path(dir) / stem;
  if (std::filesystem::is_regular_file(base, ec)) return base.string();
  std::filesystem::path gz = base;
  gz += ".gz";
  if (std::filesystem::is_regular_file(gz, ec)) return gz.string();
  return {};
}

std::string defaultDatasetDir(const std::string &dataset) {
  if (dataset == "fashion-mnist") return TW_DEFAULT_FASHION_MNIST;
  if (dataset == "mnist") return "/usr/share/datasets/mnist";
  return {};
}

}  // namespace tw::data
