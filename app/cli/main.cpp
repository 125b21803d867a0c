// torchwright: the command line. It never links LibTorch; training runs in torchwright-worker.
// What each command accepts is one table (app/cli/usage.cpp); this file only dispatches.

#include "app/cli/commands.h"
#include "app/cli/usage.h"
#include "tracking/store_location.h"

#include <spdlog/spdlog.h>

#include <signal.h>

#include <cstdio>
#include <exception>
#include <string>

namespace {

using namespace tw::cli;

int dispatch(const CliArgs &args, const std::string &command, const std::string &self) {
  if (command == "check") return args.hasFlag("--ops") ? runCheckOps(args) : runCheck(args, self);
  if (command == "train") return runTrain(args, self);
  if (command == "launch") return runLaunch(args, self);
  if (command.rfind("runs ", 0) == 0) return runRuns(args);
  if (command == "config") return runConfig(args);
  if (command == "demo-images") return runDemoImages(args);
  if (command == "pack") return runPack(args);
  if (command.rfind("data ", 0) == 0) return runData(args);
  if (command == "reproduce") return runReproduce(args, self);
  if (command == "sweep") return runSweep(args, self);
  if (command.rfind("study ", 0) == 0) return runStudy(args);
  if (command == "export") return runExport(args, self);
  if (command == "predict") return runPredict(args, self);
  if (command == "import") return runImport(args, self);
  if (command.rfind("models ", 0) == 0) return runModels(args);
  if (command == "report") return runReport(args);
  if (command == "man") return runMan(args);
  if (command == "completion") return runCompletion(args);
  std::printf("torchwright %s\n", TW_VERSION);  // version
  return 0;
}

int unknownCommand(const CliArgs &args) {
  std::string what = args.command;
  if (!args.positionals.empty() && !groupUsage(args.command).empty() && findCommand(args.command) == nullptr)
    what += " " + args.positionals.front();
  std::fprintf(stderr, "torchwright: unknown command '%s'\n\n%s", what.c_str(), generalUsage().c_str());
  return 2;
}

// `torchwright X --help` and `torchwright help X`: X's own usage, or exit 2 for an unknown X.
int help(const CliArgs &args) {
  if (args.command.empty()) {
    std::fputs(generalUsage().c_str(), stdout);
    return 0;
  }
  const bool bareGroup = !findCommand(args.command) && args.positionals.empty() && !groupUsage(args.command).empty();
  if (bareGroup) {
    std::fputs(groupUsage(args.command).c_str(), stdout);
    return 0;
  }
  const std::string name = resolveCommandName(args);
  if (name.empty()) return unknownCommand(args);
  std::fputs(commandUsage(*findCommand(name)).c_str(), stdout);
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  spdlog::set_pattern("[%H:%M:%S] [%n] %^%l%$: %v");
  CliArgs args;
  try {
    args = parseArgs(argc, argv, valuedOptions());
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torchwright: %s\n", e.what());
    return 2;
  }
  if (args.command == "help") {
    CliArgs about;
    if (!args.positionals.empty()) about.command = args.positionals.front();
    if (args.positionals.size() > 1) about.positionals.assign(args.positionals.begin() + 1, args.positionals.end());
    return help(about);
  }
  if (args.hasFlag("--help")) return help(args);
  if (args.command.empty()) {
    if (args.hasFlag("--version")) return dispatch(args, "version", argv[0]);
    std::fputs(generalUsage().c_str(), stderr);
    return 2;
  }
  const std::string command = resolveCommandName(args);
  if (command.empty()) return unknownCommand(args);
  if (const std::string option = unknownOption(args, command); !option.empty())
    return usageError(command, "unknown option '" + option + "'");
  if (const std::string store = args.option("--store"); !store.empty()) {
    // Through the environment, so that the worker, the ranks and the trials this command starts
    // use the same store, and a password in the URL is never on a command line.
    try {
      tw::tracking::StoreLocation::parse(store);
    } catch (const std::exception &e) {
      return usageError(command, std::string("--store: ") + e.what());
    }
    ::setenv("TW_STORE", store.c_str(), 1);
  }
  if (args.hasFlag("--detach")) {
    // --detach is how Studio starts work that outlives it, reading the command's output through a
    // pipe. Studio killed (or its terminal closed) before the command had detached made the
    // command's next line raise SIGPIPE (or the terminal sent SIGHUP): it died right after
    // recording the run, which then read CREATED and never trained. The output is only a report;
    // the work goes on without a reader. Children get the default dispositions back
    // (child_process.cpp).
    ::signal(SIGPIPE, SIG_IGN);
    ::signal(SIGHUP, SIG_IGN);
  }
  try {
    return dispatch(args, command, argv[0]);
  } catch (const UsageError &e) {
    return usageError(command, e.what());
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torchwright: %s\n", e.what());
    return 1;
  }
}
