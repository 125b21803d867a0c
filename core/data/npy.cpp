#include "core/data/npy.h"

#include <cstring>
#include <stdexcept>

namespace tw::data {

namespace {
const char kMagic[] = "\x93NUMPY";
}

const char *npyDescr(NpyType type) {
  switch (type) {
    case NpyType::Uint8: return "|u1";
    case NpyType::Float32: return "<f4";
    case NpyType::Int64: return "<i8";
  }
  return "";
}

size_t npyItemSize(NpyType type) { return type == NpyType::Uint8 ? 1 : type == NpyType::Float32 ? 4 : 8; }

int64_t NpyArray::elements() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

std::string npyBytes(NpyType type, const std::vector<int64_t> &shape, const void *data, int64_t count) {
  int64_t product = 1;
  std::string dims;
  for (int64_t d : shape) {
    product *= d;
    dims += std::to_string(d) + ", ";
  }
  if (product != count) throw std::logic_error("npyBytes: shape does not hold the elements given");
  if (shape.size() != 1 && !dims.empty()) dims.resize(dims.size() - 2);
  else if (shape.size() == 1) dims.resize(dims.size() - 1);  // "(5,)"
  std::string header = std::string("{'descr': '") + npyDescr(type) + "', 'fortran_order': False, 'shape': (" + dims + "), }";
  // Magic, version and length (10 bytes) plus the header, padded with spaces to 64 bytes, "\n" last.
  const size_t total = (10 + header.size() + 1 + 63) / 64 * 64;
  header.append(total - 10 - header.size() - 1, ' ');
  header += '\n';
  std::string out(kMagic, 6);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>((header.size() >> 8) & 0xff);
  out += header;
  out.append(static_cast<const char *>(data), static_cast<size_t>(count) * npyItemSize(type));
  return out;
}

NpyArray parseNpy(const std::string &bytes, const std::string &where) {
  if (bytes.size() < 10 || bytes.compare(0, 6, kMagic, 6) != 0) throw std::runtime_error(where + ": not a .npy array");
  if (bytes[6] != 1) throw std::runtime_error(where + ": .npy version " + std::to_string(int(bytes[6])) + " (this reader takes 1.0)");
  const size_t headerSize = static_cast<unsigned char>(bytes[8]) | (static_cast<size_t>(static_cast<unsigned char>(bytes[9])) << 8);
  if (bytes.size() < 10 + headerSize) throw std::runtime_error(where + ": .npy header truncated");
  const std::string header = bytes.substr(10, headerSize);
  NpyArray array;
  bool known = false;
  for (NpyType type : {NpyType::Uint8, NpyType::Float32, NpyType::Int64})
    if (header.find(std::string("'descr': '") + npyDescr(type) + "'") != std::string::npos) {
      array.type = type;
      known = true;
    }
  if (!known) throw std::runtime_error(where + ": .npy dtype is not uint8, float32 or int64: " + header);
  if (header.find("'fortran_order': False") == std::string::npos)
    throw std::runtime_error(where + ": .npy array in Fortran order");
  const size_t open = header.find("'shape': (");
  const size_t close = header.find(')', open);
  if (open == std::string::npos || close == std::string::npos) throw std::runtime_error(where + ": .npy header has no shape");
  std::string dims = header.substr(open + 10, close - open - 10);
  // Digits only, and a product the data could hold: a shape is checked against the bytes that
  // follow, so it must not overflow into agreeing with them (tests/fuzz/npy).
  const uint64_t dataBytes = bytes.size() - 10 - headerSize;
  uint64_t elements = 1;
  size_t at = 0;
  while (at < dims.size()) {
    while (at < dims.size() && (dims[at] == ' ' || dims[at] == ',')) ++at;
    if (at >= dims.size()) break;
    uint64_t dim = 0;
    const size_t first = at;
    while (at < dims.size() && dims[at] >= '0' && dims[at] <= '9' && dim <= dataBytes)
      dim = dim * 10 + static_cast<uint64_t>(dims[at++] - '0');
    if (at == first || dim > dataBytes || (at < dims.size() && dims[at] != ',' && dims[at] != ' '))
      throw std::runtime_error(where + ": .npy shape (" + dims + ") is not a tuple of sizes its " +
                               std::to_string(dataBytes) + " data bytes could hold");
    elements = dim == 0 ? 0 : (elements > dataBytes / dim ? dataBytes + 1 : elements * dim);
    array.shape.push_back(static_cast<int64_t>(dim));
  }
  const size_t need = elements > dataBytes ? dataBytes + 1 : elements * npyItemSize(array.type);
  if (dataBytes != need)
    throw std::runtime_error(where + ": .npy holds " + std::to_string(bytes.size() - 10 - headerSize) +
                             " data bytes, its shape needs " + std::to_string(need));
  array.data = bytes.substr(10 + headerSize);
  return array;
}

}  // namespace tw::data
