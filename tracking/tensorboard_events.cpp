#include "tracking/tensorboard_events.h"

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

std::array<uint32_t, 256> crcTable() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
    table[i] = c;
  }
  return table;
}

// Protocol-buffer wire format, the few pieces an Event needs.
void varint(std::string &out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}
void key(std::string &out, int field, int wireType) { varint(out, static_cast<uint64_t>(field) << 3 | wireType); }
template <class T>
void fixed(std::string &out, T v) {  // little-endian, as this machine and the wire format are
  char bytes[sizeof v];
  std::memcpy(bytes, &v, sizeof v);
  out.append(bytes, sizeof v);
}
void bytesField(std::string &out, int field, const std::string &bytes) {
  key(out, field, 2);
  varint(out, bytes.size());
  out += bytes;
}

std::string event(double wallTime, int64_t step) {
  std::string e;
  key(e, 1, 1);
  fixed(e, wallTime);
  if (step != 0) {
    key(e, 2, 0);
    varint(e, static_cast<uint64_t>(step));
  }
  return e;
}

// A message's fields, as far as they can be read: (number, wire type, varint or bytes).
struct Field {
  int number = 0;
  int type = 0;
  uint64_t varint = 0;
  std::string_view bytes;
};
std::vector<Field> fields(std::string_view message) {
  std::vector<Field> out;
  size_t i = 0;
  auto readVarint = [&](uint64_t &v) {
    v = 0;
    for (int shift = 0; i < message.size() && shift < 64; shift += 7) {
      const auto b = static_cast<unsigned char>(message[i++]);
      v |= uint64_t(b & 0x7F) << shift;
      if (!(b & 0x80)) return true;
    }
    return false;
  };
  while (i < message.size()) {
    uint64_t header = 0;
    if (!readVarint(header)) break;
    Field f;
    f.number = static_cast<int>(header >> 3);
    f.type = static_cast<int>(header & 7);
    size_t size = 0;
    if (f.type == 0) {
      if (!readVarint(f.varint)) break;
      out.push_back(f);
      continue;
    }
    if (f.type == 1) size = 8;
    else if (f.type == 5) size = 4;
    else if (f.type == 2) {
      uint64_t n = 0;
      if (!readVarint(n)) break;
      size = n;
    } else {
      break;  // groups and unknown wire types: nothing further is framed reliably
    }
    if (size > message.size() - i) break;
    f.bytes = message.substr(i, size);
    i += size;
    out.push_back(f);
  }
  return out;
}

template <class T>
T fixedFrom(std::string_view bytes) {
  T v{};
  std::memcpy(&v, bytes.data(), std::min(sizeof v, bytes.size()));
  return v;
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
  fixed(out, length);
  fixed(out, maskedCrc32c(&length, sizeof length));
  out += data;
  fixed(out, maskedCrc32c(data.data(), data.size()));
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
  bytesField(first, 3, "brain.Event:2");
  write(first);
}

TensorBoardWriter::~TensorBoardWriter() {
  if (m_file) std::fclose(m_file);
}

void TensorBoardWriter::scalar(const std::string &tag, int64_t step, double value, double wallTime) {
  std::string summaryValue;
  bytesField(summaryValue, 1, tag);
  key(summaryValue, 2, 5);
  fixed(summaryValue, static_cast<float>(value));
  std::string summary;
  bytesField(summary, 1, summaryValue);
  std::string e = event(wallTime, step);
  bytesField(e, 5, summary);
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
  key(histo, 1, 1), fixed(histo, low);
  key(histo, 2, 1), fixed(histo, high);
  key(histo, 3, 1), fixed(histo, static_cast<double>(values.size()));
  key(histo, 4, 1), fixed(histo, sum);
  key(histo, 5, 1), fixed(histo, squares);
  std::string packedLimits, packedCounts;
  for (double l : limits) fixed(packedLimits, l);
  for (double c : counts) fixed(packedCounts, c);
  bytesField(histo, 6, packedLimits);
  bytesField(histo, 7, packedCounts);
  std::string summaryValue;
  bytesField(summaryValue, 1, tag);
  bytesField(summaryValue, 5, histo);
  std::string summary;
  bytesField(summary, 1, summaryValue);
  std::string e = event(wallTime, step);
  bytesField(e, 5, summary);
  write(e);
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
