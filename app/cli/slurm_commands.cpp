#include "app/cli/slurm_commands.h"

#include "app/cli/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <stdexcept>

namespace tw::cli {

namespace {

using Clock = std::chrono::steady_clock;

std::string onPath(const std::string &name) {
  const char *path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return {};
}

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\r')) text.pop_back();
  return text;
}

// The first line that says what went wrong, without sbatch's "sbatch: error: " prefix.
std::string firstError(const CommandOutput &o) {
  std::stringstream lines(o.err.empty() ? o.out : o.err);
  std::string line, all;
  while (std::getline(lines, line)) {
    for (const char *prefix : {"sbatch: error: ", "scontrol: error: ", "scancel: error: ", "sacct: error: "})
      if (line.rfind(prefix, 0) == 0) line = line.substr(std::strlen(prefix));
    if (line.empty()) continue;
    all += (all.empty() ? "" : "; ") + line;
  }
  if (!all.empty()) return all;
  return o.code < 0 ? "it did not answer in time" : "it exited with code " + std::to_string(o.code);
}

// `scontrol show job -o` fields, "Key=Value" separated by spaces (values here have none).
std::map<std::string, std::string> fields(const std::string &line) {
  std::map<std::string, std::string> out;
  std::stringstream words(line);
  std::string word;
  while (words >> word) {
    const auto eq = word.find('=');
    if (eq != std::string::npos) out.emplace(word.substr(0, eq), word.substr(eq + 1));
  }
  return out;
}

}  // namespace

CommandOutput runCommand(const std::string &command, const std::vector<std::string> &arguments, int seconds) {
  const std::string path = onPath(command);
  if (path.empty())
    throw std::runtime_error("'" + command + "' is not on PATH");
  int out[2], err[2];
  if (::pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error("pipe: " + std::string(std::strerror(errno)));
  if (::pipe2(err, O_CLOEXEC) != 0) {
    ::close(out[0]), ::close(out[1]);
    throw std::runtime_error("pipe: " + std::string(std::strerror(errno)));
  }
  ChildSpec child{path, arguments, {}};
  child.stdinFd = ChildSpec::kNull;
  child.stdoutFd = out[1];
  child.stderrFd = err[1];
  child.hangUpWithParent = true;
  pid_t pid = -1;
  try {
    pid = startChild(child);
  } catch (...) {
    for (int fd : {out[0], out[1], err[0], err[1]}) ::close(fd);
    throw;
  }
  ::close(out[1]);
  ::close(err[1]);
  CommandOutput result;
  const auto deadline = Clock::now() + std::chrono::seconds(seconds);
  pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
  std::string *into[2] = {&result.out, &result.err};
  int open = 2;
  bool late = false;
  while (open > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      late = true;
      break;
    }
    if (::poll(fds, 2, static_cast<int>(left)) < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buffer[4096];
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) into[i]->append(buffer, static_cast<size_t>(n));
      else if (n == 0 || errno != EINTR) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open;
      }
    }
  }
  for (auto &fd : fds)
    if (fd.fd >= 0) ::close(fd.fd);
  if (late) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.code = !late && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::vector<std::string> sbatchRequest(const sweep::Executor &e) {
  std::vector<std::string> options;
  if (!e.partition.empty()) options.push_back("--partition=" + e.partition);
  if (!e.account.empty()) options.push_back("--account=" + e.account);
  options.push_back("--ntasks=1");
  options.push_back("--cpus-per-task=" + std::to_string(e.cpus));
  if (e.gpus > 0) options.push_back("--gpus=" + std::to_string(e.gpus));
  if (!e.memory.empty()) options.push_back("--mem=" + e.memory);
  if (!e.time.empty()) options.push_back("--time=" + e.time);
  options.insert(options.end(), e.sbatchOptions.begin(), e.sbatchOptions.end());
  return options;
}

std::string slurmRequestProblem(const sweep::Executor &executor) {
  std::vector<std::string> arguments = {"--test-only"};
  const auto request = sbatchRequest(executor);
  arguments.insert(arguments.end(), request.begin(), request.end());
  arguments.insert(arguments.end(), {"--job-name=torchwright-check", "--output=/dev/null", "--wrap=true"});
  try {
    const CommandOutput o = runCommand("sbatch", arguments);
    if (o.code == 0) return {};
    return "SLURM refuses the trials' request (sbatch " + [&] {
      std::string line;
      for (const auto &r : request) line += (line.empty() ? "" : " ") + r;
      return line;
    }() + "): " + firstError(o);
  } catch (const std::exception &e) {
    return std::string(e.what()) + ": the slurm executor needs SLURM's client commands (Debian: apt install "
                                   "slurm-client) and the cluster's configuration";
  }
}

std::string submitSlurmJob(const SlurmSubmission &job) {
  std::vector<std::string> arguments = {"--parsable", "--requeue", "--open-mode=append",
                                        "--job-name=" + job.jobName, "--output=" + job.logFile};
  arguments.insert(arguments.end(), job.request.begin(), job.request.end());
  arguments.push_back(job.script);
  const CommandOutput o = runCommand("sbatch", arguments);
  // --parsable prints "ID" or "ID;cluster".
  const std::string id = trimmed(o.out).substr(0, trimmed(o.out).find(';'));
  if (o.code != 0 || id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
    throw std::runtime_error("sbatch did not take the trial's job: " + firstError(o));
  return id;
}

bool SlurmJobState::ended() const {
  static const char *kFinal[] = {"COMPLETED", "FAILED",    "CANCELLED", "TIMEOUT",  "NODE_FAIL", "PREEMPTED",
                                 "BOOT_FAIL", "DEADLINE",  "OUT_OF_MEMORY", "REVOKED", "SPECIAL_EXIT"};
  if (!known) return true;
  for (const char *s : kFinal)
    if (state == s) return true;
  return false;
}

SlurmJobState querySlurmJob(const std::string &jobId) {
  SlurmJobState s;
  const CommandOutput o = runCommand("scontrol", {"show", "job", "--oneliner", jobId}, 30);
  if (o.code == 0) {
    auto f = fields(o.out);
    s.known = true;
    s.state = f["JobState"];
    s.reason = f["Reason"] == "None" ? "" : f["Reason"];
    s.exitCode = f["ExitCode"];
    s.restarts = std::atoi(f["Restarts"].c_str());
    return s;
  }
  if (o.code < 0) throw std::runtime_error("scontrol did not answer about job " + jobId);
  if (o.err.find("Invalid job id") == std::string::npos)
    throw std::runtime_error("scontrol show job " + jobId + ": " + firstError(o));
  // Gone from the controller's memory (MinJobAge): its accounting, where the cluster keeps one.
  try {
    const CommandOutput a = runCommand("sacct", {"--noheader", "--allocations", "--parsable2", "--jobs=" + jobId,
                                                 "--format=State,ExitCode,Reason"}, 30);
    if (a.code == 0 && !trimmed(a.out).empty()) {
      std::stringstream line(trimmed(a.out));
      std::string state, exitCode, reason;
      std::getline(line, state, '|');
      std::getline(line, exitCode, '|');
      std::getline(line, reason, '|');
      s.known = true;
      s.state = state.substr(0, state.find(' '));  // "CANCELLED by 0"
      s.exitCode = exitCode;
      s.reason = reason == "None" ? "" : reason;
    }
  } catch (const std::exception &) {
  }
  return s;
}

void cancelSlurmJob(const std::string &jobId, bool gently) {
  std::vector<std::string> arguments;
  if (gently) {
    // A pending job has no process to signal: it is cancelled.
    const SlurmJobState s = querySlurmJob(jobId);
    if (s.ended()) return;
    if (s.state != "PENDING") arguments = {"--batch", "--signal=TERM"};
  }
  arguments.push_back(jobId);
  const CommandOutput o = runCommand("scancel", arguments, 30);
  if (o.code != 0) throw std::runtime_error("scancel " + jobId + ": " + firstError(o));
}

}  // namespace tw::cli
