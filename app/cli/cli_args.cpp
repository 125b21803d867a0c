#include "app/cli/cli_args.h"

#include "core/config/workspace.h"

#include <algorithm>
#include <stdexcept>

namespace tw::cli {

bool CliArgs::hasFlag(const std::string &name) const {
  return std::find(flags.begin(), flags.end(), name) != flags.end();
}

std::string CliArgs::option(const std::string &name, const std::string &fallback) const {
  auto it = options.find(name);
  return it == options.end() || it->second.empty() ? fallback : it->second.back();
}

std::vector<std::string> CliArgs::all(const std::string &name) const {
  auto it = options.find(name);
  return it == options.end() ? std::vector<std::string>{} : it->second;
}

std::string CliArgs::workspace() const { return option("--workspace", config::defaultWorkspaceDir()); }

CliArgs parseArgs(int argc, char **argv, const std::vector<std::string> &valued) {
  CliArgs args;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "-o") arg = "--out";  // the one short option, as compilers and converters spell it
    if (arg.rfind("--", 0) == 0 && arg.size() > 2) {
      std::string value;
      bool hasInlineValue = false;
      if (auto eq = arg.find('='); eq != std::string::npos && arg.rfind("--set", 0) != 0) {
        value = arg.substr(eq + 1);
        arg = arg.substr(0, eq);
        hasInlineValue = true;
      }
      if (std::find(valued.begin(), valued.end(), arg) != valued.end()) {
        if (!hasInlineValue) {
          if (i + 1 >= argc) throw std::runtime_error("option " + arg + " needs a value");
          value = argv[++i];
        }
        args.options[arg].push_back(value);
      } else {
        args.flags.push_back(arg);
      }
    } else if (args.command.empty()) {
      args.command = arg;
    } else {
      args.positionals.push_back(arg);
    }
  }
  return args;
}

}  // namespace tw::cli
