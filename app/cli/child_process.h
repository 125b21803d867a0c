#pragma once
// Starting a child process: the one place the CLI forks and execs (the sweep's trials, the
// launcher's ranks, the worker a command calls). Every child is set up the same way: default
// dispositions and an empty mask for the signals its parent may catch, ignore or block (an
// ignored or blocked signal survives exec), the parent's environment plus its own variables,
// only the descriptors it is handed (the CLI opens everything else close-on-exec), and where asked
// its own process group, a CPU set, and SIGHUP when its parent dies (even by SIGKILL). Everything
// is prepared before fork; between fork and exec only async-signal-safe calls are made.
// (`--detach` forks without exec to move the command itself into the background: detach.h.)
//
//   ChildSpec child{workerPath, {"--predict", ...}};
//   child.stderrFd = pipeWriteEnd;
//   const pid_t pid = startChild(child);

#include <sys/types.h>

#include <string>
#include <utility>
#include <vector>

namespace tw::cli {

struct ChildSpec {
  static constexpr int kInherit = -1;  // the parent's descriptor
  static constexpr int kNull = -2;     // /dev/null

  std::string executable;
  std::vector<std::string> arguments;                             // without the executable
  std::vector<std::pair<std::string, std::string>> environment;  // set over the parent's
  bool ownProcessGroup = false;  // the child and what it starts can be signalled as one group
  bool hangUpWithParent = true;  // SIGHUP when the parent dies: no child trains on unsupervised
  std::vector<int> cpus;         // the CPUs it may run on; empty: the parent's
  int stdinFd = kInherit;
  int stdoutFd = kInherit;
  int stderrFd = kInherit;
  // Descriptors the child keeps: (descriptor here, its number in the child).
  std::vector<std::pair<int, int>> passFds;
};

// The child's pid. Throws std::runtime_error naming the executable when fork fails; a child
// that cannot exec writes why to its standard error and exits 127.
pid_t startChild(const ChildSpec &spec);

}  // namespace tw::cli
