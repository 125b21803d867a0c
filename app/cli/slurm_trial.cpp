#include "app/cli/slurm_trial.h"

#include "app/cli/trial_files.h"

#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace tw::cli {

namespace {

std::string shellQuoted(const std::string &text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

std::string submitSlurmTrial(const ClusterTrialSpec &spec) {
  const std::string script = trialFile(spec.studyFolder, spec.number, ".sbatch");
  // --force: after a requeue the run may still read RUNNING (its worker was killed); the
  // scheduler runs one instance of a job at a time. The store's location reaches the job in the
  // environment sbatch exports, never on a command line.
  writeTrialFile(script,
            "#!/bin/sh\n"
            "# Trial " + std::to_string(spec.number) + " of study " + spec.studyName +
                ", written by the sweep driver. Its run resumes from its last checkpoint\n"
                "# when the job is requeued.\n"
                "exec " + shellQuoted(spec.executable) + " launch --resume " + spec.runUuid + " --force --workspace " +
                shellQuoted(spec.workspace) + "\n",
            0755);
  SlurmSubmission job;
  job.request = sbatchRequest(spec.executor);
  std::string name = "tw-" + spec.studyName;
  if (name.size() > 40) name.resize(40);
  job.jobName = name + "-" + std::to_string(spec.number);
  job.logFile = trialFile(spec.studyFolder, spec.number, ".log");
  job.script = script;
  const std::string id = submitSlurmJob(job);
  writeTrialFile(trialFile(spec.studyFolder, spec.number, ".slurm"), id + "\n");
  return id;
}

std::optional<std::string> recordedSlurmTrial(const std::string &studyFolder, int number) {
  std::ifstream in(trialFile(studyFolder, number, ".slurm"));
  std::string id;
  if (!(in >> id) || id.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return id;
}

bool SlurmTrialJob::poll() {
  if (m_ended) return true;
  const auto now = std::chrono::steady_clock::now();
  if (now - m_lastAsked < std::chrono::seconds(2)) return false;
  m_lastAsked = now;
  try {
    m_state = querySlurmJob(m_id);
  } catch (const std::exception &e) {
    // The controller did not answer this time: the job is not over for that.
    std::fprintf(stderr, "torchwright: SLURM job %s: %s\n", m_id.c_str(), e.what());
    return false;
  }
  // A job being requeued can read FAILED or CANCELLED for seconds before it is PENDING again (seen
  // for over 2 s under load): a failure counts once it has stood for 10 s with no restart. A
  // COMPLETED job, or one the scheduler has forgotten, will not change.
  if (!m_state.ended()) {
    m_finalSince.reset();
    return false;
  }
  if (!m_state.known || m_state.state == "COMPLETED") return m_ended = true;
  if (!m_finalSince || m_finalRestarts != m_state.restarts) {
    m_finalSince = now;
    m_finalRestarts = m_state.restarts;
    return false;
  }
  m_ended = now - *m_finalSince >= kFailureStands;
  return m_ended;
}

std::string SlurmTrialJob::describeExit() const {
  if (!m_state.known) return "SLURM job " + m_id + " is no longer known to the scheduler";
  std::string out = "SLURM job " + m_id + " ended " + m_state.state;
  if (!m_state.reason.empty()) out += " (" + m_state.reason + ")";
  if (!m_state.exitCode.empty() && m_state.exitCode != "0:0") out += ", exit code " + m_state.exitCode;
  return out;
}

std::string SlurmTrialJob::schedulerEnding() const {
  if (m_stoppedByUs || !m_state.known) return {};
  const std::string &s = m_state.state;
  std::string why;
  if (s == "TIMEOUT") why = "it reached its time limit";
  else if (s == "CANCELLED") why = "it was cancelled outside the sweep (scancel)";
  else if (s == "NODE_FAIL") why = "its node failed";
  else if (s == "PREEMPTED") why = "it was preempted and not requeued";
  else if (s == "OUT_OF_MEMORY") why = "it ran out of its memory request";
  else if (s == "BOOT_FAIL" || s == "DEADLINE" || s == "REVOKED") why = "the scheduler ended it";
  else return {};
  return "SLURM ended job " + m_id + ": " + why + " (" + s + (m_state.reason.empty() ? "" : ", " + m_state.reason) + ")";
}

void SlurmTrialJob::terminate() {
  m_stoppedByUs = true;
  try {
    cancelSlurmJob(m_id, /*gently=*/true);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torchwright: %s\n", e.what());
  }
}

void SlurmTrialJob::kill() {
  m_stoppedByUs = true;
  try {
    cancelSlurmJob(m_id, /*gently=*/false);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torchwright: %s\n", e.what());
  }
}

}  // namespace tw::cli
