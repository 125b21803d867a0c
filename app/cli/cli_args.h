#pragma once
// The CLI's arguments: a subcommand, positionals and `--name value` options (repeatable ones keep
// every value), parsed once so every command reads typed values instead of walking argv.

#include <map>
#include <string>
#include <vector>

namespace tw::cli {

struct CliArgs {
  std::string command;                  // "train"
  std::vector<std::string> positionals; // after the command
  std::map<std::string, std::vector<std::string>> options;  // "--set" -> {"a=1", "b=2"}
  std::vector<std::string> flags;       // options without a value ("--json")

  bool hasFlag(const std::string &name) const;
  std::string option(const std::string &name, const std::string &fallback = {}) const;
  std::vector<std::string> all(const std::string &name) const;
  std::string workspace() const;  // --workspace or the default workspace
};

// Options in `valued` take the next argument; any other `--x` is a flag; `-o` is `--out`. Throws
// std::runtime_error on a valued option without its value.
CliArgs parseArgs(int argc, char **argv, const std::vector<std::string> &valued);

}  // namespace tw::cli
