#pragma once
// Starts torchwright-worker for a run and waits for it, forwarding SIGTERM so that a stopped CLI
// stops its worker after a checkpoint instead of orphaning it.

#include <string>
#include <vector>

namespace tw::cli {

struct WorkerExit {
  bool started = false;
  int exitCode = -1;  // valid when !signaled
  bool signaled = false;
  int signal = 0;
  std::string error;  // why it could not start
};

// The worker that sits beside the running executable (build/bin/torchwright-worker).
std::string workerPathBeside(const std::string &selfPath);

WorkerExit runWorker(const std::string &workerPath, const std::vector<std::string> &arguments);

}  // namespace tw::cli
