#pragma once
// SLURM's client commands as the sweep driver uses them: sbatch to check a trial's request and to
// submit it, scontrol (or sacct, where the cluster keeps accounting) for a job's state, scancel to
// stop it. They are run directly, never through a shell, and found on PATH; the cluster they talk
// to is the one their own configuration names (SLURM_CONF or /etc/slurm/slurm.conf).

#include "core/sweep/sweep_file.h"

#include <string>
#include <vector>

namespace tw::cli {

struct CommandOutput {
  int code = -1;    // the exit code; -1 when it did not run or was stopped at its time limit
  std::string out;  // standard output
  std::string err;  // standard error
};

// Runs `command` (a name looked up on PATH) with `arguments`, its output captured, for at most
// `seconds`. Throws std::runtime_error when it is not on PATH or cannot be started.
CommandOutput runCommand(const std::string &command, const std::vector<std::string> &arguments, int seconds = 60);

// The sbatch options of a trial's request: partition, account, cpus, gpus, memory, time, and the
// sweep file's own options after them.
std::vector<std::string> sbatchRequest(const sweep::Executor &executor);

// Whether the cluster would take the request, asked before anything is submitted (`sbatch
// --test-only`): "" when it would, else why not in the scheduler's words. A missing sbatch, or a
// scheduler that does not answer, is a reason too.
std::string slurmRequestProblem(const sweep::Executor &executor);

struct SlurmSubmission {
  std::vector<std::string> request;  // sbatchRequest
  std::string jobName;
  std::string logFile;               // stdout and stderr, appended across requeues
  std::string script;                // the batch script's path
};

// Submits the job; returns its id. Throws std::runtime_error with sbatch's words.
std::string submitSlurmJob(const SlurmSubmission &job);

struct SlurmJobState {
  bool known = false;     // the scheduler (or its accounting) still knows the job
  std::string state;      // PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, TIMEOUT, ...
  std::string reason;     // the scheduler's Reason ("None" dropped)
  std::string exitCode;   // "code:signal"
  int restarts = 0;       // requeues (preemption, scontrol requeue)
  bool ended() const;     // a final state: the job will not run again
};

SlurmJobState querySlurmJob(const std::string &jobId);

// `gently`: SIGTERM to the running batch script (the launcher stops after a checkpoint); a job
// still pending is cancelled outright. Otherwise: cancelled, as scancel does.
void cancelSlurmJob(const std::string &jobId, bool gently);

}  // namespace tw::cli
