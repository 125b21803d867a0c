#include "app/cli/worker_call.h"

#include "app/cli/child_process.h"
#include "app/cli/rank_supervisor.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

namespace tw::cli {

int callWorker(const std::string &selfPath, const std::vector<std::string> &args) {
  const std::string worker = workerPathBeside(selfPath);
  if (::access(worker.c_str(), X_OK) != 0) {
    std::fprintf(stderr, "torchwright: worker '%s' is missing or not executable (build the torchwright-worker target)\n",
                 worker.c_str());
    return 127;
  }
  std::fflush(stdout);
  pid_t pid = 0;
  try {
    pid = startChild(ChildSpec{worker, args});
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torchwright: %s\n", e.what());
    return 127;
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  std::fprintf(stderr, "torchwright: the worker was killed by signal %d\n", WTERMSIG(status));
  return 1;
}

}  // namespace tw::cli
