#include "core/data/tar_archive.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <sys/stat.h>

namespace tw::data {
namespace {

// Octal digits, NUL-terminated, right-aligned in `width` bytes (ustar's number fields).
void putOctal(char *field, size_t width, uint64_t value) {
  std::snprintf(field, width, "%0*llo", static_cast<int>(width - 1), static_cast<unsigned long long>(value));
}

uint64_t getOctal(const char *field, size_t width) {
  uint64_t value = 0;
  for (size_t i = 0; i < width && field[i]; ++i) {
    if (field[i] == ' ') continue;
    if (field[i] < '0' || field[i] > '7') throw std::runtime_error("not an octal number");
    value = value * 8 + static_cast<uint64_t>(field[i] - '0');
  }
  return value;
}

uint64_t checksum(const unsigned char *header) {
  uint64_t sum = 0;
  for (size_t i = 0; i < kTarBlock; ++i) sum += (i >= 148 && i < 156) ? ' ' : header[i];
  return sum;
}

uint64_t padded(uint64_t size) { return (size + kTarBlock - 1) / kTarBlock * kTarBlock; }

std::string where(const std::string &path, uint64_t offset) {
  return path + " (byte " + std::to_string(offset) + ")";
}

}  // namespace

TarWriter::TarWriter(const std::string &path) : m_path(path), m_file(std::fopen(path.c_str(), "wbx")) {
  if (!m_file) throw std::runtime_error(path + ": cannot create (" + std::strerror(errno) + ")");
}

TarWriter::~TarWriter() {
  if (m_file) std::fclose(m_file);
}

void TarWriter::write(const void *data, uint64_t size) {
  if (size && std::fwrite(data, 1, size, m_file) != size)
    throw std::runtime_error(m_path + ": write failed (" + std::strerror(errno) + ")");
  m_hash.update(data, size);
  m_offset += size;
}

uint64_t TarWriter::add(const std::string &name, const void *data, uint64_t size) {
  if (!m_file) throw std::logic_error(m_path + ": add after finish");
  if (name.empty() || name.size() > 100) throw std::runtime_error(m_path + ": member name '" + name + "' is not 1..100 bytes");
  unsigned char header[kTarBlock] = {};
  char *h = reinterpret_cast<char *>(header);
  std::memcpy(h, name.data(), name.size());
  putOctal(h + 100, 8, 0644);
  putOctal(h + 108, 8, 0);
  putOctal(h + 116, 8, 0);
  putOctal(h + 124, 12, size);
  putOctal(h + 136, 12, 0);
  h[156] = '0';
  std::memcpy(h + 257, "ustar", 6);
  std::memcpy(h + 263, "00", 2);
  std::snprintf(h + 148, 8, "%06llo", static_cast<unsigned long long>(checksum(header)));
  h[155] = ' ';
  const uint64_t at = m_offset;
  write(header, kTarBlock);
  write(data, size);
  static const unsigned char zeros[kTarBlock] = {};
  write(zeros, padded(size) - size);
  return at;
}

std::string TarWriter::finish() {
  static const unsigned char zeros[2 * kTarBlock] = {};
  const uint64_t end = m_offset;
  write(zeros, sizeof zeros);
  m_offset = end;
  const bool flushed = std::fflush(m_file) == 0;
  const bool closed = std::fclose(m_file) == 0;
  m_file = nullptr;
  if (!flushed || !closed) throw std::runtime_error(m_path + ": write failed (" + std::strerror(errno) + ")");
  return m_hash.hexDigest();
}

TarMember readTarHeader(std::FILE *file, const std::string &path, uint64_t headerOffset) {
  unsigned char header[kTarBlock];
  if (fseeko(file, static_cast<off_t>(headerOffset), SEEK_SET) != 0 || std::fread(header, 1, kTarBlock, file) != kTarBlock)
    throw std::runtime_error(where(path, headerOffset) + ": truncated: the archive ends inside a header");
  return parseTarHeader(header, path, headerOffset);
}

TarMember parseTarHeader(const unsigned char *header, const std::string &path, uint64_t headerOffset) {
  const char *h = reinterpret_cast<const char *>(header);
  TarMember member;
  try {
    if (getOctal(h + 148, 8) != checksum(header)) throw std::runtime_error("checksum");
    member.size = getOctal(h + 124, 12);
  } catch (const std::exception &) {
    throw std::runtime_error(where(path, headerOffset) + ": not a tar header (bad checksum): a damaged or foreign file");
  }
  member.name.assign(h, strnlen(h, 100));
  const size_t prefix = strnlen(h + 345, 155);
  if (std::memcmp(h + 257, "ustar", 5) == 0 && prefix) member.name = std::string(h + 345, prefix) + "/" + member.name;
  member.headerOffset = headerOffset;
  member.dataOffset = headerOffset + kTarBlock;
  return member;
}

std::vector<TarMember> listTar(const std::string &path) {
  std::FILE *file = std::fopen(path.c_str(), "rb");
  if (!file) throw std::runtime_error(path + ": cannot open (" + std::strerror(errno) + ")");
  struct stat info {};
  fstat(fileno(file), &info);
  const uint64_t fileSize = static_cast<uint64_t>(info.st_size);
  std::vector<TarMember> members;
  try {
    uint64_t at = 0;
    unsigned char block[kTarBlock];
    while (true) {
      if (fseeko(file, static_cast<off_t>(at), SEEK_SET) != 0 || std::fread(block, 1, kTarBlock, file) != kTarBlock)
        throw std::runtime_error(where(path, at) + ": truncated: no end-of-archive blocks");
      bool zero = true;
      for (unsigned char c : block) zero = zero && c == 0;
      if (zero) break;
      TarMember member = readTarHeader(file, path, at);
      const char type = static_cast<char>(block[156]);
      if (member.dataOffset + member.size > fileSize)
        throw std::runtime_error(where(path, at) + ": truncated: member '" + member.name + "' needs " +
                                 std::to_string(member.size) + " bytes, the file ends after " +
                                 std::to_string(fileSize - member.dataOffset));
      if (type == '0' || type == '\0') members.push_back(member);
      at = member.dataOffset + padded(member.size);
    }
  } catch (...) {
    std::fclose(file);
    throw;
  }
  std::fclose(file);
  return members;
}

}  // namespace tw::data
