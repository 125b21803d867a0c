#include "core/data/image_folder.h"

#include "core/data/example_store.h"
#include "core/data/image_codec.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <vector>

namespace tw::data {

namespace {

namespace fs = std::filesystem;

bool isImageName(const std::string &name) {
  const size_t dot = name.rfind('.');
  if (dot == std::string::npos) return false;
  std::string ext = name.substr(dot);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext == ".png" || ext == ".jpg" || ext == ".jpeg" || ext == ".bmp";
}

// The names in `dir`, sorted bytewise so that class indices and example order are the same on
// every file system (readdir's order is whatever the file system keeps). Read with readdir and
// its entry types (a stat only where the file system reports none, or for a link), and names
// rather than paths sorted: a million-image folder lists in well under a second that way.
std::vector<std::string> sortedNames(const std::string &dir, bool folders) {
  std::vector<std::string> names;
  DIR *d = ::opendir(dir.c_str());
  if (!d) throw std::runtime_error(dir + ": cannot list (" + std::strerror(errno) + ")");
  while (const dirent *entry = ::readdir(d)) {
    const char *name = entry->d_name;
    if (name[0] == '\0' || name[0] == '.') continue;
    if (!folders && !isImageName(name)) continue;
    unsigned char type = entry->d_type;
    if (type == DT_UNKNOWN || type == DT_LNK) {
      struct stat st {};
      if (::fstatat(::dirfd(d), name, &st, 0) != 0) continue;
      type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
    }
    if (type == (folders ? DT_DIR : DT_REG)) names.emplace_back(name);
  }
  ::closedir(d);
  std::sort(names.begin(), names.end());
  return names;
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
  return static_cast<int64_t>(sortedNames(dir, true).size());
}

ImageFolderListing listImageFolder(const std::string &dir, int64_t limitPerClass) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) throw std::runtime_error(dir + ": no such folder");
  if (!fs::is_directory(dir, ec)) throw std::runtime_error(dir + ": is not a folder");
  ImageFolderListing listing;
  for (const std::string &className : sortedNames(dir, true)) {
    const std::string classDir = (fs::path(dir) / className).string();  // as directory_iterator spells it
    std::vector<std::string> files = sortedNames(classDir, false);
    if (files.empty())
      throw std::runtime_error(classDir + ": no images (.png, .jpg, .jpeg or .bmp) in this class folder");
    if (limitPerClass > 0 && static_cast<int64_t>(files.size()) > limitPerClass)
      files.resize(static_cast<size_t>(limitPerClass));
    const std::string prefix = classDir + "/";
    listing.files.reserve(listing.files.size() + files.size());
    for (const std::string &file : files)
      listing.files.push_back({prefix + file, static_cast<int64_t>(listing.classNames.size())});
    listing.classNames.push_back(className);
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
