#include "core/data/idx.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <vector>

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

  // Reads exactly `size` bytes or throws, naming what was being read; `onShort` may throw a
  // better message first when the data ends early.
  void read(void *data, size_t size, const std::string &what, const std::function<void(size_t)> &onShort = {}) {
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
        if (onShort) onShort(done);
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

  // The bytes between the current position and the end of the data.
  int64_t remainingBytes();
  bool plain() { return gzdirect(m_file) != 0; }  // not compressed
  // Throws unless what remains after `kept` items is exactly the other count - kept items.
  void checkSize(int64_t headerBytes, int64_t count, int64_t itemBytes, int64_t kept, const std::string &items);
  // Throws "truncated": the data after the header ends after `heldBytes`.
  [[noreturn]] void truncated(int64_t headerBytes, int64_t count, int64_t itemBytes, int64_t heldBytes,
                              const std::string &items);

 private:
  std::string m_path;
  gzFile m_file = nullptr;
};

// Whether a gzip file's trailer agrees with `bytes` of uncompressed data: gzip records the size of
// its (last) member's data modulo 2^32 in its last four bytes. A disagreement is not proof (a file
// of several members records only the last one's size), so a caller inflates to count then.
bool gzipSizeAgrees(const std::string &path, uint64_t bytes) {
  std::FILE *f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  uint8_t head[2] = {0, 0}, tail[4] = {0, 0, 0, 0};
  const bool read = std::fread(head, 1, 2, f) == 2 && std::fseek(f, -4, SEEK_END) == 0 && std::fread(tail, 1, 4, f) == 4;
  std::fclose(f);
  if (!read || head[0] != 0x1f || head[1] != 0x8b) return false;
  const uint32_t size = uint32_t(tail[0]) | uint32_t(tail[1]) << 8 | uint32_t(tail[2]) << 16 | uint32_t(tail[3]) << 24;
  return size == static_cast<uint32_t>(bytes);
}

int64_t itemsToRead(int64_t count, int64_t limit) {
  return limit > 0 ? std::min(count, limit) : count;
}

std::string plural(int64_t n, const char *word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace

// Reads and discards what follows the items kept, so that a count the data cannot hold, or data
// the count does not cover, is found whatever the limit. A plain file is checked from its size; a
// compressed one has to be inflated to the end (a quarter of a second for Fashion-MNIST's).
int64_t IdxFile::remainingBytes() {
  if (gzdirect(m_file)) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(m_path, ec);
    const z_off_t at = gztell(m_file);
    if (!ec && at >= 0) return static_cast<int64_t>(size) - static_cast<int64_t>(at);
  }
  std::vector<uint8_t> scratch(1 << 16);
  int64_t total = 0;
  for (;;) {
    const int got = gzread(m_file, scratch.data(), static_cast<unsigned>(scratch.size()));
    if (got < 0) {
      int code = 0;
      const char *message = gzerror(m_file, &code);
      fail(m_path, std::string("corrupt or truncated (") + (message ? message : "zlib error") + ") after byte " +
                       std::to_string(total));
    }
    if (got == 0) return total;
    total += got;
  }
}

void IdxFile::checkSize(int64_t headerBytes, int64_t count, int64_t itemBytes, int64_t kept, const std::string &items) {
  const int64_t rest = remainingBytes();
  const int64_t expected = (count - kept) * itemBytes;
  if (rest == expected) return;
  if (rest < expected) truncated(headerBytes, count, itemBytes, kept * itemBytes + rest, items);
  fail(m_path, std::to_string(rest - expected) + " bytes after the " + plural(count, items.c_str()) +
                   " the header announces (a wrong count in the header, or files joined)");
}

void IdxFile::truncated(int64_t headerBytes, int64_t count, int64_t itemBytes, int64_t heldBytes,
                        const std::string &items) {
  fail(m_path, "truncated: the header announces " + plural(count, items.c_str()) + " (" +
                   std::to_string(headerBytes + count * itemBytes) + " bytes) but the file holds " +
                   std::to_string(headerBytes + heldBytes) + " bytes, " + std::to_string(heldBytes / itemBytes) +
                   " whole " + items + (heldBytes / itemBytes == 1 ? "" : "s"));
}

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
  images.fileCount = count;
  images.count = itemsToRead(count, limit);
  const int64_t imageBytes = images.rows * images.cols;
  images.pixels.resize(static_cast<size_t>(images.count * imageBytes));
  file.read(images.pixels.data(), images.pixels.size(),
            "pixels (" + std::to_string(images.count) + " images of " + std::to_string(images.rows) +
                "x" + std::to_string(images.cols) + ")",
            [&](size_t held) { file.truncated(16, count, imageBytes, static_cast<int64_t>(held), "image"); });
  file.checkSize(16, count, imageBytes, images.count, "image");
  return images;
}

IdxImagesLayout readIdxImagesLayout(const std::string &path, int64_t limit) {
  IdxFile file(path);
  file.expectMagic(kImagesMagic, "image");
  IdxImagesLayout layout;
  layout.fileCount = file.readBigEndian32("the header");
  layout.rows = file.readBigEndian32("the header");
  layout.cols = file.readBigEndian32("the header");
  if (layout.rows <= 0 || layout.cols <= 0 || layout.rows > 4096 || layout.cols > 4096)
    fail(path, "implausible image size " + std::to_string(layout.rows) + "x" + std::to_string(layout.cols));
  layout.count = itemsToRead(layout.fileCount, limit);
  layout.plain = file.plain();
  // A plain file's size is one stat; a compressed one's is the size gzip records at its end, and
  // only when that disagrees is it inflated to count (a file of several gzip members).
  const int64_t imageBytes = layout.rows * layout.cols;
  if (layout.plain ||
      !gzipSizeAgrees(path, kIdxImagesHeaderBytes + static_cast<uint64_t>(layout.fileCount * imageBytes)))
    file.checkSize(static_cast<int64_t>(kIdxImagesHeaderBytes), layout.fileCount, imageBytes, 0, "image");
  return layout;
}

IdxLabels readIdxLabels(const std::string &path, int64_t limit, int64_t classes) {
  IdxFile file(path);
  file.expectMagic(kLabelsMagic, "label");
  IdxLabels labels;
  const int64_t count = file.readBigEndian32("the header");
  // Label files are small: read whole, so every label is checked whatever the limit. The vector
  // grows as labels arrive, so a header that claims 2^31 of them costs only what the file holds.
  constexpr int64_t kChunk = 1 << 20;
  for (int64_t held = 0; held < count; held += kChunk) {
    const int64_t take = std::min(kChunk, count - held);
    labels.labels.resize(static_cast<size_t>(held + take));
    file.read(labels.labels.data() + held, static_cast<size_t>(take), "labels (" + plural(count, "item") + ")",
              [&](size_t got) { file.truncated(8, count, 1, held + static_cast<int64_t>(got), "label"); });
  }
  file.checkSize(8, count, 1, count, "label");
  if (classes > 0)
    for (size_t i = 0; i < labels.labels.size(); ++i)
      if (labels.labels[i] >= classes)
        fail(path, "label " + std::to_string(i) + " (0-based) is " + std::to_string(labels.labels[i]) +
                       ", outside the dataset's " + std::to_string(classes) + " classes (0.." +
                       std::to_string(classes - 1) + ")");
  labels.fileCount = count;
  labels.count = itemsToRead(count, limit);
  labels.labels.resize(static_cast<size_t>(labels.count));
  return labels;
}

void checkIdxCounts(const std::string &dir, const std::string &imagesPath, int64_t images, const std::string &labelsPath,
                    int64_t labels) {
  if (images != labels)
    throw std::runtime_error(dir + ": image and label counts differ: " + imagesPath + " holds " + std::to_string(images) +
                             " images, " + labelsPath + " " + std::to_string(labels) + " labels");
}

void checkIdxSplits(const std::string &dir, int64_t trainCount, int64_t trainRows, int64_t trainCols, int64_t testCount,
                    int64_t testRows, int64_t testCols) {
  if (testRows != trainRows || testCols != trainCols)
    throw std::runtime_error(dir + ": train and test images differ in size (" + std::to_string(trainRows) + "x" +
                             std::to_string(trainCols) + " and " + std::to_string(testRows) + "x" +
                             std::to_string(testCols) + ")");
  if (trainCount < 1) throw std::runtime_error(dir + ": the training set is empty");
  if (testCount < 1) throw std::runtime_error(dir + ": the test set is empty");
}

void checkIdxSet(const std::string &dir) {
  IdxImagesLayout images[2];
  const char *prefixes[2] = {"train", "t10k"};
  for (int k = 0; k < 2; ++k) {
    const std::string imagesPath = findIdxFile(dir, std::string(prefixes[k]) + "-images-idx3-ubyte");
    const std::string labelsPath = findIdxFile(dir, std::string(prefixes[k]) + "-labels-idx1-ubyte");
    if (imagesPath.empty() || labelsPath.empty()) return;  // the caller names a missing file
    images[k] = readIdxImagesLayout(imagesPath);
    const IdxLabels labels = readIdxLabels(labelsPath, 0, kIdxClasses);
    checkIdxCounts(dir, imagesPath, images[k].fileCount, labelsPath, labels.fileCount);
  }
  checkIdxSplits(dir, images[0].fileCount, images[0].rows, images[0].cols, images[1].fileCount, images[1].rows,
                 images[1].cols);
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

const std::vector<std::string> &idxFileStems() {
  static const std::vector<std::string> stems = {"train-images-idx3-ubyte", "train-labels-idx1-ubyte",
                                                 "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"};
  return stems;
}

const std::vector<std::string> &fashionMnistClassNames() {
  static const std::vector<std::string> names = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                                 "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};
  return names;
}

std::string defaultDatasetDir(const std::string &dataset) {
  if (dataset != "fashion-mnist" && dataset != "mnist") return {};
  if (const char *root = std::getenv("TORCHWRIGHT_DATASETS_DIR"); root && *root)
    return (std::filesystem::path(root) / dataset).string();
  if (dataset == "fashion-mnist") return TW_DEFAULT_FASHION_MNIST;
  if (dataset == "mnist") return "/usr/share/datasets/mnist";
  return {};
}

}  // namespace tw::data
