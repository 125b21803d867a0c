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
// Its size is checked against the header as readIdxImages checks it: a plain file's by one stat, a
// compressed one's by the uncompressed size gzip records at its end (inflated to count only when
// that disagrees: a file of several gzip members records only the last one's).
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

// An IDX set's four files in `dir` checked from their headers and sizes, no pixel read: each
// images file's size against its header (readIdxImagesLayout), each labels file whole (a byte a
// label) with every label below kIdxClasses, images and labels counting the same, train and test
// images of one size, neither set empty. The run validator calls it before a run is recorded; the
// loader makes the same checks as it reads. A missing file is left to the caller to name. Throws
// std::runtime_error naming the file and what is wrong, in the readers' words.
void checkIdxSet(const std::string &dir);
// The two set-wide checks, each throwing with the folder and the numbers.
void checkIdxCounts(const std::string &dir, const std::string &imagesPath, int64_t images, const std::string &labelsPath,
                    int64_t labels);
void checkIdxSplits(const std::string &dir, int64_t trainCount, int64_t trainRows, int64_t trainCols, int64_t testCount,
                    int64_t testRows, int64_t testCols);
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
