#pragma once
// A data fingerprint: SHA-256 over the bytes a run trained on and the options that shaped them,
// so that two runs can be told to have seen the same data (or not) months later.
//
//   tw::data::Fingerprint fp;
//   fp.addBytes("train-images", images.pixels.data(), images.pixels.size());
//   fp.addOption("normalize", "true");
//   std::string hex = fp.hexDigest();   // 64 hex chars

#include "core/config/sha256.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace tw::data {

class Fingerprint {
 public:
  // Each entry is framed with its label and length, so ("ab","c") and ("a","bc") differ.
  void addBytes(const std::string &label, const void *data, size_t size);
  // addBytes in pieces, for data never held whole: the label and the total size first, then
  // exactly that many bytes through appendBytes; the digest is addBytes's.
  void beginBytes(const std::string &label, uint64_t size) { frame(label, size); }
  void appendBytes(const void *data, size_t size) { m_hash.update(data, size); }
  void addOption(const std::string &key, const std::string &value);
  void addOption(const std::string &key, int64_t value);
  void addOption(const std::string &key, double value);  // printed with %.17g: exact round trip
  std::string hexDigest();  // finishes the hash; call once

 private:
  void frame(const std::string &label, uint64_t size);
  config::Sha256 m_hash;
};

}  // namespace tw::data
