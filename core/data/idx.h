#pragma once
// IDX files (the MNIST family), plain or gzip-compressed. No LibTorch: plain bytes out.

#include <cstdint>
#include <string>
#include <vector>

namespace tw::data {

struct IdxImages {
  int64_t count = 0;
  int64_t rows = 0;
  int64_t cols = 0;
  std::vector<uint8_t> pixels;  // count * rows * cols, row-major
};

struct IdxLabels {
  int64_t count = 0;
  std::vector<uint8_t> labels;
};

// limit > 0 reads only the first `limit` items. Throws std::runtime_error naming the file and
// what is wrong (missing, bad magic, truncated).
IdxImages readIdxImages(const std::string &path, int64_t limit = 0);
IdxLabels readIdxLabels(const std::string &path, int64_t limit = 0);

// Finds "<dir>/<stem>" or "<dir>/<stem>.gz"; empty when neither exists.
std::string findIdxFile(const std::string &dir, const std::string &stem);

// The folder a dataset name maps to when the run file gives no path.
std::string defaultDatasetDir(const std::string &dataset);

}  // namespace tw::data
