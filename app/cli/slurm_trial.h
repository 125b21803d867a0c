#pragma once
// A trial as a SLURM batch job (cluster_trial.h): its script `trial-N.sbatch` resumes the trial's
// run, its id is kept in `trial-N.slurm`, and its state comes from scontrol (sacct once the
// controller has forgotten it).

#include "app/cli/cluster_trial.h"
#include "app/cli/slurm_commands.h"

#include <chrono>
#include <optional>
#include <string>

namespace tw::cli {

// Writes the job's script and submits it; returns the job's id, also recorded in the study folder.
std::string submitSlurmTrial(const ClusterTrialSpec &spec);

// The job id a driver recorded for trial `number`, if any.
std::optional<std::string> recordedSlurmTrial(const std::string &studyFolder, int number);

class SlurmTrialJob : public TrialJob {
 public:
  explicit SlurmTrialJob(std::string jobId) : m_id(std::move(jobId)) {}
  bool poll() override;  // asks the scheduler at most every 2 s; a failure must stand for 10 s
  bool exited() const override { return m_ended; }
  std::string describeExit() const override;
  std::string schedulerEnding() const override;
  std::string where() const override { return "SLURM job " + m_id; }
  void terminate() override;
  void kill() override;

 private:
  std::string m_id;
  SlurmJobState m_state;
  bool m_ended = false;
  bool m_stoppedByUs = false;
  static constexpr std::chrono::seconds kFailureStands{10};
  std::optional<std::chrono::steady_clock::time_point> m_finalSince;  // first look at this failure
  int m_finalRestarts = 0;
  std::chrono::steady_clock::time_point m_lastAsked{};
};

}  // namespace tw::cli
