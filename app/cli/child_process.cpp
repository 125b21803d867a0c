#include "app/cli/child_process.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

extern char **environ;

namespace tw::cli {

namespace {

// The parent's environment with the child's own variables set over it.
std::vector<std::string> childEnvironment(const std::vector<std::pair<std::string, std::string>> &own) {
  std::vector<std::string> out;
  for (char **entry = environ; entry && *entry; ++entry) {
    const std::string text = *entry;
    const std::string name = text.substr(0, text.find('='));
    bool replaced = false;
    for (const auto &[key, value] : own) replaced = replaced || key == name;
    if (!replaced) out.push_back(text);
  }
  for (const auto &[key, value] : own) out.push_back(key + "=" + value);
  return out;
}

void writeError(const char *text) { (void)!::write(STDERR_FILENO, text, std::strlen(text)); }

}  // namespace

pid_t startChild(const ChildSpec &spec) {
  std::vector<char *> argv{const_cast<char *>(spec.executable.c_str())};
  for (const auto &a : spec.arguments) argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  std::vector<std::string> environment = childEnvironment(spec.environment);
  std::vector<char *> envp;
  for (auto &e : environment) envp.push_back(e.data());
  envp.push_back(nullptr);
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  for (int cpu : spec.cpus) CPU_SET(cpu, &cpus);
  const bool needsNull =
      spec.stdinFd == ChildSpec::kNull || spec.stdoutFd == ChildSpec::kNull || spec.stderrFd == ChildSpec::kNull;
  const int devNull = needsNull ? ::open("/dev/null", O_RDWR | O_CLOEXEC) : -1;
  const std::string cannotExec = "torchwright: cannot start '" + spec.executable + "'\n";
  const pid_t parent = ::getpid();

  const pid_t pid = ::fork();
  if (pid < 0) {
    const std::string why = std::strerror(errno);
    if (devNull >= 0) ::close(devNull);
    throw std::runtime_error("cannot start '" + spec.executable + "': fork failed: " + why);
  }
  if (pid == 0) {
    if (spec.ownProcessGroup) ::setpgid(0, 0);
    if (spec.hangUpWithParent) {
      ::prctl(PR_SET_PDEATHSIG, SIGHUP);
      if (::getppid() != parent) _exit(1);  // the parent died before the request took hold
    }
    struct sigaction dflt {};
    dflt.sa_handler = SIG_DFL;
    for (int signal : {SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD}) ::sigaction(signal, &dflt, nullptr);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    if (!spec.cpus.empty()) ::sched_setaffinity(0, sizeof cpus, &cpus);
    auto place = [&](int from, int to) {
      if (from == ChildSpec::kInherit) return;
      if (from == ChildSpec::kNull) from = devNull;
      if (from == to) ::fcntl(to, F_SETFD, 0);  // dup2 onto itself would keep close-on-exec
      else ::dup2(from, to);
    };
    place(spec.stdinFd, STDIN_FILENO);
    place(spec.stdoutFd, STDOUT_FILENO);
    place(spec.stderrFd, STDERR_FILENO);
    for (const auto &[from, to] : spec.passFds) place(from, to);
    ::execve(spec.executable.c_str(), argv.data(), envp.data());
    writeError(cannotExec.c_str());
    _exit(127);
  }
  if (devNull >= 0) ::close(devNull);
  return pid;
}

}  // namespace tw::cli
