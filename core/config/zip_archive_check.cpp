#include "core/config/zip_archive_check.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <vector>

namespace tw::config {

namespace {

constexpr uint32_t kEndSignature = 0x06054b50;        // "PK\5\6"
constexpr uint32_t kDirectorySignature = 0x02014b50;  // "PK\1\2"
constexpr uint32_t kZip64LocatorSignature = 0x07064b50;
constexpr size_t kEndSize = 22;
constexpr size_t kMaxComment = 0xffff;

uint32_t le32(const unsigned char *p) { return p[0] | (p[1] << 8) | (p[2] << 16) | (uint32_t(p[3]) << 24); }
uint16_t le16(const unsigned char *p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }

std::string withThousands(uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace

std::string zipArchiveProblem(const std::string &path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return std::string("cannot be read: ") + std::strerror(errno);
  const auto size = static_cast<uint64_t>(in.tellg());
  const std::string bytes = " (" + withThousands(size) + " bytes)";
  const std::string truncated = "is truncated or is not a zip archive, as checkpoints and torch.save files are: ";
  if (size < kEndSize) return truncated + "too short to be a zip archive" + bytes;
  const uint64_t tail = std::min<uint64_t>(size, kEndSize + kMaxComment);
  std::vector<unsigned char> end(tail);
  in.seekg(static_cast<std::streamoff>(size - tail));
  if (!in.read(reinterpret_cast<char *>(end.data()), static_cast<std::streamsize>(tail)))
    return std::string("cannot be read: ") + std::strerror(errno);
  // The record is the last one whose comment reaches exactly to the end of the file.
  for (size_t at = tail - kEndSize + 1; at-- > 0;) {
    if (le32(&end[at]) != kEndSignature || at + kEndSize + le16(&end[at + 20]) != tail) continue;
    const uint64_t recordAt = size - tail + at;
    const uint32_t directorySize = le32(&end[at + 12]);
    const uint32_t directoryAt = le32(&end[at + 16]);
    // Past 4 GiB the fields say 0xffffffff and a ZIP64 record holds them; its locator sits just
    // before this record, which is as far as the check goes.
    if (directoryAt == 0xffffffffu || directorySize == 0xffffffffu)
      return at >= 20 && le32(&end[at - 20]) == kZip64LocatorSignature
                 ? std::string()
                 : truncated + "its zip directory record is damaged" + bytes;
    if (uint64_t(directoryAt) + directorySize > recordAt)
      return truncated + "its zip directory lies beyond the end of the file" + bytes;
    unsigned char first[4] = {};
    in.seekg(static_cast<std::streamoff>(directoryAt));
    if (directorySize > 0 && (!in.read(reinterpret_cast<char *>(first), 4) || le32(first) != kDirectorySignature))
      return truncated + "its zip directory is damaged" + bytes;
    return {};
  }
  return truncated + "no zip directory at its end" + bytes;
}

}  // namespace tw::config
