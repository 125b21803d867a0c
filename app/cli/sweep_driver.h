#pragma once
// The sweep driver: runs a study to its budget. It keeps up to P trials running, each an ordinary
// tracked run on its slot's cores and GPUs (core_plan.h, trial_process.h): a one-rank trial's run
// is recorded here and trained by the slot's `torchwright-worker --serve`, which stays up between
// trials; a multi-rank trial is a `torchwright launch` of its own. It asks the sampler for every new trial from what the
// database holds; records each epoch's objective and asks the pruner; reads a finished run's
// objective into its trial; and beats the study's and its trials' heartbeats. Everything it knows
// is in the database, so a driver killed by SIGKILL loses no finished trial, and a resume
// continues the numbering where the database left it.
//
// Stopping: a first Ctrl-C starts no new trial and waits for the running ones; a second one,
// SIGTERM or Studio's Stop (the study's stop flag) stops the running trials at once, after a
// checkpoint, and records them FAILED ("stopped with the sweep"), which a pruned trial never is.

#include "core/sweep/sweep_file.h"
#include "tracking/store.h"

#include <string>

namespace tw::cli {

struct DriverOptions {
  std::string workspace;
  std::string selfPath;  // argv[0]: the worker beside it, or `torchwright launch` for multi-rank trials
  bool resume = false;   // RUNNING trials left by a dead driver are failed first
};

// The study's folder: the slots' logs, multi-rank trials' run files and logs, the driver's lock
// and log, the base as run.
std::string studyFolder(const std::string &workspace, const tracking::StudyRecord &study);

// Runs the study until its budget is spent or it is stopped. The caller holds the study's
// DriverLock. Returns the exit code: 0 when the budget was reached or the sweep was stopped on
// request with at least one trial complete, 1 otherwise.
int driveStudy(tracking::Store &store, const tracking::StudyRecord &study, const sweep::SweepFile &sweep,
               const DriverOptions &options);

}  // namespace tw::cli
