#pragma once
// The CLI's one table of subcommands: each with its synopsis, what it does and its options. The
// general help, every `torchwright <command> --help`, the usage line printed on a usage error,
// the options the parser gives a value to and the check that refuses an unknown option all read
// it, so the help cannot drift from what a command accepts.

#include "app/cli/cli_args.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace tw::cli {

struct OptionHelp {
  std::string name;   // "--limit"
  std::string value;  // "N": the option takes a value; empty: a flag
  std::string doc;
};

struct CommandHelp {
  std::string name;                  // "runs list"
  std::vector<std::string> usage;    // lines after "usage: torchwright "
  std::string summary;               // one line for the general help
  std::vector<OptionHelp> options;   // --workspace and --help are implied for every command
  std::string details;               // more lines for its own --help; may be empty
};

const std::vector<CommandHelp> &commandTable();
// "check", "runs show"; nullptr when there is no such command.
const CommandHelp *findCommand(const std::string &name);

// Every option any command gives a value to, for parseArgs.
std::vector<std::string> valuedOptions();

std::string generalUsage();                      // the list of commands
std::string commandUsage(const CommandHelp &c);  // one command's full --help text
std::string groupUsage(const std::string &group); // "runs": its subcommands; empty if none

// The command the arguments name: "runs list" for `runs list ...` and for `runs` alone (its
// default); the bare command when it has no subcommands; empty when unknown.
std::string resolveCommandName(const CliArgs &args);

// Prints the command's usage lines and a pointer to its --help on stderr; returns 2.
int usageError(const std::string &command, const std::string &why = {});

// The first option or flag in `args` that `command` does not take, or empty.
std::string unknownOption(const CliArgs &args, const std::string &command);

// A whole number in [min, max] from option `name` ("--limit"); `fallback` when absent. Throws
// UsageError naming the option and what it expects.
long long integerOption(const CliArgs &args, const std::string &name, long long fallback, long long min,
                        long long max);

// Bad usage found inside a command: main prints it with the command's usage and exits 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace tw::cli
