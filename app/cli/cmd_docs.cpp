// `torchwright man DIR` and `torchwright completion bash`: the manual pages and the completion
// script, from the command table (command_docs.h). The build runs both into build/share, where a
// package installs them from.

#include "app/cli/command_docs.h"
#include "app/cli/commands.h"
#include "app/cli/usage.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace tw::cli {

int runMan(const CliArgs &args) {
  if (args.positionals.size() != 1) return usageError("man");
  const std::filesystem::path folder = args.positionals[0];
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  auto write = [&](const std::string &name, const std::string &text) {
    std::ofstream out(folder / name, std::ios::binary);
    out << text;
    return static_cast<bool>(out);
  };
  int pages = 0;
  bool ok = write("torchwright.1", overviewManPage());
  for (const CommandHelp &c : commandTable()) ok = write(manPageName(c), manPage(c)) && ok, ++pages;
  if (!ok) {
    std::fprintf(stderr, "torchwright: cannot write the manual pages into %s\n", folder.c_str());
    return 1;
  }
  std::printf("wrote %d manual pages into %s\n", pages + 1, folder.c_str());
  return 0;
}

int runCompletion(const CliArgs &args) {
  if (args.positionals.size() != 1 || args.positionals[0] != "bash")
    return usageError("completion", args.positionals.size() == 1 ? "only bash is generated" : "");
  std::fputs(bashCompletion().c_str(), stdout);
  return 0;
}

}  // namespace tw::cli
