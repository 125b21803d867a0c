#pragma once
// Plain-text tables for the terminal: columns sized to their widest cell, numbers right-aligned.

#include "app/common/value_text.h"

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

// The tables' values, as the HTML report writes them too.
using app::formatDuration;
using app::formatMetric;
using app::formatTimestamp;

}  // namespace tw::cli
