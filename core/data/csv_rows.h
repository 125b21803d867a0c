#pragma once
// A CSV table read a batch at a time: the streaming form of csv_reader.h, for a table whose values
// would not fit data.memory_mb as floats. Opening keeps the scan's layout and its index of every
// kCsvBlockRows-th row (csv_layout.h); reading row r is one pread of its block and the decoding of
// at most kCsvBlockRows records, so memory is the index plus the batches in flight, whatever the
// file's size, and the kernel's page cache does the caching.
//
//   CsvScan scan = scanCsv("sales.csv", options, /*index=*/true);
//   std::shared_ptr<const CsvRows> rows = openCsvRows("sales.csv", ',', scan);  // takes the layout and index
//   std::vector<float> x(n * rows->width());
//   rows->read(wanted.data(), n, x.data(), /*workers=*/2);   // the floats readCsv would give
//
// Torch-free: core/data's interface, tensors only in the engine.

#include "core/data/csv_layout.h"
#include "core/data/fingerprint.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace tw::data {

class CsvRows {
 public:
  CsvRows(std::string path, char delimiter, CsvLayout layout, std::vector<uint64_t> blockOffsets,
          uint64_t endOffset, int64_t count);
  ~CsvRows();
  CsvRows(const CsvRows &) = delete;
  CsvRows &operator=(const CsvRows &) = delete;

  int64_t count() const { return m_count; }
  int64_t width() const { return m_layout.width(); }
  const std::string &path() const { return m_path; }

  // The features of kept rows `rows[0..n)` into `out` (n x width floats), decoded on `workers`
  // threads (0 = one per core). Safe from several threads at once. Throws std::runtime_error
  // naming the file (and the row's byte offset) when it changed since it was opened.
  void read(const int64_t *rows, int64_t n, float *out, int workers) const;
  // Rows [begin, end) in file order into `out` ((end - begin) x width floats), a run of blocks
  // per thread with one read each: a pass over the file, for the training statistics.
  void readRange(int64_t begin, int64_t end, float *out, int workers) const;
  uint64_t bytesRead() const { return m_bytesRead.load(std::memory_order_relaxed); }
  // The file's name, size and modification time: what identifies the data without reading it.
  void addToFingerprint(Fingerprint &fp) const;

 private:
  void readOne(int64_t row, float *out, std::string &block, std::vector<std::string> &fields) const;
  // The bytes of blocks [first, last) in one read, counted in bytesRead.
  void readBlocks(int64_t first, int64_t last, std::string &bytes) const;
  std::runtime_error changed(uint64_t byte, int64_t row, const std::string &what) const;
  void checkUnchanged() const;

  std::string m_path;
  char m_delimiter;
  CsvLayout m_layout;
  std::vector<uint64_t> m_offsets;
  uint64_t m_end;
  int64_t m_count;
  int m_fd = -1;
  int64_t m_size = 0, m_mtimeNs = 0;
  mutable std::atomic<uint64_t> m_bytesRead{0};
};

// The table at `path` as rows read per batch, from a scan made with its index. Throws
// std::runtime_error naming the file when it cannot be opened.
std::shared_ptr<const CsvRows> openCsvRows(const std::string &path, char delimiter, CsvScan &scan);

}  // namespace tw::data
