#pragma once
// Plain-text tables for the terminal: columns sized to their widest cell, numbers right-aligned.

#include <string>
#include <vector>

namespace tw::cli {

class TablePrinter {
 public:
  explicit TablePrinter(std::vector<std::string> headers, std::vector<bool> rightAligned = {});
  void addRow(std::vector<std::string> cells);
  std::string str() const;

 private:
  std::vector<std::string> m_headers;
  std::vector<bool> m_right;
  std::vector<std::vector<std::string>> m_rows;
};

std::string formatDuration(int64_t ms);        // "1h02m", "3m07s", "12.4s"
std::string formatTimestamp(int64_t epochMs);  // local "2026-12-02 18:44:30"
std::string formatMetric(double value);        // "0.8831"

}  // namespace tw::cli
