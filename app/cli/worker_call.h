#pragma once
// Runs torchwright-worker (beside this executable) for one job in the foreground, its output on
// this terminal: the CLI's way to reach LibTorch without linking it (export, predict).

#include <string>
#include <vector>

namespace tw::cli {

// The worker's exit code; 127 when it could not be started (the reason on stderr).
int callWorker(const std::string &selfPath, const std::vector<std::string> &args);

}  // namespace tw::cli
