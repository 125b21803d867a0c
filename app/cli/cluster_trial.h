#pragma once
// A trial as a cluster's job (executor: slurm or kubernetes in the sweep file). The driver
// records the trial's run first; the job resumes that run (`torchwright launch --resume RUN`), so
// the same job starts it the first time and continues it from its last checkpoint after a
// preemption, a requeue or a pod's eviction. What identifies the job is kept in the study folder
// (trial-N.slurm, trial-N.k8s), so that a driver that restarts adopts the jobs its predecessor
// left running.

#include "app/cli/trial_job.h"
#include "core/sweep/sweep_file.h"

#include <memory>
#include <string>

namespace tw::cli {

struct ClusterTrialSpec {
  std::string studyFolder;
  std::string studyName;
  std::string studyUuid;
  int number = 0;
  std::string executable;  // this torchwright, as the job's node runs it (a shared path; in a
                           // container, `torchwright` on the image's PATH)
  std::string workspace;   // absolute, the same path on every node
  std::string runUuid;     // the trial's run, recorded already
  sweep::Executor executor;
};

// Writes the job's script or manifest beside the study and submits it. Throws
// std::runtime_error with the cluster's words.
std::unique_ptr<TrialJob> submitClusterTrial(const ClusterTrialSpec &spec);

// The job a driver submitted for trial `number`, followed again; nullptr when none was recorded.
std::unique_ptr<TrialJob> adoptClusterTrial(const sweep::Executor &executor, const std::string &studyFolder, int number);

// Whether the cluster would take the trials' request, asked before the study is recorded: "" when
// it would, else why not in the cluster's words (a missing sbatch or kubectl is a reason too).
std::string clusterRequestProblem(const sweep::Executor &executor, const std::string &workspace);

// The request in one line, for the driver's plan ("sbatch --partition=gpu ...").
std::string clusterRequestText(const sweep::Executor &executor);

}  // namespace tw::cli
