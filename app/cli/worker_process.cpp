#include "app/cli/worker_process.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace fs = std::filesystem;

namespace tw::cli {

namespace {

volatile sig_atomic_t g_child = 0;

void forwardSignal(int signal) {
  if (g_child > 0) kill(g_child, signal == SIGINT ? SIGINT : SIGTERM);
}

}  // namespace

std::string workerPathBeside(const std::string &selfPath) {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) self = fs::absolute(selfPath);
  return (self.parent_path() / "torchwright-worker").string();
}

WorkerExit runWorker(const std::string &workerPath, const std::vector<std::string> &arguments) {
  WorkerExit result;
  if (access(workerPath.c_str(), X_OK) != 0) {
    result.error = "worker '" + workerPath + "' is missing or not executable (build the torchwright-worker target)";
    return result;
  }
  std::vector<char *> argv;
  argv.push_back(const_cast<char *>(workerPath.c_str()));
  for (const auto &arg : arguments) argv.push_back(const_cast<char *>(arg.c_str()));
  argv.push_back(nullptr);

  pid_t pid = fork();
  if (pid < 0) {
    result.error = std::string("fork failed: ") + std::strerror(errno);
    return result;
  }
  if (pid == 0) {
    execv(workerPath.c_str(), argv.data());
    std::fprintf(stderr, "torchwright: cannot start '%s': %s\n", workerPath.c_str(), std::strerror(errno));
    _exit(127);
  }
  result.started = true;
  g_child = pid;
  // Ctrl-C reaches the worker through the terminal's process group already; the handler makes
  // sure a SIGTERM sent to the CLI alone reaches it too, and keeps the CLI alive to report.
  struct sigaction action {};
  action.sa_handler = forwardSignal;
  sigemptyset(&action.sa_mask);
  struct sigaction oldInt {}, oldTerm {};
  sigaction(SIGINT, &action, &oldInt);
  sigaction(SIGTERM, &action, &oldTerm);

  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  g_child = 0;
  sigaction(SIGINT, &oldInt, nullptr);
  sigaction(SIGTERM, &oldTerm, nullptr);
  if (WIFSIGNALED(status)) {
    result.signaled = true;
    result.signal = WTERMSIG(status);
  } else {
    result.exitCode = WEXITSTATUS(status);
  }
  return result;
}

}  // namespace tw::cli
