#pragma once
// IDX files (the MNIST family), plain or gzip-compressed. No LibTorch: plain bytes out.

#include <cstdint>
#include <string>
#include <vector>

namespace tw::data {

struct IdxImages {
  int64_t count = 0;      // images read (the limit, or every one)
  int64_t fileCount = 0;  // images the file holds
  int64_t rows = 0;
  int64_t cols = 0;
  std::vector<uint8_t> pixels;  // count * rows * cols, row-major
};

struct IdxLabels {
  int64_t count = 0;      // labels kept (the limit, or every one)
  int64_t fileCount = 0;  // labels the file holds
  std::vector<uint8_t> labels;
};

// limit > 0 keeps only the first `limit` items, but the whole file is checked whatever the limit:
// its size must be exactly what the header announces. Throws std::runtime_error naming the file
// and what is wrong (missing, bad magic, implausible size, truncated, bytes after the data).
IdxImages readIdxImages(const std::string &path, int64_t limit = 0);
// classes > 0 also checks every label in the file against 0..classes-1 and names the first
// outside it: "<path>: label 5123 (0-based) is 12, outside the dataset's 10 classes (0..9)".
IdxLabels readIdxLabels(const std::string &path, int64_t limit = 0, int64_t classes = 0);

// An images file's header, its pixels left where they are: for reading one image at a time from a
// plain (uncompressed) file, where image k starts at byte kIdxImagesHeaderBytes + k * rows * cols.
// A plain file is checked against its size as readIdxImages checks it; a compressed one only has
// its header read (readIdxImages checks it when it reads it whole).
struct IdxImagesLayout {
  int64_t count = 0;      // images kept (the limit, or every one)
  int64_t fileCount = 0;  // images the file holds
  int64_t rows = 0, cols = 0;
  bool plain = false;     // not compressed
};
inline constexpr uint64_t kIdxImagesHeaderBytes = 16;
IdxImagesLayout readIdxImagesLayout(const std::string &path, int64_t limit = 0);

// The classes of the MNIST family (both have 10).
inline constexpr int64_t kIdxClasses = 10;
// Fashion-MNIST's class names, label order: the one list the engine, the reports and Studio use.
const std::vector<std::string> &fashionMnistClassNames();

// Finds "<dir>/<stem>" or "<dir>/<stem>.gz"; empty when neither exists.
std::string findIdxFile(const std::string &dir, const std::string &stem);

// The folder a dataset name maps to when the run file gives no path: the system's copy
// (fashion-mnist: /usr/share/datasets/fashion-mnist, from the package dataset-fashion-mnist), or
// $TORCHWRIGHT_DATASETS_DIR/<dataset> when that variable is set (a user's own copies; tests).
std::string defaultDatasetDir(const std::string &dataset);

// The four files of an IDX dataset, without ".gz" (findIdxFile takes either).
const std::vector<std::string> &idxFileStems();

}  // namespace tw::data
