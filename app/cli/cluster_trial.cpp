#include "app/cli/cluster_trial.h"

#include "app/cli/kubernetes_trial.h"
#include "app/cli/slurm_commands.h"
#include "app/cli/slurm_trial.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace tw::cli {

namespace {

// The manifest of a trial that does not exist, put to the API server as a dry run: the namespace,
// the claim's and secret's names, quotas and admission are checked as for a real trial.
std::string kubernetesProblem(const sweep::Executor &executor, const std::string &workspace) {
  if (std::getenv("TW_STORE") && executor.storeSecret.empty())
    return "the store is given by TW_STORE (or --store), which the trials' pods would not have: put its URL in a "
           "Secret (key url) and name it in executor.store_secret, or set store: in the workspace's workspace.yaml";
  ClusterTrialSpec probe;
  probe.studyName = "check";
  probe.studyUuid = "00000000";
  probe.executable = "torchwright";
  probe.workspace = workspace;
  probe.runUuid = "00000000000000000000000000000000";
  probe.executor = executor;
  char path[] = "/tmp/torchwright-job-check-XXXXXX";
  const int fd = ::mkstemp(path);
  if (fd < 0) return "cannot write a probe manifest in /tmp";
  ::close(fd);
  {
    std::ofstream out(path, std::ios::trunc);
    out << kubernetesJobYaml(probe);
  }
  std::string problem;
  try {
    const CommandOutput o = runCommand("kubectl", {"apply", "--dry-run=server", "--filename", path});
    if (o.code != 0) problem = "the cluster refuses the trials' Job (kubectl apply --dry-run=server): " + (o.err.empty() ? o.out : o.err);
  } catch (const std::exception &e) {
    problem = std::string(e.what()) + ": the kubernetes executor needs kubectl, configured for the cluster";
  }
  ::unlink(path);
  while (!problem.empty() && problem.back() == '\n') problem.pop_back();
  return problem;
}

}  // namespace

std::unique_ptr<TrialJob> submitClusterTrial(const ClusterTrialSpec &spec) {
  if (spec.executor.kubernetes()) return std::make_unique<KubernetesTrialJob>(submitKubernetesTrial(spec));
  return std::make_unique<SlurmTrialJob>(submitSlurmTrial(spec));
}

std::unique_ptr<TrialJob> adoptClusterTrial(const sweep::Executor &executor, const std::string &studyFolder, int number) {
  if (executor.kubernetes()) {
    if (auto name = recordedKubernetesTrial(studyFolder, number)) return std::make_unique<KubernetesTrialJob>(*name);
  } else if (auto id = recordedSlurmTrial(studyFolder, number)) {
    return std::make_unique<SlurmTrialJob>(*id);
  }
  return nullptr;
}

std::string clusterRequestProblem(const sweep::Executor &executor, const std::string &workspace) {
  if (executor.kubernetes()) return kubernetesProblem(executor, fs::absolute(workspace).string());
  if (executor.slurm()) return slurmRequestProblem(executor);
  return {};
}

std::string clusterRequestText(const sweep::Executor &executor) {
  std::string line;
  if (executor.kubernetes()) {
    line = "Kubernetes Jobs (image " + executor.image + ", " + std::to_string(executor.cpus) + " cpu";
    if (!executor.memory.empty()) line += ", memory " + kubernetesQuantity(executor.memory);
    if (executor.gpus > 0) line += ", " + std::to_string(executor.gpus) + " GPU";
    if (!executor.kubeNamespace.empty()) line += ", namespace " + executor.kubeNamespace;
    return line + ")";
  }
  for (const auto &option : sbatchRequest(executor)) line += " " + option;
  return "SLURM jobs (sbatch" + line + ")";
}

}  // namespace tw::cli
