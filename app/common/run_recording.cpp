#include "app/common/run_recording.h"

#include "app/common/init_source.h"

#include "core/config/workspace.h"
#include "core/config/zip_archive_check.h"
#include "core/sysmon/host_info.h"

#include <spdlog/version.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace fs = std::filesystem;

namespace tw::app {

namespace {

std::string libraryVersions() {
  std::string versions = std::string("torchwright=") + TW_VERSION + " libtorch=" + TW_LIBTORCH_VERSION +
                         " sqlite=" + tracking::Store::sqliteVersion() + " spdlog=" +
                         std::to_string(SPDLOG_VER_MAJOR) + "." + std::to_string(SPDLOG_VER_MINOR) + "." +
                         std::to_string(SPDLOG_VER_PATCH) + " qt=" + TW_QT_VERSION;
#if defined(__clang__)
  versions += " compiler=clang-" __clang_version__;
#elif defined(__GNUC__)
  versions += " compiler=gcc-" + std::to_string(__GNUC__) + "." + std::to_string(__GNUC_MINOR__) + "." +
              std::to_string(__GNUC_PATCHLEVEL__);
#endif
  return versions;
}

// The environment variables that change what a run computes or how fast: threads, devices,
// distributed rendezvous. Recorded with the run, as "NAME=value" lines.
std::string relevantEnvironment() {
  static const char *kNames[] = {"OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                                 "CUDA_VISIBLE_DEVICES", "CUBLAS_WORKSPACE_CONFIG", "NCCL_DEBUG",
                                 "MASTER_ADDR", "MASTER_PORT", "WORLD_SIZE", "RANK", "LOCAL_RANK",
                                 "SLURM_JOB_ID", "SLURM_PROCID", "SLURM_NTASKS", "TORCHWRIGHT_CORES",
                                 "GLOO_SOCKET_IFNAME", "NCCL_SOCKET_IFNAME", "TW_WORKSPACE", "LANG"};
  std::string out;
  for (const char *name : kNames)
    if (const char *value = std::getenv(name)) out += std::string(name) + "=" + value + "\n";
  return out;
}

void writeFile(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out.flush()) throw std::runtime_error("cannot write '" + path + "'");
}

}  // namespace

tracking::RunRecord recordRun(tracking::Store &store, const config::RunConfig &config, const std::string &workspace,
                              int64_t modelParameters) {
  const InitSource init = resolveInitSource(store, workspace, config.train.initFrom);
  // Before the run exists: a starting checkpoint cut short would only fail the run in its worker.
  if (!init.file.empty())
    if (const std::string problem = config::zipArchiveProblem(init.file); !problem.empty())
      throw std::runtime_error("train.init_from: " + init.description + ": " + init.file + " " + problem);
  const auto host = sysmon::readHostInfo();
  tracking::NewRun newRun;
  newRun.experiment = config.tracking.experiment;
  newRun.name = config.tracking.runName;
  newRun.uniqueName = true;  // a second launch of one run file is "name-2", never a second "name"
  newRun.configYaml = config::toYaml(config);
  newRun.configHash = config::configHash(config);
  newRun.seed = config.train.seed;
  newRun.libraryVersions = libraryVersions();
  newRun.host = host.hostname + " (" + host.os + ")";
  newRun.hardware = host.hardwareSummary();
  newRun.runsRoot = config::runsRoot(workspace);
  tracking::RunRecord run = store.createRun(newRun);

  fs::create_directories(fs::path(run.runDir) / "checkpoints");
  fs::create_directories(fs::path(run.runDir) / "artifacts");
  writeFile((fs::path(run.runDir) / "config.yaml").string(), newRun.configYaml);
  auto params = config::flattenConfig(config);
  params["model.parameters"] = std::to_string(modelParameters);
  store.setParams(run.id, params);
  const std::string environment = relevantEnvironment();
  if (!environment.empty()) store.setTag(run.id, "environment", environment);
  if (!init.file.empty()) store.setTag(run.id, "init_from", init.description);
  return run;
}

std::string runFolder(const std::string &workspace, const tracking::RunRecord &run) {
  return run.runDir.empty() ? config::runDir(workspace, run.uuid) : run.runDir;
}

}  // namespace tw::app
