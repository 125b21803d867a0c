#pragma once
// One function per subcommand; each returns the process exit code (0 ok, 1 failed, 2 usage).

#include "app/cli/cli_args.h"

namespace tw::cli {

int runCheck(const CliArgs &args);
int runTrain(const CliArgs &args, const std::string &selfPath);
int runLaunch(const CliArgs &args, const std::string &selfPath);
int runRuns(const CliArgs &args);
int runDemoImages(const CliArgs &args);
int runReproduce(const CliArgs &args, const std::string &selfPath);

}  // namespace tw::cli
