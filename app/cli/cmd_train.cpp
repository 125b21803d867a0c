// `torchwright train`: resolve the configuration, check the model, record the run, then hand it
// to torchwright-worker. Everything that can be wrong with the input is reported before a run
// row exists, so a typo never leaves a FAILED run behind.

#include "app/cli/commands.h"
#include "app/cli/worker_process.h"

#include "core/config/run_config.h"
#include "core/config/workspace.h"
#include "core/spec/analysis.h"
#include "core/spec/model_spec.h"
#include "core/sysmon/host_info.h"
#include "tracking/store.h"

#include <spdlog/version.h>

#include <csignal>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace tw::cli {

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

void writeFile(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out.flush()) throw std::runtime_error("cannot write '" + path + "'");
}

}  // namespace

int runTrain(const CliArgs &args, const std::string &selfPath) {
  if (args.positionals.size() != 1) {
    std::fprintf(stderr, "usage: torchwright train RUN.yaml [--set key=value ...] [--workspace DIR]\n");
    return 2;
  }
  const std::string runFile = args.positionals[0];
  config::RunConfig config;
  try {
    config = config::loadRunConfig(runFile, args.all("--set"));
  } catch (const config::ConfigError &e) {
    std::fprintf(stderr, "torchwright: %s\n", e.what());
    return 1;
  }
  const std::string modelName = config.modelFile.empty() ? runFile + " (model)" : config.modelFile;
  spec::Analysis analysis;
  try {
    analysis = spec::analyze(spec::parseModelYaml(config.modelYaml, modelName));
  } catch (const spec::SpecError &e) {
    std::fprintf(stderr, "%s", spec::formatDiagnostics(e.diagnostics()).c_str());
    return 1;
  }
  if (!analysis.ok()) {
    std::fprintf(stderr, "%s", spec::formatDiagnostics(analysis.diagnostics).c_str());
    return 1;
  }

  const std::string workspace = args.workspace();
  config::ensureWorkspace(workspace);
  auto store = tracking::Store::open(config::trackingDbPath(workspace));
  const auto host = sysmon::readHostInfo();

  tracking::NewRun newRun;
  newRun.experiment = config.tracking.experiment;
  newRun.name = config.tracking.runName;
  newRun.configYaml = config::toYaml(config);
  newRun.configHash = config::configHash(config);
  newRun.seed = config.train.seed;
  newRun.libraryVersions = libraryVersions();
  newRun.host = host.hostname + " (" + host.os + ")";
  newRun.hardware = host.hardwareSummary();
  newRun.runsRoot = config::runsRoot(workspace);
  tracking::RunRecord run = store->createRun(newRun);

  const std::string dir = run.runDir;
  fs::create_directories(fs::path(dir) / "checkpoints");
  fs::create_directories(fs::path(dir) / "artifacts");
  writeFile((fs::path(dir) / "config.yaml").string(), newRun.configYaml);
  auto params = config::flattenConfig(config);
  params["model.parameters"] = std::to_string(analysis.totalParams);
  store->setParams(run.id, params);

  std::printf("run %s (%s) in experiment '%s'\n", run.uuid.c_str(), run.name.c_str(), run.experiment.c_str());
  std::printf("model %s: %lld parameters; workspace %s\n", modelName.c_str(),
              static_cast<long long>(analysis.totalParams), workspace.c_str());
  std::fflush(stdout);

  auto exit = runWorker(workerPathBeside(selfPath), {"--workspace", workspace, "--run", run.uuid});
  if (!exit.started) {
    store->setStatus(run.id, tracking::RunStatus::Failed, "worker did not start: " + exit.error);
    std::fprintf(stderr, "torchwright: %s\n", exit.error.c_str());
    return 1;
  }
  if (exit.signaled) {
    // The worker could not record its own end: the run must not stay RUNNING.
    const std::string reason = "worker killed by signal " + std::to_string(exit.signal) + " (" +
                               strsignal(exit.signal) + ")";
    store->setStatus(run.id, tracking::RunStatus::Failed, reason);
    std::fprintf(stderr, "torchwright: run %s failed: %s\n", run.uuid.c_str(), reason.c_str());
    return 1;
  }
  if (exit.exitCode != 0) {
    auto after = store->run(run.id);
    if (after && (after->status == tracking::RunStatus::Running || after->status == tracking::RunStatus::Created))
      store->setStatus(run.id, tracking::RunStatus::Failed, "worker exited with code " + std::to_string(exit.exitCode));
  }
  return exit.exitCode == 0 ? 0 : 1;
}

}  // namespace tw::cli
