#pragma once
// The record layer of the CSV reader: RFC 4180 fields out of a file streamed in chunks (a 100 MB
// file is never held in memory), with the physical line each record starts on, for messages.
//
//   tw::data::CsvRecordReader reader("data.csv", ',');
//   std::vector<std::string> fields;
//   while (reader.next(fields))
//     use(fields, reader.recordLine());   // fields.size() may differ from row to row
//
//   CsvRecordReader block(text, "data.csv", ',', 812);  // records of a stretch already in memory
//
// Quoted fields may hold the delimiter, doubled quotes ("") and line breaks; LF, CRLF and lone CR
// all end a record; a UTF-8 byte-order mark before the header is skipped. Unquoted fields lose
// surrounding spaces and tabs ("1, 2" reads as "1" and "2"); quoted ones are kept exactly.

#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace tw::data {

class CsvRecordReader {
 public:
  // Throws std::runtime_error "<path>: no such file" (or "cannot open", "is a folder").
  CsvRecordReader(const std::string &path, char delimiter);
  // Records of `text`, a stretch of `path` that begins at a record on line `firstLine` (a streamed
  // table's block, csv_rows.h). `text` must outlive the reader; nothing is skipped at its start.
  CsvRecordReader(std::string_view text, const std::string &path, char delimiter, int64_t firstLine);

  // The next record, or false at the end of the file. Blank lines are skipped. Throws
  // std::runtime_error "<path>:<line>: unterminated quoted field" when a quote never closes.
  bool next(std::vector<std::string> &fields);
  int64_t recordLine() const { return m_recordLine; }  // 1-based physical line of the last record
  uint64_t recordOffset() const { return m_recordOffset; }  // its first byte, from the file's start
  uint64_t offset() const { return m_base + m_pos; }        // the first byte not yet read
  const std::string &path() const { return m_path; }

 private:
  bool readRecord(std::vector<std::string> &fields);
  int get() {
    if (m_pos == m_end && !refill()) return -1;
    return static_cast<unsigned char>(m_data[m_pos++]);
  }
  int peek() {
    if (m_pos == m_end && !refill()) return -1;
    return static_cast<unsigned char>(m_data[m_pos]);
  }
  bool refill();

  std::string m_path;
  std::ifstream m_in;
  char m_delimiter;
  std::vector<char> m_buffer;
  const char *m_data = nullptr;  // m_buffer's, or the text given
  bool m_fromText = false;
  uint64_t m_base = 0;           // the file offset of m_data[0]
  size_t m_pos = 0;
  size_t m_end = 0;
  int64_t m_line = 1;  // the line the next character is on
  int64_t m_recordLine = 0;
  uint64_t m_recordOffset = 0;
};

// A whole field as a finite number, in the C locale whatever the process locale is ("1.5", "-2e3",
// "+4"); false for anything else, including "inf" and "nan".
bool parseNumber(std::string_view text, double &value);

}  // namespace tw::data
