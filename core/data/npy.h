#pragma once
// NumPy's .npy format (version 1.0, little-endian, C order): how a packed shard stores an array
// example, so `numpy.load` and WebDataset's decoders read it as they read any .npy member.
//
//   std::string bytes = npyBytes(NpyType::Uint8, {1, 28, 28}, pixels, 784);
//   NpyArray a = parseNpy(bytes, "train-000000.tar:000000042.npy");

#include <cstdint>
#include <string>
#include <vector>

namespace tw::data {

enum class NpyType { Uint8, Float32, Int64 };

const char *npyDescr(NpyType type);  // "|u1", "<f4", "<i8"
size_t npyItemSize(NpyType type);

struct NpyArray {
  NpyType type = NpyType::Uint8;
  std::vector<int64_t> shape;
  std::string data;  // the raw little-endian elements, product(shape) * item size bytes
  int64_t elements() const;
};

// The whole .npy file for `count` elements of `type` with `shape` (their product must be count).
std::string npyBytes(NpyType type, const std::vector<int64_t> &shape, const void *data, int64_t count);

// Throws std::runtime_error naming `where` when the bytes are not a .npy array this reader takes
// (bad magic, Fortran order, another dtype, fewer bytes than the shape needs).
NpyArray parseNpy(const std::string &bytes, const std::string &where);

}  // namespace tw::data
