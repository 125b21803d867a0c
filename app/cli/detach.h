#pragma once
// `--detach` (launch, reproduce, sweep): the work goes on in a child process in its own session,
// so closing the terminal or Studio does not stop it; its output is appended to a log file.

#include <sys/types.h>

#include <string>

namespace tw::tracking {
struct RunRecord;
}

namespace tw::cli {

// Forks. In the child: a new session, stdout and stderr appended to `logFile`, stdin from
// /dev/null; returns 0. In the parent: returns the child's pid. Throws std::runtime_error when
// fork fails. Close SQLite connections before calling: they must not cross a fork.
pid_t detachTo(const std::string &logFile);

// A recorded run's launcher (launch, reproduce) leaves the terminal's session; its output goes to
// the run's artifacts/launcher.log. The parent prints the pid and how to follow the run, and gets
// false (it only reports); the child gets true and carries on. Same rule: no open SQLite
// connection across the call.
bool detachRunLauncher(const tracking::RunRecord &run);

}  // namespace tw::cli
