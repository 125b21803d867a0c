#include "core/data/csv_parser.h"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <stdexcept>

namespace tw::data {

namespace {

void trimUnquoted(std::string &field) {
  size_t begin = 0, end = field.size();
  while (begin < end && (field[begin] == ' ' || field[begin] == '\t')) ++begin;
  while (end > begin && (field[end - 1] == ' ' || field[end - 1] == '\t')) --end;
  field.erase(end);
  field.erase(0, begin);
}

}  // namespace

CsvRecordReader::CsvRecordReader(const std::string &path, char delimiter)
    : m_path(path), m_delimiter(delimiter), m_buffer(1 << 20), m_data(m_buffer.data()) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw std::runtime_error(path + ": no such file");
  if (std::filesystem::is_directory(path, ec))
    throw std::runtime_error(path + ": is a folder, not a CSV file");
  m_in.open(path, std::ios::binary);
  if (!m_in) throw std::runtime_error(path + ": cannot open (check its permissions)");
  // Spreadsheet programs often save UTF-8 with a byte-order mark, which would stick to the first
  // column's name and make "id" unfindable.
  if (refill() && m_end >= 3 && static_cast<unsigned char>(m_buffer[0]) == 0xEF &&
      static_cast<unsigned char>(m_buffer[1]) == 0xBB && static_cast<unsigned char>(m_buffer[2]) == 0xBF)
    m_pos = 3;
}

CsvRecordReader::CsvRecordReader(std::string_view text, const std::string &path, char delimiter, int64_t firstLine)
    : m_path(path), m_delimiter(delimiter), m_data(text.data()), m_fromText(true), m_end(text.size()),
      m_line(firstLine) {}

bool CsvRecordReader::refill() {
  if (m_fromText || !m_in) return false;
  m_base += m_end;
  m_in.read(m_buffer.data(), static_cast<std::streamsize>(m_buffer.size()));
  m_pos = 0;
  m_end = static_cast<size_t>(m_in.gcount());
  return m_end > 0;
}

bool CsvRecordReader::next(std::vector<std::string> &fields) {
  while (readRecord(fields))
    if (!(fields.size() == 1 && fields[0].empty())) return true;
  return false;
}

bool CsvRecordReader::readRecord(std::vector<std::string> &fields) {
  int c = get();
  if (c < 0) {
    fields.clear();
    return false;
  }
  m_recordLine = m_line;
  m_recordOffset = m_base + m_pos - 1;
  // The fields' strings are reused from record to record: their capacity is kept, so a long file
  // is parsed without an allocation per field.
  size_t n = 0;
  const auto open = [&]() -> std::string & {
    if (n == fields.size()) fields.emplace_back();
    else fields[n].clear();
    return fields[n++];
  };
  std::string *field = &open();
  bool quoted = false;
  for (;;) {
    if (c == '"' && field->empty() && !quoted) {
      quoted = true;
      for (;;) {
        c = get();
        if (c < 0)
          throw std::runtime_error(m_path + ":" + std::to_string(m_recordLine) +
                                   ": unterminated quoted field (a \" opened here never closes)");
        if (c == '"') {
          if (peek() != '"') break;
          get();
        } else if (c == '\n') {
          ++m_line;
        }
        field->push_back(static_cast<char>(c));
      }
      // Whitespace between the closing quote and the delimiter is noise, not data.
      while ((c = peek()) == ' ' || c == '\t') get();
      c = get();
      continue;
    }
    if (c < 0 || c == '\n' || c == '\r' || c == m_delimiter) {
      if (!quoted) trimUnquoted(*field);
      if (c == m_delimiter) {
        field = &open();
        quoted = false;
        c = get();
        continue;
      }
      if (c == '\r' && peek() == '\n') get();
      if (c >= 0) ++m_line;
      fields.resize(n);
      return true;
    }
    field->push_back(static_cast<char>(c));
    c = get();
  }
}

bool parseNumber(std::string_view text, double &value) {
  // from_chars takes no leading '+', which people and spreadsheets do write; it takes '-' itself.
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty()) return false;
  // from_chars ignores the locale: a Qt process runs under the user's locale, where strtod would
  // read "1,5" and reject "1.5".
  const char *end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc() && ptr == end && std::isfinite(value);
}

}  // namespace tw::data
