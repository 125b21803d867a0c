#include "core/data/shown_text.h"

#include <cstdint>
#include <cstdio>

namespace tw::data {

namespace {

// Length of the well-formed UTF-8 sequence of a non-control character starting at `i`; 0 when
// the bytes there are not one (overlong forms, surrogates and C1 controls count as not).
size_t utf8Length(std::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<uint8_t>(s[k]); };
  const uint8_t lead = byte(i);
  size_t length = 0;
  uint32_t code = 0;
  if (lead >= 0xc2 && lead <= 0xdf) length = 2, code = lead & 0x1fu;
  else if (lead >= 0xe0 && lead <= 0xef) length = 3, code = lead & 0x0fu;
  else if (lead >= 0xf0 && lead <= 0xf4) length = 4, code = lead & 0x07u;
  else return 0;
  if (i + length > s.size()) return 0;
  for (size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xc0u) != 0x80u) return 0;
    code = code << 6 | (byte(i + k) & 0x3fu);
  }
  const uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < smallest[length] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return 0;
  if (code < 0xa0) return 0;  // C1 control characters
  return length;
}

}  // namespace

std::string shownText(std::string_view text, size_t maxChars) {
  std::string out;
  size_t chars = 0;
  for (size_t i = 0; i < text.size(); ++chars) {
    if (chars == maxChars) return out + "...";
    const auto c = static_cast<uint8_t>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    if (const size_t length = c >= 0x80 ? utf8Length(text, i) : 0) {
      out.append(text.substr(i, length));
      i += length;
      continue;
    }
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    }
    ++i;
  }
  return out;
}

std::string quoted(std::string_view text, size_t maxChars) {
  return "'" + shownText(text, maxChars) + "'";
}

}  // namespace tw::data
