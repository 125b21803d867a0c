#include "app/cli/table_printer.h"

#include <algorithm>
#include <cstdio>
#include <ctime>

namespace tw::cli {

TablePrinter::TablePrinter(std::vector<std::string> headers, std::vector<bool> rightAligned)
    : m_headers(std::move(headers)), m_right(std::move(rightAligned)) {
  m_right.resize(m_headers.size(), false);
}

void TablePrinter::addRow(std::vector<std::string> cells) {
  cells.resize(m_headers.size());
  m_rows.push_back(std::move(cells));
}

std::string TablePrinter::str() const {
  std::vector<size_t> width(m_headers.size());
  for (size_t c = 0; c < m_headers.size(); ++c) width[c] = m_headers[c].size();
  for (const auto &row : m_rows)
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  auto line = [&](const std::vector<std::string> &cells) {
    std::string out;
    for (size_t c = 0; c < cells.size(); ++c) {
      std::string pad(width[c] - cells[c].size(), ' ');
      out += m_right[c] ? pad + cells[c] : cells[c] + (c + 1 < cells.size() ? pad : "");
      if (c + 1 < cells.size()) out += "  ";
    }
    return out + "\n";
  };
  std::string out = line(m_headers);
  size_t total = 0;
  for (size_t w : width) total += w + 2;
  out += std::string(total > 2 ? total - 2 : 0, '-') + "\n";
  for (const auto &row : m_rows) out += line(row);
  return out;
}

}  // namespace tw::cli
