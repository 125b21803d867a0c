#pragma once
// One trial of a sweep as a child process: `torchwright train FILE --trial STUDY:N` (or
// `launch` for a multi-rank trial) pinned to its cores with CPU affinity, set between fork and
// exec so that the launcher and its workers, which size their threads to the affinity they find,
// never spread onto another trial's cores. Its output goes to a log file beside the trial's run
// file. It runs in a process group of its own, so a Ctrl-C at the terminal reaches the sweep
// driver alone, which decides what happens to its trials; if the driver dies, the kernel hangs
// the trial up (PR_SET_PDEATHSIG) and its worker records the run as failed after a checkpoint.
//
// With `serve`, the process is a slot's `torchwright-worker --serve`: the driver writes run ids to
// its stdin (send) and reads its "epoch"/"done" lines (readLines) from a pipe the worker knows as
// TORCHWRIGHT_SERVE_FD.

#include "app/cli/trial_job.h"

#include <sys/types.h>

#include <string>
#include <utility>
#include <vector>

namespace tw::cli {

struct TrialLaunch {
  std::string executable;                                    // this torchwright
  std::vector<std::string> arguments;                        // after the executable
  std::vector<int> cpus;                                     // affinity; empty = inherit
  std::vector<std::pair<std::string, std::string>> environment;  // set in the child
  std::string logFile;                                       // stdout and stderr, appended
  bool serve = false;                                        // pipes to and from a serving worker
};

class TrialProcess : public TrialJob {
 public:
  // Throws std::runtime_error when the process cannot be started.
  explicit TrialProcess(const TrialLaunch &launch);
  TrialProcess(const TrialProcess &) = delete;
  TrialProcess &operator=(const TrialProcess &) = delete;
  ~TrialProcess() override;  // a process still running is killed and reaped: no zombie, no orphan

  pid_t pid() const { return m_pid; }
  // Non-blocking; true once the process has exited (and was reaped).
  bool poll() override;
  bool exited() const override { return m_exited; }
  bool succeeded() const;                     // exited with code 0
  std::string describeExit() const override;  // "exited with code 1", "killed by signal 9 (Killed)"
  void terminate() override;                  // SIGTERM: the launcher stops its ranks after a checkpoint
  void kill() override;                       // SIGKILL the launcher and its process group

  // A serving worker's pipes. send: false when the worker is gone. readLines: the complete lines
  // it has written since the last call, without waiting. eventFd: for poll(); -1 without serve.
  bool send(const std::string &line);
  std::vector<std::string> readLines();
  int eventFd() const { return m_events; }
  void closeInput();                 // the worker finishes its run and exits

 private:
  pid_t m_pid = -1;
  bool m_exited = false;
  int m_status = 0;
  int m_input = -1, m_events = -1;
  std::string m_partial;             // an event line read only in part
};

// The last `lines` non-empty lines of a text file ("" when unreadable), for a failure message.
std::string lastLines(const std::string &path, int lines);

}  // namespace tw::cli
