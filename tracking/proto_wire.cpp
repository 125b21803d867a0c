#include "tracking/proto_wire.h"

namespace tw::tracking::wire {

void varint(std::string &out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

void key(std::string &out, int field, WireType type) { varint(out, static_cast<uint64_t>(field) << 3 | type); }

void varintField(std::string &out, int field, uint64_t v) {
  key(out, field, Varint);
  varint(out, v);
}

void bytesField(std::string &out, int field, std::string_view bytes) {
  key(out, field, Bytes);
  varint(out, bytes.size());
  out.append(bytes.data(), bytes.size());
}

void doubleField(std::string &out, int field, double v) {
  key(out, field, Fixed64);
  fixed(out, v);
}

void floatField(std::string &out, int field, float v) {
  key(out, field, Fixed32);
  fixed(out, v);
}

std::vector<Field> fields(std::string_view message) {
  std::vector<Field> out;
  size_t i = 0;
  auto readVarint = [&](uint64_t &v) {
    v = 0;
    for (int shift = 0; i < message.size() && shift < 64; shift += 7) {
      const auto b = static_cast<unsigned char>(message[i++]);
      v |= uint64_t(b & 0x7F) << shift;
      if (!(b & 0x80)) return true;
    }
    return false;
  };
  while (i < message.size()) {
    uint64_t header = 0;
    if (!readVarint(header)) break;
    Field f;
    f.number = static_cast<int>(header >> 3);
    f.type = static_cast<int>(header & 7);
    size_t size = 0;
    if (f.type == Varint) {
      if (!readVarint(f.varint)) break;
      out.push_back(f);
      continue;
    }
    if (f.type == Fixed64) size = 8;
    else if (f.type == Fixed32) size = 4;
    else if (f.type == Bytes) {
      uint64_t n = 0;
      if (!readVarint(n)) break;
      size = n;
    } else {
      break;  // groups and unknown wire types: nothing further is framed reliably
    }
    if (size > message.size() - i) break;
    f.bytes = message.substr(i, size);
    i += size;
    out.push_back(f);
  }
  return out;
}

}  // namespace tw::tracking::wire
