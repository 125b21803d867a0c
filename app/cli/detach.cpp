#include "app/cli/detach.h"

#include "tracking/run_record.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <stdexcept>

namespace tw::cli {

pid_t detachTo(const std::string &logFile) {
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("cannot start in the background: fork failed");
  if (pid > 0) return pid;
  ::setsid();
  const int out = ::open(logFile.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  const int in = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (out >= 0) {
    ::dup2(out, STDOUT_FILENO);
    ::dup2(out, STDERR_FILENO);
  }
  if (in >= 0) ::dup2(in, STDIN_FILENO);
  return 0;
}

bool detachRunLauncher(const tracking::RunRecord &run) {
  const pid_t pid = detachTo((std::filesystem::path(run.runDir) / "artifacts" / "launcher.log").string());
  if (pid > 0) {
    std::printf("launched in the background (pid %d); follow it with `torchwright runs show %s`\n",
                static_cast<int>(pid), run.uuid.substr(0, 8).c_str());
    return false;
  }
  return true;
}

}  // namespace tw::cli
