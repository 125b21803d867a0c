#pragma once
// A trial as a SLURM batch job: what the driver submits, and the job as a TrialJob. The job's
// script resumes the trial's run (`torchwright launch --resume RUN`), recorded by the driver
// before submission, so that the same script starts it the first time and continues it from its
// last checkpoint after a preemption or requeue. The job's id is kept in the study folder
// (trial-N.slurm), so that a driver that restarts adopts the jobs its predecessor left running.

#include "app/cli/slurm_commands.h"
#include "app/cli/trial_job.h"

#include <chrono>
#include <optional>
#include <string>

namespace tw::cli {

struct SlurmTrialSpec {
  std::string studyFolder;
  std::string studyName;
  int number = 0;
  std::string executable;  // this torchwright, as the job's node will run it (a shared path)
  std::string workspace;   // absolute, shared with the nodes
  std::string runUuid;     // the trial's run, recorded already
  sweep::Executor executor;
};

// Writes the job's script and submits it; the job's id is recorded in the study folder.
// Throws std::runtime_error with the scheduler's words.
std::string submitTrialJob(const SlurmTrialSpec &spec);

// The job id a driver recorded for trial `number`, if any.
std::optional<std::string> recordedTrialJob(const std::string &studyFolder, int number);

class SlurmTrialJob : public TrialJob {
 public:
  explicit SlurmTrialJob(std::string jobId) : m_id(std::move(jobId)) {}
  const std::string &id() const { return m_id; }
  bool poll() override;  // asks the scheduler at most every 2 s; a final state is confirmed once
  bool exited() const override { return m_ended; }
  std::string describeExit() const override;
  std::string schedulerEnding() const override;
  void terminate() override;
  void kill() override;
  int restarts() const { return m_state.restarts; }

 private:
  std::string m_id;
  SlurmJobState m_state;
  bool m_ended = false;
  bool m_stoppedByUs = false;
  bool m_finalSeen = false;  // the last look found a final state
  int m_finalRestarts = 0;
  std::chrono::steady_clock::time_point m_lastAsked{};
};

}  // namespace tw::cli
