#pragma once
// What one pass over a CSV table learns: every check, the statistics that fill missing values,
// the distinct values (one-hot layout, class names), each kept row's label or target, and, when
// asked, an index of where every kCsvBlockRows-th kept row begins. Both ways of reading a table
// start here: readCsv (csv_reader.h) decodes every row into memory with a second pass, CsvRows
// (csv_rows.h) decodes the rows a batch needs, through the index.
//
//   CsvScan scan = scanCsv("sales.csv", options, /*index=*/true);
//   std::vector<float> features(scan.layout.width());
//   scan.layout.encode(fields, features.data());   // one row, as the in-memory reader makes it
//
// The pass holds the file's labels (8 bytes a row) and the index (8 bytes per kCsvBlockRows
// rows), never its values: a table larger than memory scans in memory of its row count.

#include "core/data/csv_reader.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace tw::data {

// Rows per index entry: a read decodes at most this many records to reach one row, and the index
// costs 1 byte a row.
inline constexpr int64_t kCsvBlockRows = 8;

// One feature's values over the kept rows (fills included), for the checks an int64 Input needs
// without a second pass: one-hot features are 0 and 1.
struct CsvFeatureRange {
  double min = 0, max = 0;
  bool integral = true;
  std::string firstFraction;  // the first value that is no integer, as written ("2.5")
  int64_t firstFractionLine = 0;
};

class CsvLayout {
 public:
  struct Column {
    std::string name;
    size_t index = 0;  // field position in the file
    bool categorical = false;
    int64_t offset = 0;                             // first feature
    std::unordered_map<std::string, int64_t> slot;  // categorical: value -> one-hot position
    double fill = 0;                                // numeric: what a missing value becomes
    int64_t fillSlot = -1;                          // categorical: where a missing value goes (-1: none)
  };

  // Whether data.missing: drop leaves this row out (a used value or the target missing).
  bool drops(const std::vector<std::string> &fields) const;
  // The row's width() features into `out` (every one written), and its class index or target.
  // False when a value is one the scan never saw or no longer parses: the file changed.
  bool encode(const std::vector<std::string> &fields, float *out, int64_t *label = nullptr,
              float *target = nullptr) const;
  int64_t width() const { return m_width; }
  size_t fieldCount() const { return m_fieldCount; }  // the header's width

 private:
  friend struct CsvScanner;
  std::vector<Column> m_columns;
  size_t m_target = 0;
  bool m_classification = true;
  MissingPolicy m_policy = MissingPolicy::Error;
  std::unordered_map<std::string, int64_t> m_classOf;
  int64_t m_width = 0;
  size_t m_fieldCount = 0;
};

struct CsvScan {
  // Everything of the table but its features: the examples hold the kept rows' labels (or
  // targets), count, classes, class and feature names; featureShape is {width}.
  CsvTable table;
  CsvLayout layout;
  std::vector<CsvFeatureRange> ranges;  // one per feature
  int64_t headerLine = 0;
  // With index: where kept row k * kCsvBlockRows begins (its byte offset), for each k, and the
  // offset just past the last kept row.
  std::vector<uint64_t> blockOffsets;
  uint64_t endOffset = 0;
};

// Reads `path` once. Throws std::runtime_error naming the file, line and column (csv_reader.h's
// messages).
CsvScan scanCsv(const std::string &path, const CsvOptions &options, bool index = false);

// The scanned table's values, read in a second pass: readCsv's result (csv_reader.h).
CsvTable readCsvValues(const std::string &path, const CsvOptions &options, CsvScan &&scan);

}  // namespace tw::data
