#include "core/spec/names.h"

namespace tw::spec {

namespace {

// ASCII only: locale-dependent classification would let a name through on one machine and not
// on another.
bool isLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

bool isPortableName(const std::string &name) {
  if (name.empty() || !isLetter(name.front())) return false;
  for (char c : name)
    if (!isLetter(c) && !isDigit(c) && c != '_' && c != '-' && c != '.') return false;
  return true;
}

std::string portableNameProblem(const std::string &what, const std::string &name) {
  if (isPortableName(name)) return {};
  return what + " '" + name + "' may contain only letters, digits, '_', '-' and '.', and must start with a letter";
}

}  // namespace tw::spec
