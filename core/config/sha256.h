#pragma once
// SHA-256 for configuration hashes and data fingerprints (stable across machines and versions).
//
//   tw::config::Sha256 h; h.update(bytes, n); std::string hex = h.hexDigest();

#include <cstddef>
#include <cstdint>
#include <string>

namespace tw::config {

class Sha256 {
 public:
  Sha256();
  void update(const void *data, size_t size);
  void update(const std::string &text) { update(text.data(), text.size()); }
  std::string hexDigest();  // finishes the hash; call once

  // Whether this machine's CPU hashes with the x86 SHA extensions (else portable C++).
  static bool hardwareAccelerated();
  // The portable path's digest whatever the CPU, for the test that holds the two paths equal.
  static std::string portableHexForTesting(const void *data, size_t size);

 private:
  void blocks(const uint8_t *chunk, size_t count);
  bool m_portable = false;
  uint32_t m_state[8];
  uint8_t m_buffer[64];
  size_t m_bufferSize = 0;
  uint64_t m_totalBytes = 0;
};

std::string sha256Hex(const std::string &text);
// The SHA-256 of a file's bytes, read in blocks; empty when the file cannot be read.
std::string fileSha256Hex(const std::string &path);

}  // namespace tw::config
