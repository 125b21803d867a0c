#pragma once
// yaml-cpp's syntax errors in words a person can act on. Its own wording misleads where it
// matters most: a tab in the indentation reads "illegal map value" or "illegal block entry",
// too deep a nesting reads "bad file". Model files and run files both go through here, so the
// same mistake reads the same in both. Torch-free, Qt-free: yaml-cpp and std only.

#include <string>

namespace YAML {
class Exception;
class Node;
}  // namespace YAML

namespace tw::yaml {

struct Problem {
  int line = 0;    // 1-based; 0 when unknown
  int column = 0;  // 1-based; 0 when unknown
  std::string message;  // what is wrong and what to do, without the location
};

// What a parse error of `text` means. The location is the offending character where it can be
// found (the tab, for a tab in the indentation), else yaml-cpp's.
Problem describe(const YAML::Exception &error, const std::string &text);

// The first bytes of `text` that are not UTF-8 (YAML's encoding); message empty when it all is.
// yaml-cpp reads such bytes in a plain scalar but writes them back as YAML it cannot read, so a
// file with them would not survive being recorded (found by tests/fuzz/model_yaml).
Problem notUtf8(const std::string &text);

// The first scalar of a loaded document that is not UTF-8: yaml-cpp turns the escapes "\N" and
// "\_" of UTF-8 text into single bytes (0x85, 0xA0), which it then cannot read back when written
// (found by tests/fuzz/model_yaml). Message empty when every scalar is UTF-8.
Problem scalarNotUtf8(const YAML::Node &root);

// A mapping that has the same key twice (yaml-cpp keeps both, and later readers see either):
// the second occurrence, naming the first's line; message empty when there is none.
Problem duplicateKey(const YAML::Node &root);

}  // namespace tw::yaml
