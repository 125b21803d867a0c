#include "app/cli/worker_call.h"

#include "app/cli/rank_supervisor.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace tw::cli {

int callWorker(const std::string &selfPath, const std::vector<std::string> &args) {
  const std::string worker = workerPathBeside(selfPath);
  if (::access(worker.c_str(), X_OK) != 0) {
    std::fprintf(stderr, "torchwright: worker '%s' is missing or not executable (build the torchwright-worker target)\n",
                 worker.c_str());
    return 127;
  }
  std::vector<char *> argv{const_cast<char *>(worker.c_str())};
  for (const auto &a : args) argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  std::fflush(stdout);
  const pid_t pid = ::fork();
  if (pid < 0) {
    std::fprintf(stderr, "torchwright: fork failed: %s\n", std::strerror(errno));
    return 127;
  }
  if (pid == 0) {
    ::execv(worker.c_str(), argv.data());
    std::fprintf(stderr, "torchwright: cannot start '%s': %s\n", worker.c_str(), std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  std::fprintf(stderr, "torchwright: the worker was killed by signal %d\n", WTERMSIG(status));
  return 1;
}

}  // namespace tw::cli
