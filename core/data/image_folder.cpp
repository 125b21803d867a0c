#include "core/data/image_folder.h"

#include <stb/stb_image.h>
#include <stb/stb_image_resize.h>

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

std::runtime_error cannotDecode(const std::string &path) {
  const char *reason = stbi_failure_reason();
  return std::runtime_error(path + ": cannot decode (stb: " + (reason ? reason : "unknown reason") +
                            ")");
}

// Interleaved 8-bit pixels (HWC) as planes of floats in [0, 1] (CHW, what the engine's
// convolutions want), resized first when their size is not the one asked for.
void toPlanes(const unsigned char *pixels, int w, int h, int channels, int width, int height, const std::string &where,
              std::vector<unsigned char> &resized, float *out) {
  const unsigned char *source = pixels;
  if (w != width || h != height) {
    resized.resize(static_cast<size_t>(width) * height * channels);
    if (!stbir_resize_uint8(pixels, w, h, 0, resized.data(), width, height, 0, channels))
      throw std::runtime_error(where + ": cannot resize " + std::to_string(w) + "x" + std::to_string(h) + " to " +
                               std::to_string(width) + "x" + std::to_string(height));
    source = resized.data();
  }
  const size_t plane = static_cast<size_t>(width) * static_cast<size_t>(height);
  const size_t stride = static_cast<size_t>(channels);
  for (size_t p = 0; p < plane; ++p)
    for (size_t c = 0; c < stride; ++c) out[c * plane + p] = source[p * stride + c] / 255.0f;
}

}  // namespace

bool encodedImageInfo(const std::string &bytes, int *width, int *height, int *components) {
  return stbi_info_from_memory(reinterpret_cast<const stbi_uc *>(bytes.data()), static_cast<int>(bytes.size()), width,
                               height, components) != 0;
}

void decodeImage(const std::string &bytes, const std::string &where, int channels, int width, int height, float *out) {
  int w = 0, h = 0, comp = 0;
  std::unique_ptr<unsigned char, void (*)(void *)> pixels(
      stbi_load_from_memory(reinterpret_cast<const stbi_uc *>(bytes.data()), static_cast<int>(bytes.size()), &w, &h,
                            &comp, channels),
      stbi_image_free);
  if (!pixels) throw cannotDecode(where);
  std::vector<unsigned char> resized;
  toPlanes(pixels.get(), w, h, channels, width, height, where, resized, out);
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
  if (options.channels != 0 && options.channels != 1 && options.channels != 3)
    throw std::runtime_error(dir + ": " + std::to_string(options.channels) +
                             " channels asked for (use 1 for gray, 3 for RGB or 0 for automatic)");
  if (options.width < 0 || options.height < 0 || options.limitPerClass < 0)
    throw std::runtime_error(dir + ": image size and limit must not be negative");
  ImageFolderListing listing = listImageFolder(dir, options.limitPerClass);
  Examples e;
  e.task = Task::Classification;
  e.classNames = std::move(listing.classNames);
  const std::vector<ImageFile> &items = listing.files;

  // Headers first: the automatic channel count needs every image, the default size the first
  // one, and a broken file is reported before minutes of decoding.
  bool colour = false;
  int firstWidth = 0, firstHeight = 0;
  for (const ImageFile &item : items) {
    int w = 0, h = 0, comp = 0;
    if (!stbi_info(item.path.c_str(), &w, &h, &comp)) throw cannotDecode(item.path);
    if (&item == &items.front()) {
      firstWidth = w;
      firstHeight = h;
    }
    colour = colour || comp >= 3;
  }
  const int width = options.width > 0 ? static_cast<int>(options.width) : firstWidth;
  const int height = options.height > 0 ? static_cast<int>(options.height) : firstHeight;
  const int channels = options.channels > 0 ? static_cast<int>(options.channels) : (colour ? 3 : 1);
  const size_t plane = static_cast<size_t>(width) * static_cast<size_t>(height);
  const size_t perImage = plane * static_cast<size_t>(channels);

  e.count = static_cast<int64_t>(items.size());
  e.classes = static_cast<int64_t>(e.classNames.size());
  e.featureShape = {channels, height, width};
  e.features.resize(perImage * items.size());
  e.labels.reserve(items.size());
  std::vector<unsigned char> resized(perImage);
  for (size_t i = 0; i < items.size(); ++i) {
    int w = 0, h = 0, comp = 0;
    // stb converts to the channel count asked for: RGB to gray by luma, gray to RGB by copying,
    // and drops alpha (transparent pixels keep whatever colour they store).
    std::unique_ptr<unsigned char, void (*)(void *)> pixels(
        stbi_load(items[i].path.c_str(), &w, &h, &comp, channels), stbi_image_free);
    if (!pixels) throw cannotDecode(items[i].path);
    toPlanes(pixels.get(), w, h, channels, width, height, items[i].path, resized, e.features.data() + i * perImage);
    e.labels.push_back(items[i].label);
  }
  return e;
}

}  // namespace tw::data
