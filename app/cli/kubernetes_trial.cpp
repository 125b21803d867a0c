#include "app/cli/kubernetes_trial.h"

#include "app/cli/slurm_commands.h"
#include "app/cli/trial_files.h"

#include <yaml-cpp/yaml.h>

#include <cctype>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>


namespace tw::cli {

namespace {

// kubectl's complaint without its "error: " or "Error from server ...: " prefix.
std::string kubectlError(const CommandOutput &o) {
  std::string text = o.err.empty() ? o.out : o.err;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (text.rfind("error: ", 0) == 0) text = text.substr(7);
  if (text.empty()) text = o.code < 0 ? "it did not answer in time" : "it exited with code " + std::to_string(o.code);
  return text;
}

std::vector<std::string> namespaced(const std::string &ns, std::vector<std::string> arguments) {
  if (!ns.empty()) arguments.insert(arguments.end(), {"--namespace", ns});
  return arguments;
}

}  // namespace

std::string kubernetesJobName(const ClusterTrialSpec &spec) {
  std::string study;
  for (char c : spec.studyName) study += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::tolower(c)) : '-';
  const std::string tail = "-" + spec.studyUuid.substr(0, 8) + "-" + std::to_string(spec.number);
  const size_t room = 63 - 3 - tail.size();
  if (study.size() > room) study.resize(room);
  while (!study.empty() && study.back() == '-') study.pop_back();
  return "tw-" + (study.empty() ? std::string("study") : study) + tail;
}

std::string kubernetesQuantity(const std::string &memory) {
  if (memory.empty()) return {};
  const char unit = static_cast<char>(std::toupper(static_cast<unsigned char>(memory.back())));
  if (std::isdigit(static_cast<unsigned char>(unit))) return memory + "Mi";
  return memory.substr(0, memory.size() - 1) + unit + "i";
}

std::optional<long long> timeLimitSeconds(const std::string &time) {
  if (time.empty() || time == "UNLIMITED" || time == "INFINITE" || time == "unlimited" || time == "infinite")
    return std::nullopt;
  long long days = 0;
  std::string rest = time;
  if (const auto dash = time.find('-'); dash != std::string::npos) {
    days = std::stoll(time.substr(0, dash));
    rest = time.substr(dash + 1);
  }
  std::vector<long long> parts;
  std::stringstream in(rest);
  std::string part;
  while (std::getline(in, part, ':')) parts.push_back(std::stoll(part));
  long long seconds = 0;
  if (days > 0) {  // days-hours[:minutes[:seconds]]
    const long long units[] = {3600, 60, 1};
    for (size_t i = 0; i < parts.size() && i < 3; ++i) seconds += parts[i] * units[i];
    return days * 86400 + seconds;
  }
  switch (parts.size()) {  // minutes | minutes:seconds | hours:minutes:seconds
    case 1: return parts[0] * 60;
    case 2: return parts[0] * 60 + parts[1];
    default: return parts[0] * 3600 + parts[1] * 60 + parts[2];
  }
}

std::string kubernetesJobYaml(const ClusterTrialSpec &spec) {
  const sweep::Executor &e = spec.executor;
  const std::string name = kubernetesJobName(spec);
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "apiVersion" << YAML::Value << "batch/v1";
  out << YAML::Key << "kind" << YAML::Value << "Job";
  auto labels = [&] {
    out << YAML::Key << "labels" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "app.kubernetes.io/name" << YAML::Value << "torchwright";
    out << YAML::Key << "torchwright.io/study" << YAML::Value << spec.studyUuid.substr(0, 32);
    out << YAML::Key << "torchwright.io/trial" << YAML::Value << YAML::DoubleQuoted << std::to_string(spec.number);
    out << YAML::EndMap;
  };
  out << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << name;
  if (!e.kubeNamespace.empty()) out << YAML::Key << "namespace" << YAML::Value << e.kubeNamespace;
  labels();
  out << YAML::Key << "annotations" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "torchwright.io/run" << YAML::Value << spec.runUuid;
  out << YAML::Key << "torchwright.io/study-name" << YAML::Value << spec.studyName;
  out << YAML::EndMap;
  out << YAML::EndMap;

  out << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
  // A pod that fails resumes the run in a new pod, up to 3 times; an eviction or preemption is
  // not the run's failure and is not counted (podFailurePolicy, Kubernetes 1.26 and later).
  out << YAML::Key << "backoffLimit" << YAML::Value << 3;
  if (const auto seconds = timeLimitSeconds(e.time)) out << YAML::Key << "activeDeadlineSeconds" << YAML::Value << *seconds;
  out << YAML::Key << "podFailurePolicy" << YAML::Value << YAML::BeginMap << YAML::Key << "rules" << YAML::Value
      << YAML::BeginSeq << YAML::BeginMap << YAML::Key << "action" << YAML::Value << "Ignore" << YAML::Key
      << "onPodConditions" << YAML::Value << YAML::BeginSeq << YAML::BeginMap << YAML::Key << "type" << YAML::Value
      << "DisruptionTarget" << YAML::EndMap << YAML::EndSeq << YAML::EndMap << YAML::EndSeq << YAML::EndMap;
  out << YAML::Key << "template" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap;
  labels();
  out << YAML::EndMap;
  out << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "restartPolicy" << YAML::Value << "Never";
  // The launcher's stop after a checkpoint needs more than the default 30 s on a large model.
  out << YAML::Key << "terminationGracePeriodSeconds" << YAML::Value << 120;
  out << YAML::Key << "containers" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << "trial";
  out << YAML::Key << "image" << YAML::Value << e.image;
  out << YAML::Key << "command" << YAML::Value << YAML::Flow << YAML::BeginSeq << spec.executable << "launch"
      << "--resume" << spec.runUuid << "--force" << "--workspace" << spec.workspace << YAML::EndSeq;
  if (!e.storeSecret.empty()) {
    out << YAML::Key << "env" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << "TW_STORE";
    out << YAML::Key << "valueFrom" << YAML::Value << YAML::BeginMap << YAML::Key << "secretKeyRef" << YAML::Value
        << YAML::BeginMap << YAML::Key << "name" << YAML::Value << e.storeSecret << YAML::Key << "key" << YAML::Value
        << "url" << YAML::EndMap << YAML::EndMap;
    out << YAML::EndMap << YAML::EndSeq;
  }
  // Requests equal to limits: the trial gets exactly its cores, and sizes its threads to them.
  auto resources = [&] {
    out << YAML::BeginMap;
    out << YAML::Key << "cpu" << YAML::Value << YAML::DoubleQuoted << std::to_string(e.cpus);
    if (!e.memory.empty()) out << YAML::Key << "memory" << YAML::Value << kubernetesQuantity(e.memory);
    if (e.gpus > 0) out << YAML::Key << "nvidia.com/gpu" << YAML::Value << YAML::DoubleQuoted << std::to_string(e.gpus);
    out << YAML::EndMap;
  };
  out << YAML::Key << "resources" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "requests" << YAML::Value;
  resources();
  out << YAML::Key << "limits" << YAML::Value;
  resources();
  out << YAML::EndMap;
  out << YAML::Key << "volumeMounts" << YAML::Value << YAML::BeginSeq << YAML::BeginMap << YAML::Key << "name"
      << YAML::Value << "workspace" << YAML::Key << "mountPath" << YAML::Value << spec.workspace << YAML::EndMap
      << YAML::EndSeq;
  out << YAML::EndMap << YAML::EndSeq;  // the container
  out << YAML::Key << "volumes" << YAML::Value << YAML::BeginSeq << YAML::BeginMap << YAML::Key << "name" << YAML::Value
      << "workspace" << YAML::Key << "persistentVolumeClaim" << YAML::Value << YAML::BeginMap << YAML::Key
      << "claimName" << YAML::Value << e.workspaceClaim << YAML::EndMap << YAML::EndMap << YAML::EndSeq;
  out << YAML::EndMap;  // pod spec
  out << YAML::EndMap;  // template
  out << YAML::EndMap;  // job spec
  out << YAML::EndMap;
  return std::string("# Trial ") + std::to_string(spec.number) + " of study " + spec.studyName +
         ", written by the sweep driver (kubectl apply -f).\n" + out.c_str() + "\n";
}

std::string submitKubernetesTrial(const ClusterTrialSpec &spec) {
  const std::string manifest = trialFile(spec.studyFolder, spec.number, ".job.yaml");
  writeTrialFile(manifest, kubernetesJobYaml(spec));
  const CommandOutput o = runCommand("kubectl", {"apply", "--filename", manifest});
  if (o.code != 0) throw std::runtime_error("kubectl did not take the trial's job: " + kubectlError(o));
  const std::string qualified =
      (spec.executor.kubeNamespace.empty() ? std::string() : spec.executor.kubeNamespace + "/") + kubernetesJobName(spec);
  writeTrialFile(trialFile(spec.studyFolder, spec.number, ".k8s"), qualified + "\n");
  return qualified;
}

std::optional<std::string> recordedKubernetesTrial(const std::string &studyFolder, int number) {
  std::ifstream in(trialFile(studyFolder, number, ".k8s"));
  std::string qualified;
  if (!(in >> qualified)) return std::nullopt;
  return qualified;
}

KubernetesTrialJob::KubernetesTrialJob(std::string qualifiedName) : m_qualified(std::move(qualifiedName)) {
  const auto slash = m_qualified.find('/');
  m_namespace = slash == std::string::npos ? std::string() : m_qualified.substr(0, slash);
  m_name = slash == std::string::npos ? m_qualified : m_qualified.substr(slash + 1);
}

bool KubernetesTrialJob::poll() {
  if (m_ended) return true;
  const auto now = std::chrono::steady_clock::now();
  if (now - m_lastAsked < std::chrono::seconds(2)) return false;
  m_lastAsked = now;
  CommandOutput o;
  try {
    // One line per condition: "Complete True reason message".
    o = runCommand("kubectl", namespaced(m_namespace, {"get", "job", m_name, "--output",
                                                       "jsonpath={range .status.conditions[*]}{.type}\t{.status}\t{.reason}\t{.message}\n{end}"}),
                   30);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torchwright: Kubernetes job %s: %s\n", m_qualified.c_str(), e.what());
    return false;
  }
  if (o.code != 0) {
    if (o.err.find("NotFound") != std::string::npos || o.err.find("not found") != std::string::npos) {
      m_known = false;
      m_ended = true;
    } else {
      std::fprintf(stderr, "torchwright: Kubernetes job %s: %s\n", m_qualified.c_str(), kubectlError(o).c_str());
    }
    return m_ended;
  }
  std::stringstream lines(o.out);
  std::string line;
  while (std::getline(lines, line)) {
    std::stringstream fields(line);
    std::string type, status, reason, message;
    std::getline(fields, type, '\t');
    std::getline(fields, status, '\t');
    std::getline(fields, reason, '\t');
    std::getline(fields, message);
    if ((type == "Complete" || type == "Failed") && status == "True") {
      m_condition = type;
      m_reason = reason;
      m_message = message;
      m_ended = true;
    }
  }
  return m_ended;
}

std::string KubernetesTrialJob::describeExit() const {
  if (!m_known) return "Kubernetes job " + m_qualified + " is no longer in the cluster";
  std::string out = "Kubernetes job " + m_qualified + " ended " + (m_condition.empty() ? "?" : m_condition);
  if (!m_reason.empty()) out += " (" + m_reason + (m_message.empty() ? "" : ": " + m_message) + ")";
  return out;
}

std::string KubernetesTrialJob::schedulerEnding() const {
  if (m_stoppedByUs || !m_known || m_condition != "Failed") return {};
  if (m_reason == "DeadlineExceeded") return "Kubernetes ended job " + m_qualified + ": it reached its time limit (DeadlineExceeded)";
  if (m_reason == "PodFailurePolicy") return "Kubernetes ended job " + m_qualified + ": " + m_message;
  return {};
}

void KubernetesTrialJob::terminate() {
  m_stoppedByUs = true;
  try {
    const CommandOutput o = runCommand("kubectl", namespaced(m_namespace, {"delete", "job", m_name, "--wait=false", "--grace-period=120"}), 30);
    if (o.code != 0) std::fprintf(stderr, "torchwright: kubectl delete job %s: %s\n", m_qualified.c_str(), kubectlError(o).c_str());
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torchwright: %s\n", e.what());
  }
}

void KubernetesTrialJob::kill() {
  m_stoppedByUs = true;
  try {
    const CommandOutput o = runCommand("kubectl", namespaced(m_namespace, {"delete", "job", m_name, "--wait=false", "--grace-period=1"}), 30);
    if (o.code != 0) std::fprintf(stderr, "torchwright: kubectl delete job %s: %s\n", m_qualified.c_str(), kubectlError(o).c_str());
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torchwright: %s\n", e.what());
  }
}

}  // namespace tw::cli
