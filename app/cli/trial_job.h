#pragma once
// What the sweep driver sees of a running trial, wherever it runs: a process on this machine
// (trial_process.h) or a cluster's job (cluster_trial.h: SLURM, Kubernetes). The driver polls it,
// stops it (terminate: the run stops after a checkpoint; kill: at once) and, once it has ended,
// reads how; the trial's run in the tracking store says what it achieved.

#include <string>

namespace tw::cli {

class TrialJob {
 public:
  virtual ~TrialJob() = default;
  // Non-blocking; true once the trial has ended (a process exited, a job left the scheduler's
  // queue for good).
  virtual bool poll() = 0;
  virtual bool exited() const = 0;
  // "exited with code 1", "killed by signal 9 (Killed)", "SLURM job 12 TIMEOUT ...".
  virtual std::string describeExit() const = 0;
  // Not empty when the scheduler ended the trial on its own account (a time limit, a node
  // failure, an administrator's scancel): the reason, for the trial's FAILED message.
  virtual std::string schedulerEnding() const { return {}; }
  // Where it runs, for the driver's "trial N started" line ("SLURM job 12"); "" for a process,
  // which the driver describes by its cores.
  virtual std::string where() const { return {}; }
  virtual void terminate() = 0;  // the run stops after a checkpoint
  virtual void kill() = 0;       // at once
};

}  // namespace tw::cli
