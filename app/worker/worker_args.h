#pragma once
// The worker's command line: `--name value` options and `--flag`s, read straight from argv (the
// CLI that starts the worker has already checked them).

#include <cstring>
#include <string>
#include <vector>

namespace tw::worker {

// Every value of a repeatable option.
inline std::vector<std::string> options(int argc, char **argv, const char *name) {
  std::vector<std::string> values;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], name) == 0) values.push_back(argv[++i]);
  return values;
}

inline std::string option(int argc, char **argv, const char *name, const std::string &fallback = {}) {
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], name) == 0) return argv[i + 1];
  return fallback;
}

inline bool flag(int argc, char **argv, const char *name) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], name) == 0) return true;
  return false;
}

}  // namespace tw::worker
