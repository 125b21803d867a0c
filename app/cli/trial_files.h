#pragma once
// A trial's files in its study's folder, named in one place: `trial-N.yaml` and `.log` of a
// launched trial, `trial-N.sbatch`/`.slurm` of a SLURM job, `trial-N.job.yaml`/`.k8s` of a
// Kubernetes Job. The sweep driver and the cluster executors both read and write them.

#include <sys/types.h>

#include <string>

namespace tw::cli {

// "<studyFolder>/trial-<number><suffix>", e.g. trialFile(folder, 3, ".log").
std::string trialFile(const std::string &studyFolder, int number, const std::string &suffix);

// Writes `text` whole (truncating), with `mode`; throws std::runtime_error naming the file.
void writeTrialFile(const std::string &path, const std::string &text, mode_t mode = 0644);

}  // namespace tw::cli
