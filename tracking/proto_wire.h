#pragma once
// Protocol-buffer wire format, the few pieces TensorBoard's files need, written and read by hand
// so the tracking library needs neither TensorFlow's schemas nor protoc: varints, tags, fixed
// 32/64-bit values and length-delimited fields, and a reader that splits a message into its
// fields. No Qt, no LibTorch.
//
//   std::string value;
//   wire::bytesField(value, 1, "train/loss");        // Summary.Value.tag
//   for (const wire::Field &f : wire::fields(message)) if (f.number == 1 && f.type == 2) ...

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace tw::tracking::wire {

enum WireType { Varint = 0, Fixed64 = 1, Bytes = 2, Fixed32 = 5 };

void varint(std::string &out, uint64_t v);
void key(std::string &out, int field, WireType type);
void varintField(std::string &out, int field, uint64_t v);
void bytesField(std::string &out, int field, std::string_view bytes);
void doubleField(std::string &out, int field, double v);
void floatField(std::string &out, int field, float v);

// Little-endian, as this machine and the wire format are.
template <class T>
void fixed(std::string &out, T v) {
  char bytes[sizeof v];
  std::memcpy(bytes, &v, sizeof v);
  out.append(bytes, sizeof v);
}
template <class T>
T fixedFrom(std::string_view bytes) {
  T v{};
  std::memcpy(&v, bytes.data(), bytes.size() < sizeof v ? bytes.size() : sizeof v);
  return v;
}

// One field of a message: its number, wire type, and its varint or its bytes (fixed values and
// length-delimited ones alike).
struct Field {
  int number = 0;
  int type = 0;
  uint64_t varint = 0;
  std::string_view bytes;
};
// A message's fields in order, as far as they can be framed: reading stops at a truncated field,
// a group or an unknown wire type.
std::vector<Field> fields(std::string_view message);

}  // namespace tw::tracking::wire
