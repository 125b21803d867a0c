#include "app/cli/detach.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
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

}  // namespace tw::cli
