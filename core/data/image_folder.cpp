#include "core/data/image_folder.h"

#include "core/data/example_store.h"
#include "core/data/image_codec.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <vector>

namespace tw::data {

namespace {

namespace fs = std::filesystem;

bool isImageFile(const fs::path &path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext == ".png" || ext == ".jpg" || ext == ".jpeg" || ext == ".bmp";
}

// Sorted by name so that class indices and example order are the same on every file system
// (directory_iterator's order is whatever the file system keeps).
std::vector<fs::path> sortedEntries(const fs::path &dir, bool folders) {
  std::vector<fs::path> entries;
  for (const fs::directory_entry &entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name[0] == '.') continue;
    if (folders ? entry.is_directory() : (entry.is_regular_file() && isImageFile(entry.path())))
      entries.push_back(entry.path());
  }
  std::sort(entries.begin(), entries.end(), [](const fs::path &a, const fs::path &b) {
    return a.filename().string() < b.filename().string();
  });
  return entries;
}

}  // namespace

void decodeImage(const std::string &bytes, const std::string &where, int channels, int width, int height, float *out) {
  std::vector<uint8_t> planes(static_cast<size_t>(channels) * static_cast<size_t>(width) * static_cast<size_t>(height));
  decodeImage(reinterpret_cast<const unsigned char *>(bytes.data()), bytes.size(), where, channels, width, height,
              planes.data());
  for (size_t k = 0; k < planes.size(); ++k) out[k] = kByteToUnit[planes[k]];
}

int64_t imageFolderClasses(const std::string &dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return 0;
  return static_cast<int64_t>(sortedEntries(dir, true).size());
}

ImageFolderListing listImageFolder(const std::string &dir, int64_t limitPerClass) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) throw std::runtime_error(dir + ": no such folder");
  if (!fs::is_directory(dir, ec)) throw std::runtime_error(dir + ": is not a folder");
  ImageFolderListing listing;
  for (const fs::path &classDir : sortedEntries(dir, true)) {
    std::vector<fs::path> files = sortedEntries(classDir, false);
    if (files.empty())
      throw std::runtime_error(classDir.string() +
                               ": no images (.png, .jpg, .jpeg or .bmp) in this class folder");
    if (limitPerClass > 0 && static_cast<int64_t>(files.size()) > limitPerClass)
      files.resize(static_cast<size_t>(limitPerClass));
    for (const fs::path &file : files)
      listing.files.push_back({file.string(), static_cast<int64_t>(listing.classNames.size())});
    listing.classNames.push_back(classDir.filename().string());
  }
  if (listing.classNames.empty())
    throw std::runtime_error(dir + ": no class subfolders (put each class's images in a subfolder "
                             "named after the class, e.g. " + dir + "/cat/1.png)");
  return listing;
}

Examples readImageFolder(const std::string &dir, const ImageFolderOptions &options) {
  ImageGeometryOptions geometry;
  geometry.width = options.width;
  geometry.height = options.height;
  geometry.channels = options.channels;
  geometry.limitPerClass = options.limitPerClass;
  const std::shared_ptr<ExampleStore> store = openImageFolderStore(dir, geometry, static_cast<int>(options.workers));
  std::vector<int64_t> rows(static_cast<size_t>(store->count()));
  for (int64_t i = 0; i < store->count(); ++i) rows[static_cast<size_t>(i)] = i;
  return readStore(*store, rows, static_cast<int>(options.workers));
}

}  // namespace tw::data
