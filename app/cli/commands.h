#pragma once
// One function per subcommand; each returns the process exit code (0 ok, 1 failed, 2 usage).
// main has already refused options a command does not take (see usage.h); a command throws
// UsageError for other bad usage.

#include "app/cli/cli_args.h"

namespace tw::cli {

int runCheck(const CliArgs &args, const std::string &selfPath);
int runCheckOps(const CliArgs &args);  // check --ops
int runTrain(const CliArgs &args, const std::string &selfPath);
int runLaunch(const CliArgs &args, const std::string &selfPath);
int runRuns(const CliArgs &args);
int runConfig(const CliArgs &args);
int runDemoImages(const CliArgs &args);
int runPack(const CliArgs &args);
int runData(const CliArgs &args);  // data bench
int runReproduce(const CliArgs &args, const std::string &selfPath);
int runSweep(const CliArgs &args, const std::string &selfPath);
int runStudy(const CliArgs &args);  // study list|show|create|ask|tell
int runExport(const CliArgs &args, const std::string &selfPath);
int runPredict(const CliArgs &args, const std::string &selfPath);
int runImport(const CliArgs &args, const std::string &selfPath);
int runModels(const CliArgs &args);  // models list|show|register|promote|archive
int runReport(const CliArgs &args);  // report RUN... [-o FILE]
int runMan(const CliArgs &args);     // man DIR
int runCompletion(const CliArgs &args);  // completion bash

}  // namespace tw::cli
