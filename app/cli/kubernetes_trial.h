#pragma once
// A trial as a Kubernetes Job (cluster_trial.h). The manifest `trial-N.job.yaml` runs the image's
// `torchwright launch --resume RUN` with the trial's resources, the workspace's claim mounted at
// the workspace's own path, TW_STORE from a Secret (never in the manifest), the time limit as
// activeDeadlineSeconds, and a pod failure policy that does not count an eviction against the
// job's retries (the next pod resumes from the checkpoint). kubectl applies it, reads its
// conditions and deletes it; `<namespace>/<name>` is kept in `trial-N.k8s`.
//
//   ClusterTrialSpec spec{...};
//   std::string manifest = kubernetesJobYaml(spec);   // what `kubectl apply -f` takes

#include "app/cli/cluster_trial.h"

#include <chrono>
#include <optional>
#include <string>

namespace tw::cli {

// The Job's name: "tw-<study>-<study id's first 8>-<trial>", a DNS-1123 label of at most 63.
std::string kubernetesJobName(const ClusterTrialSpec &spec);

// The manifest as YAML.
std::string kubernetesJobYaml(const ClusterTrialSpec &spec);

// "16G" (the sweep file's memory, SLURM's form) as Kubernetes writes it: "16Gi"; megabytes
// without a unit: "4000Mi".
std::string kubernetesQuantity(const std::string &memory);

// SLURM's time forms in seconds; nullopt for none or UNLIMITED.
std::optional<long long> timeLimitSeconds(const std::string &time);

// Applies the manifest; returns "<namespace>/<name>", recorded in the study folder.
std::string submitKubernetesTrial(const ClusterTrialSpec &spec);
std::optional<std::string> recordedKubernetesTrial(const std::string &studyFolder, int number);

class KubernetesTrialJob : public TrialJob {
 public:
  explicit KubernetesTrialJob(std::string qualifiedName);  // "<namespace>/<name>" or "<name>"
  bool poll() override;  // asks the API server at most every 2 s
  bool exited() const override { return m_ended; }
  std::string describeExit() const override;
  std::string schedulerEnding() const override;
  std::string where() const override { return "Kubernetes job " + m_qualified; }
  void terminate() override;  // deleted with a 60 s grace: SIGTERM, the run stops after a checkpoint
  void kill() override;       // deleted at once

 private:
  std::string m_qualified, m_namespace, m_name;
  bool m_ended = false, m_known = true, m_stoppedByUs = false;
  std::string m_condition, m_reason, m_message;  // the Job's Complete or Failed condition
  std::chrono::steady_clock::time_point m_lastAsked{};
};

}  // namespace tw::cli
