#include "app/cli/trial_process.h"

#include "app/cli/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <stdexcept>

namespace tw::cli {

namespace {
constexpr int kServeFd = 3;  // a serving worker's event pipe: the first descriptor after stderr
}  // namespace

TrialProcess::TrialProcess(const TrialLaunch &launch) {
  const int log = ::open(launch.logFile.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log < 0) throw std::runtime_error("cannot write '" + launch.logFile + "': " + std::strerror(errno));
  // Serving: [0] of `input` becomes the worker's stdin, [1] of `events` its descriptor 3.
  int input[2] = {-1, -1}, events[2] = {-1, -1};
  if (launch.serve && (::pipe2(input, O_CLOEXEC) != 0 || ::pipe2(events, O_CLOEXEC) != 0)) {
    const std::string why = std::strerror(errno);
    for (int fd : {log, input[0], input[1], events[0], events[1]})
      if (fd >= 0) ::close(fd);
    throw std::runtime_error("cannot start a trial's worker: pipe failed: " + why);
  }
  // Its own process group, so that stopping the trial stops what it started (a launch's ranks).
  ChildSpec child{launch.executable, launch.arguments, launch.environment};
  child.ownProcessGroup = true;
  child.cpus = launch.cpus;
  child.stdoutFd = log;
  child.stderrFd = log;
  child.stdinFd = launch.serve ? input[0] : ChildSpec::kNull;
  if (launch.serve) {
    child.environment.emplace_back("TORCHWRIGHT_SERVE_FD", std::to_string(kServeFd));
    child.passFds = {{events[1], kServeFd}};
  }
  pid_t pid = 0;
  try {
    pid = startChild(child);
  } catch (...) {
    for (int fd : {log, input[0], input[1], events[0], events[1]})
      if (fd >= 0) ::close(fd);
    throw;
  }
  ::close(log);
  if (launch.serve) {
    ::close(input[0]);
    ::close(events[1]);
    m_input = input[1];
    m_events = events[0];
    ::fcntl(m_events, F_SETFL, ::fcntl(m_events, F_GETFL) | O_NONBLOCK);
  }
  m_pid = pid;
}

TrialProcess::~TrialProcess() {
  closeInput();
  if (m_events >= 0) ::close(m_events);
  if (m_pid <= 0 || m_exited) return;
  kill();
  while (::waitpid(m_pid, &m_status, 0) < 0 && errno == EINTR) {
  }
}

bool TrialProcess::poll() {
  if (m_exited || m_pid <= 0) return m_exited;
  int status = 0;
  const pid_t done = ::waitpid(m_pid, &status, WNOHANG);
  if (done == m_pid) {
    m_exited = true;
    m_status = status;
  }
  return m_exited;
}

bool TrialProcess::succeeded() const { return m_exited && WIFEXITED(m_status) && WEXITSTATUS(m_status) == 0; }

std::string TrialProcess::describeExit() const {
  if (!m_exited) return "still running";
  if (WIFSIGNALED(m_status))
    return "killed by signal " + std::to_string(WTERMSIG(m_status)) + " (" + strsignal(WTERMSIG(m_status)) + ")";
  return "exited with code " + std::to_string(WEXITSTATUS(m_status));
}

void TrialProcess::terminate() {
  if (m_pid > 0 && !m_exited) ::kill(m_pid, SIGTERM);
}

void TrialProcess::kill() {
  if (m_pid > 0 && !m_exited) ::kill(-m_pid, SIGKILL);
}

bool TrialProcess::send(const std::string &line) {
  if (m_input < 0) return false;
  const std::string text = line + "\n";
  size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(m_input, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;  // EPIPE: the worker has exited (SIGPIPE is ignored by the driver)
    written += static_cast<size_t>(n);
  }
  return true;
}

std::vector<std::string> TrialProcess::readLines() {
  std::vector<std::string> lines;
  if (m_events < 0) return lines;
  char buffer[4096];
  while (true) {
    const ssize_t n = ::read(m_events, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // EAGAIN: nothing more now; 0: the worker closed it
    m_partial.append(buffer, static_cast<size_t>(n));
  }
  size_t start = 0, end;
  while ((end = m_partial.find('\n', start)) != std::string::npos) {
    lines.push_back(m_partial.substr(start, end - start));
    start = end + 1;
  }
  m_partial.erase(0, start);
  return lines;
}

void TrialProcess::closeInput() {
  if (m_input >= 0) ::close(m_input);
  m_input = -1;
}

std::string lastLines(const std::string &path, int lines) {
  std::ifstream in(path);
  std::deque<std::string> tail;
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    tail.push_back(line);
    if (static_cast<int>(tail.size()) > lines) tail.pop_front();
  }
  std::string out;
  for (const auto &l : tail) out += (out.empty() ? "" : "\n") + l;
  return out;
}

}  // namespace tw::cli
