#include "tracking/tensorboard_events.h"

#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <stdexcept>

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

void TensorBoardWriter::write(const std::string &data) {
  const std::string record = tfRecord(data);
  if (std::fwrite(record.data(), 1, record.size(), m_file) != record.size())
    throw std::runtime_error("cannot write '" + m_path + "': " + std::strerror(errno));
}

void TensorBoardWriter::flush() {
  if (std::fflush(m_file) != 0) throw std::runtime_error("cannot write '" + m_path + "': " + std::strerror(errno));
}

}  // namespace tw::tracking
