#pragma once
// A JSON string literal: quotes, backslashes and control characters escaped, UTF-8 passed through.

#include <string>

namespace tw::data {

std::string jsonString(const std::string &text);

}  // namespace tw::data
