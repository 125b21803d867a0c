#include "core/data/fingerprint.h"

#include <cstdio>

namespace tw::data {

void Fingerprint::frame(const std::string &label, uint64_t size) {
  uint8_t length[8];
  for (int i = 0; i < 8; ++i) length[i] = static_cast<uint8_t>(size >> (8 * (7 - i)));
  m_hash.update(label);
  m_hash.update("\0", 1);
  m_hash.update(length, sizeof length);
}

void Fingerprint::addBytes(const std::string &label, const void *data, size_t size) {
  frame(label, size);
  m_hash.update(data, size);
}

void Fingerprint::addOption(const std::string &key, const std::string &value) {
  addBytes("option:" + key, value.data(), value.size());
}

void Fingerprint::addOption(const std::string &key, int64_t value) {
  addOption(key, std::to_string(value));
}

void Fingerprint::addOption(const std::string &key, double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  addOption(key, std::string(text));
}

std::string Fingerprint::hexDigest() { return m_hash.hexDigest(); }

}  // namespace tw::data
