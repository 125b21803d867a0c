#include "core/data/json_text.h"

#include <cstdio>

namespace tw::data {

std::string jsonString(const std::string &text) {
  std::string out = "\"";
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"') out += "\\\"";
    else if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (c < 0x20 || c == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
    } else {
      out += ch;  // UTF-8 passes through; JSON is UTF-8
    }
  }
  return out + "\"";
}

}  // namespace tw::data
