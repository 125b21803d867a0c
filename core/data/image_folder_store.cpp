// An image folder as an ExampleStore (example_store.h): the listing and each file's size and time
// held, the bytes read and decoded when an example is asked for.

#include "core/data/example_store.h"
#include "core/data/image_codec.h"
#include "core/data/image_folder.h"
#include "core/data/parallel_for.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace tw::data {

namespace {

struct FileStamp {
  int64_t size = -1;
  int64_t mtimeNs = 0;
};

FileStamp stampOf(const struct stat &st) {
  return {static_cast<int64_t>(st.st_size),
          static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + static_cast<int64_t>(st.st_mtim.tv_nsec)};
}

// The whole file into `bytes`, checked against the stamp taken when the folder was listed: a file
// replaced or rewritten during training is named, not silently read.
void readFile(const std::string &path, const FileStamp &listed, std::vector<unsigned char> &bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(path + ": cannot open (" + std::strerror(errno) + "; the folder changed since the run started?)");
  struct stat st{};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    throw std::runtime_error(path + ": cannot read its size");
  }
  const FileStamp now = stampOf(st);
  if (listed.size >= 0 && (now.size != listed.size || now.mtimeNs != listed.mtimeNs)) {
    ::close(fd);
    throw std::runtime_error(path + ": changed since the run started (" + std::to_string(listed.size) + " bytes then, " +
                             std::to_string(now.size) + " now)");
  }
  bytes.resize(static_cast<size_t>(now.size));
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      throw std::runtime_error(path + ": cannot read (" + (n < 0 ? std::string(std::strerror(errno)) : "shorter than listed") + ")");
    }
    done += static_cast<size_t>(n);
  }
  ::close(fd);
}

class ImageFolderStore : public ExampleStore {
 public:
  ImageFolderStore(const std::string &dir, const ImageGeometryOptions &options, int workers) : m_dir(dir) {
    if (options.channels != 0 && options.channels != 1 && options.channels != 3)
      throw std::runtime_error(dir + ": " + std::to_string(options.channels) +
                               " channels asked for (use 1 for gray, 3 for RGB or 0 for automatic)");
    if (options.width < 0 || options.height < 0 || options.limitPerClass < 0)
      throw std::runtime_error(dir + ": image size and limit must not be negative");
    ImageFolderListing listing = listImageFolder(dir, options.limitPerClass);
    m_classNames = std::move(listing.classNames);
    m_paths.reserve(listing.files.size());
    m_labels.reserve(listing.files.size());
    for (ImageFile &file : listing.files) {
      m_paths.push_back(std::move(file.path));
      m_labels.push_back(file.label);
    }
    const int64_t n = count();
    m_stamps.resize(m_paths.size());
    const int threads = decodeWorkers(workers);
    if (options.stampFiles) parallelFor(n, threads, [&](int64_t i) {
      struct stat st{};
      if (::stat(m_paths[static_cast<size_t>(i)].c_str(), &st) != 0)
        throw std::runtime_error(m_paths[static_cast<size_t>(i)] + ": cannot read (" + std::strerror(errno) + ")");
      m_stamps[static_cast<size_t>(i)] = stampOf(st);
    });

    // Headers of a sample spread over the listing (every image when there are few): the first
    // image gives the default size, any colour among them makes the default RGB.
    const int64_t sample = std::min(n, kHeaderSample);
    std::vector<ImageHeader> headers(static_cast<size_t>(sample));
    parallelFor(sample, threads, [&](int64_t k) {
      const int64_t i = sample == n ? k : k * n / sample;
      std::vector<unsigned char> bytes;
      readFile(m_paths[static_cast<size_t>(i)], m_stamps[static_cast<size_t>(i)], bytes);
      if (!readImageHeader(bytes.data(), bytes.size(), &headers[static_cast<size_t>(k)]))
        throw std::runtime_error(m_paths[static_cast<size_t>(i)] + ": cannot decode (its header is not a JPEG, PNG or BMP header)");
    });
    const bool colour = std::any_of(headers.begin(), headers.end(), [](const ImageHeader &h) { return h.components >= 3; });
    const int64_t width = options.width > 0 ? options.width : headers.front().width;
    const int64_t height = options.height > 0 ? options.height : headers.front().height;
    const int64_t channels = options.channels > 0 ? options.channels : (colour ? 3 : 1);
    m_shape = {channels, height, width};
  }

  void read(int64_t i, uint8_t *out) const override {
    thread_local std::vector<unsigned char> bytes;
    const std::string &path = m_paths.at(static_cast<size_t>(i));
    readFile(path, m_stamps[static_cast<size_t>(i)], bytes);
    m_bytesRead.fetch_add(bytes.size(), std::memory_order_relaxed);
    decodeImage(bytes.data(), bytes.size(), path, static_cast<int>(m_shape[0]), static_cast<int>(m_shape[2]),
                static_cast<int>(m_shape[1]), out);
  }

  std::string where(int64_t i) const override { return m_paths.at(static_cast<size_t>(i)); }

  void addToFingerprint(Fingerprint &fp) const override {
    fp.addOption("store", std::string("image-folder"));
    for (size_t i = 0; i < m_paths.size(); ++i) {
      // Relative names, so the same folder moved elsewhere is the same data.
      fp.addOption(m_paths[i].substr(std::min(m_paths[i].size(), m_dir.size())),
                   std::to_string(m_stamps[i].size) + "@" + std::to_string(m_stamps[i].mtimeNs));
    }
    fp.addOption("shape", std::to_string(m_shape[0]) + "x" + std::to_string(m_shape[1]) + "x" + std::to_string(m_shape[2]));
  }

 private:
  std::string m_dir;
  std::vector<std::string> m_paths;
  std::vector<FileStamp> m_stamps;
};

}  // namespace

std::shared_ptr<ExampleStore> openImageFolderStore(const std::string &dir, const ImageGeometryOptions &options,
                                                   int workers) {
  return std::make_shared<ImageFolderStore>(dir, options, workers);
}

}  // namespace tw::data
