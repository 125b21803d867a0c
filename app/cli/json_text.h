#pragma once
// JSON text for `--json` output, without a JSON library: the CLI prints flat records of strings,
// numbers and lists, and these helpers get the escaping and the numbers right.

#include <string>
#include <utility>
#include <vector>

namespace tw::cli::json {

std::string string(const std::string &text);  // quoted and escaped
std::string number(double value);             // shortest exact text; null when not finite
std::string number(long long value);
std::string boolean(bool value);
// Values already in JSON text.
std::string array(const std::vector<std::string> &values);
std::string object(const std::vector<std::pair<std::string, std::string>> &members);
// A list of strings as a JSON array of strings.
std::string strings(const std::vector<std::string> &values);

}  // namespace tw::cli::json
