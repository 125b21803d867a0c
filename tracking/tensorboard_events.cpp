#include "tracking/tensorboard_events.h"

#include "tracking/proto_wire.h"
#include "tracking/tensorboard_hparams.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace tw::tracking {

namespace {

using wire::Field;
using wire::fields;
using wire::fixedFrom;

std::array<uint32_t, 256> crcTable() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
    table[i] = c;
  }
  return table;
}

std::string event(double wallTime, int64_t step) {
  std::string e;
  wire::doubleField(e, 1, wallTime);
  if (step != 0) wire::varintField(e, 2, static_cast<uint64_t>(step));
  return e;
}

// A TensorProto that holds one float or double (dtype 1 or 2): in float_val/double_val or as raw
// tensor_content.
bool tensorScalar(std::string_view tensor, double *value) {
  uint64_t dtype = 0;
  std::vector<double> values;
  std::string_view content;
  for (const Field &f : fields(tensor)) {
    if (f.number == 1 && f.type == 0) dtype = f.varint;
    if (f.number == 4 && f.type == 2) content = f.bytes;
    if (f.number == 5 && f.type == 2)  // packed floats
      for (size_t k = 0; k + 4 <= f.bytes.size(); k += 4) values.push_back(fixedFrom<float>(f.bytes.substr(k, 4)));
    if (f.number == 5 && f.type == 5) values.push_back(fixedFrom<float>(f.bytes));
    if (f.number == 6 && f.type == 2)
      for (size_t k = 0; k + 8 <= f.bytes.size(); k += 8) values.push_back(fixedFrom<double>(f.bytes.substr(k, 8)));
    if (f.number == 6 && f.type == 1) values.push_back(fixedFrom<double>(f.bytes));
  }
  if (dtype == 1 && content.size() == 4) values.push_back(fixedFrom<float>(content));
  if (dtype == 2 && content.size() == 8) values.push_back(fixedFrom<double>(content));
  if ((dtype != 1 && dtype != 2) || values.size() != 1) return false;
  *value = values[0];
  return true;
}

double now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

uint32_t crc32c(const void *data, size_t size) {
  static const std::array<uint32_t, 256> table = crcTable();
  const auto *p = static_cast<const unsigned char *>(data);
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < size; ++i) c = table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

uint32_t maskedCrc32c(const void *data, size_t size) {
  const uint32_t c = crc32c(data, size);
  return ((c >> 15) | (c << 17)) + 0xA282EAD8u;
}

std::string tfRecord(const std::string &data) {
  std::string out;
  const uint64_t length = data.size();
  wire::fixed(out, length);
  wire::fixed(out, maskedCrc32c(&length, sizeof length));
  out += data;
  wire::fixed(out, maskedCrc32c(data.data(), data.size()));
  return out;
}

EventFileContents readEventFile(const std::string &path) {
  std::FILE *file = std::fopen(path.c_str(), "rb");
  if (!file) throw std::runtime_error("cannot read '" + path + "': " + std::strerror(errno));
  std::string all;
  char buffer[1 << 16];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, file)) > 0;) all.append(buffer, n);
  std::fclose(file);
  EventFileContents contents;
  size_t at = 0;
  for (int64_t index = 0; at < all.size(); ++index) {
    const std::string where = "record " + std::to_string(index) + " at byte " + std::to_string(at);
    if (all.size() - at < 12) {
      contents.problems.push_back(where + " is cut short (a writer still running, or a truncated copy)");
      break;
    }
    const uint64_t length = fixedFrom<uint64_t>(std::string_view(all).substr(at, 8));
    if (fixedFrom<uint32_t>(std::string_view(all).substr(at + 8, 4)) != maskedCrc32c(all.data() + at, 8)) {
      contents.problems.push_back(where + ": its length fails its CRC; the rest of the file cannot be framed");
      break;
    }
    if (all.size() - at - 12 < 4 || length > all.size() - at - 16) {
      contents.problems.push_back(where + " is cut short (a writer still running, or a truncated copy)");
      break;
    }
    const std::string_view data = std::string_view(all).substr(at + 12, length);
    const uint32_t crc = fixedFrom<uint32_t>(std::string_view(all).substr(at + 12 + length, 4));
    at += 16 + length;
    if (crc != maskedCrc32c(data.data(), data.size())) {
      contents.problems.push_back(where + ": its data fails its CRC; skipped");
      continue;
    }
    double wallTime = 0.0;
    int64_t step = 0;
    std::vector<Field> values;
    for (const Field &f : fields(data)) {
      if (f.number == 1 && f.type == 1) wallTime = fixedFrom<double>(f.bytes);
      if (f.number == 2 && f.type == 0) step = static_cast<int64_t>(f.varint);
      if (f.number == 5 && f.type == 2)
        for (const Field &value : fields(f.bytes))
          if (value.number == 1 && value.type == 2) values.push_back(value);
    }
    for (const Field &value : values) {
      if (auto hparams = hparamsOfSummaryValue(value.bytes)) {
        contents.hparams.merge(*hparams);
        continue;
      }
      EventScalar scalar{{}, step, 0.0, wallTime};
      bool found = false;
      for (const Field &g : fields(value.bytes)) {
        if (g.number == 1 && g.type == 2) scalar.tag = std::string(g.bytes);
        if (g.number == 2 && g.type == 5) {
          scalar.value = fixedFrom<float>(g.bytes);
          found = true;
        }
        if (g.number == 8 && g.type == 2) found = tensorScalar(g.bytes, &scalar.value) || found;
      }
      if (found && !scalar.tag.empty()) contents.scalars.push_back(scalar);
    }
  }
  return contents;
}

TensorBoardWriter::TensorBoardWriter(const std::string &folder, double wallTime) {
  if (wallTime <= 0.0) wallTime = now();
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  char host[256] = "localhost";
  ::gethostname(host, sizeof host - 1);
  m_path = (std::filesystem::path(folder) /
            ("events.out.tfevents." + std::to_string(static_cast<int64_t>(wallTime)) + "." + host))
               .string();
  m_file = std::fopen(m_path.c_str(), "wb");
  if (!m_file) throw std::runtime_error("cannot write '" + m_path + "': " + std::strerror(errno));
  std::string first = event(wallTime, 0);
  wire::bytesField(first, 3, "brain.Event:2");
  write(first);
}

TensorBoardWriter::~TensorBoardWriter() {
  if (m_file) std::fclose(m_file);
}

void TensorBoardWriter::scalar(const std::string &tag, int64_t step, double value, double wallTime) {
  std::string summaryValue;
  wire::bytesField(summaryValue, 1, tag);
  wire::floatField(summaryValue, 2, static_cast<float>(value));
  std::string summaryMessage;
  wire::bytesField(summaryMessage, 1, summaryValue);
  summary(summaryMessage, step, wallTime);
}

void TensorBoardWriter::summary(const std::string &summary, int64_t step, double wallTime) {
  std::string e = event(wallTime, step);
  wire::bytesField(e, 5, summary);
  write(e);
}

void TensorBoardWriter::graph(const std::string &graphDef, double wallTime) {
  std::string e = event(wallTime, 0);
  wire::bytesField(e, 4, graphDef);
  write(e);
}

void TensorBoardWriter::histogram(const std::string &tag, int64_t step, const std::vector<double> &values,
                                  double wallTime, int buckets) {
  if (values.empty()) return;
  const auto [lowest, highest] = std::minmax_element(values.begin(), values.end());
  const double low = *lowest, high = *highest;
  double sum = 0.0, squares = 0.0;
  for (double v : values) sum += v, squares += v * v;
  // Right edges of equal-width buckets; one bucket when every value is the same.
  const int n = high > low ? std::max(1, buckets) : 1;
  std::vector<double> limits, counts(static_cast<size_t>(n), 0.0);
  for (int b = 1; b <= n; ++b) limits.push_back(b == n ? high : low + (high - low) * b / n);
  for (double v : values) {
    int b = high > low ? static_cast<int>((v - low) / (high - low) * n) : 0;
    counts[static_cast<size_t>(std::clamp(b, 0, n - 1))] += 1.0;
  }
  std::string histo;
  wire::doubleField(histo, 1, low);
  wire::doubleField(histo, 2, high);
  wire::doubleField(histo, 3, static_cast<double>(values.size()));
  wire::doubleField(histo, 4, sum);
  wire::doubleField(histo, 5, squares);
  std::string packedLimits, packedCounts;
  for (double l : limits) wire::fixed(packedLimits, l);
  for (double c : counts) wire::fixed(packedCounts, c);
  wire::bytesField(histo, 6, packedLimits);
  wire::bytesField(histo, 7, packedCounts);
  std::string summaryValue;
  wire::bytesField(summaryValue, 1, tag);
  wire::bytesField(summaryValue, 5, histo);
  std::string summaryMessage;
  wire::bytesField(summaryMessage, 1, summaryValue);
  summary(summaryMessage, step, wallTime);
}

void TensorBoardWriter::write(const std::string &data) {
  const std::string record = tfRecord(data);
  if (std::fwrite(record.data(), 1, record.size(), m_file) != record.size())
    throw std::runtime_error("cannot write '" + m_path + "': " + std::strerror(errno));
}

void TensorBoardWriter::flush() {
  if (std::fflush(m_file) != 0) throw std::runtime_error("cannot write '" + m_path + "': " + std::strerror(errno));
}

}  // namespace tw::tracking
