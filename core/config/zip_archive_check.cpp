#include "core/config/zip_archive_check.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <vector>

#include <zlib.h>

namespace tw::config {

namespace {

constexpr uint32_t kEndSignature = 0x06054b50;        // "PK\5\6"
constexpr uint32_t kDirectorySignature = 0x02014b50;  // "PK\1\2"
constexpr uint32_t kZip64LocatorSignature = 0x07064b50;
constexpr size_t kEndSize = 22;
constexpr size_t kMaxComment = 0xffff;
constexpr uint64_t kMaxDeflateRatio = 1032;

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

namespace {

// The 64-bit values of the fields set to 0xffffffff, from the ZIP64 extended information extra
// field (id 1: uncompressed size, compressed size, local header offset, each only when its
// 32-bit field is 0xffffffff). False when that field is shorter than the values it must hold.
bool readZip64Sizes(const unsigned char *extra, uint16_t length, uint64_t *unpacked, uint64_t *packed,
                    uint64_t *localAt) {
  for (uint32_t at = 0; at + 4 <= length;) {
    const uint16_t id = le16(extra + at), size = le16(extra + at + 2);
    if (at + 4 + size > length) return false;
    if (id == 1) {
      uint32_t field = at + 4;
      for (uint64_t *value : {unpacked, packed, localAt}) {
        if (*value != 0xffffffffu) continue;
        if (field + 8 > at + 4 + size) return false;
        *value = uint64_t(le32(extra + field)) | uint64_t(le32(extra + field + 4)) << 32;
        field += 8;
      }
      return true;
    }
    at += 4 + size;
  }
  return true;
}

}  // namespace

bool looksLikeZip(const std::string &bytes) {
  const auto *data = reinterpret_cast<const unsigned char *>(bytes.data());
  const uint64_t size = bytes.size();
  if (size < 4) return false;
  const uint64_t from = size > kEndSize + kMaxComment ? size - (kEndSize + kMaxComment) : 0;
  for (uint64_t at = size - 4 + 1; at-- > from;)
    if (le32(data + at) == kEndSignature) return true;
  return false;
}

std::string zipMembersProblem(const std::string &bytes) {
  const auto *data = reinterpret_cast<const unsigned char *>(bytes.data());
  const uint64_t size = bytes.size();
  if (size < kEndSize) return "too short to be a zip archive";
  const uint64_t tail = std::min<uint64_t>(size, kEndSize + kMaxComment);
  uint64_t record = size;
  for (uint64_t at = size - kEndSize + 1; at-- > size - tail;)
    if (le32(data + at) == kEndSignature && at + kEndSize + le16(data + at + 20) == size) {
      record = at;
      break;
    }
  if (record == size) return "no zip directory at its end";
  const uint32_t directorySize = le32(data + record + 12);
  const uint32_t directoryAt = le32(data + record + 16);
  if (directoryAt == 0xffffffffu || directorySize == 0xffffffffu) return {};  // ZIP64: past 4 GiB, not checked here
  if (uint64_t(directoryAt) + directorySize > record) return "its zip directory lies beyond its end";
  constexpr uint32_t kLocalSignature = 0x04034b50;  // "PK\3\4"
  for (uint64_t at = directoryAt; at < uint64_t(directoryAt) + directorySize;) {
    if (at + 46 > record || le32(data + at) != kDirectorySignature) return "its zip directory is damaged";
    const uint16_t method = le16(data + at + 10);
    const uint32_t crc = le32(data + at + 16);
    uint64_t packed = le32(data + at + 20), unpacked = le32(data + at + 24);
    const uint16_t nameLength = le16(data + at + 28), extraLength = le16(data + at + 30);
    const uint64_t next = at + 46 + nameLength + extraLength + le16(data + at + 32);
    uint64_t localAt = le32(data + at + 42);
    if (next > record) return "its zip directory is damaged";
    const std::string name(bytes, at + 46, nameLength);
    // A field of 0xffffffff is in the member's ZIP64 extra field, as 64 bits, when it has one
    // (readers take it from there); without one it is the value. Either way it is checked.
    if (!readZip64Sizes(data + at + 46 + nameLength, extraLength, &unpacked, &packed, &localAt))
      return "member '" + name + "' has a damaged ZIP64 field";
    at = next;
    // 64-bit values: compared without sums that could wrap around.
    if (localAt > directoryAt || directoryAt - localAt < 30 || le32(data + localAt) != kLocalSignature)
      return "member '" + name + "' is not where the zip directory says";
    const uint64_t start = localAt + 30 + le16(data + localAt + 26) + le16(data + localAt + 28);
    if (start > directoryAt || packed > directoryAt - start || (method == 0 && packed != unpacked))
      return "member '" + name + "' does not fit inside the archive";
    // A compressed member's reader allocates the size the directory claims before it inflates
    // (tests/fuzz/checkpoint: 4 GiB from 14 bytes); deflate never expands beyond 1,032 to 1.
    if (method != 0) {
      if (uint64_t(unpacked) > uint64_t(packed) * kMaxDeflateRatio + 64)
        return "member '" + name + "' claims " + withThousands(unpacked) + " bytes unpacked from " +
               withThousands(packed) + ", more than compression can give";
      continue;  // its bytes are checked by the reader that inflates them
    }
    const auto sum = static_cast<uint32_t>(::crc32(0L, data + start, static_cast<uInt>(packed)));  // < 4 GiB here
    if (sum != crc) return "member '" + name + "' is damaged: its bytes do not match their CRC-32";
  }
  return {};
}

}  // namespace tw::config
