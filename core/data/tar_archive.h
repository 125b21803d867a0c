#pragma once
// POSIX (ustar) tar archives, the container WebDataset shards use: a 512-byte header per member,
// its bytes padded to 512, two zero blocks at the end. Python's tarfile, GNU tar and WebDataset
// read what TarWriter writes. Members are written with mode 0644, owner 0 and mtime 0, so the same
// examples give the same bytes (and the same SHA-256) on every machine.
//
//   TarWriter tar("shard-000000.tar");
//   uint64_t at = tar.add("000000000.jpg", bytes);   // the member's header offset
//   tar.finish();
//   for (const TarMember &m : listTar("shard-000000.tar")) ...

#include "core/config/sha256.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace tw::data {

constexpr uint64_t kTarBlock = 512;

struct TarMember {
  std::string name;
  uint64_t headerOffset = 0;  // where its header starts
  uint64_t dataOffset = 0;    // where its bytes start (headerOffset + 512)
  uint64_t size = 0;
};

class TarWriter {
 public:
  // Creates the file, which must not exist (not even as a link: nothing is written through one);
  // throws std::runtime_error naming it when it cannot.
  explicit TarWriter(const std::string &path);
  ~TarWriter();
  TarWriter(const TarWriter &) = delete;
  TarWriter &operator=(const TarWriter &) = delete;

  // Appends one regular file; returns its header's offset. Names are at most 100 bytes (keys and
  // extensions here are short); throws std::runtime_error on a longer name or a failed write
  // (a full disk names the file).
  uint64_t add(const std::string &name, const void *data, uint64_t size);
  uint64_t add(const std::string &name, const std::string &bytes) { return add(name, bytes.data(), bytes.size()); }
  // Bytes written so far, the end-of-archive blocks excluded.
  uint64_t bytes() const { return m_offset; }
  // Writes the end-of-archive blocks and closes; throws on a failed write or close. Returns the
  // SHA-256 of the whole file, hashed as it was written.
  std::string finish();

 private:
  void write(const void *data, uint64_t size);

  std::string m_path;
  std::FILE *m_file = nullptr;
  uint64_t m_offset = 0;
  config::Sha256 m_hash;
};

// Every regular member in order. Throws std::runtime_error naming the file and offset when a
// header's checksum is wrong or the archive ends inside a member (a truncated shard).
std::vector<TarMember> listTar(const std::string &path);

// The header at `headerOffset` parsed (its checksum checked), for random access through an index.
TarMember readTarHeader(std::FILE *file, const std::string &path, uint64_t headerOffset);
// The same from a 512-byte block already read (`path` and `headerOffset` name it in errors).
TarMember parseTarHeader(const unsigned char *block, const std::string &path, uint64_t headerOffset);
// A member's bytes padded to whole blocks: where the next header starts after its data.
inline uint64_t tarPadded(uint64_t size) { return (size + kTarBlock - 1) / kTarBlock * kTarBlock; }

}  // namespace tw::data
