// `torchwright check`: the same parse and analysis the builder and Studio use, printed as a table.

#include "app/cli/commands.h"
#include "app/cli/launch_setup.h"
#include "app/cli/usage.h"
#include "app/cli/worker_call.h"
#include "app/common/init_source.h"

#include "core/config/init_from.h"
#include "core/config/run_config.h"
#include "core/config/workspace.h"
#include "core/data/data_splits.h"
#include "core/spec/analysis.h"
#include "core/spec/model_spec.h"
#include "core/validate/validate_run.h"
#include "tracking/workspace_store.h"
#include "tracking/store.h"

#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <filesystem>
#include <optional>

namespace tw::cli {

namespace {

// A run file has a top-level `model:` key; a model file has `nodes:`/`layers:`.
bool isRunFile(const std::string &path) {
  try {
    YAML::Node root = YAML::LoadFile(path);
    return root.IsMap() && root["model"];
  } catch (const YAML::Exception &) {
    return false;  // the model parser reports the syntax error with its location
  }
}

// A classifier wider than the data's classes trains, but some of its answers can never be right.
void warnAboutClasses(const spec::Analysis &analysis, const config::DataOptions &data) {
  const spec::NodeInfo *output = analysis.find(analysis.output);
  if (!output || output->outputShape.size() != 1) return;
  const int64_t classes = data::dataClassCount(data);
  if (classes > 0 && output->outputShape[0] > classes)
    std::fprintf(stderr, "warning: %s\n", data::classSurplusWarning(output->id, output->outputShape[0], classes).c_str());
}

}  // namespace

// train.init_from's mapping table, before any run loads it: the worker reads the file and the
// model (LibTorch); a run reference is resolved here, where the store is.
int planWeights(const CliArgs &args, const std::string &selfPath, const std::string &runFile, const std::string &initFrom) {
  std::string file = initFrom;
  if (config::isRunReference(initFrom)) {
    const std::string db = tracking::workspaceStore(args.workspace());
    if (!tracking::storeMayExist(db)) {
      std::fprintf(stderr, "train.init_from: %s names a run, but the workspace %s has no runs yet (no %s); give "
                   "--workspace DIR\n", initFrom.c_str(), args.workspace().c_str(), db.c_str());
      return 1;
    }
    try {
      auto store = tracking::Store::open(tracking::workspaceStore(args.workspace()));
      file = app::resolveInitSource(*store, args.workspace(), initFrom).file;
    } catch (const std::exception &e) {
      std::fprintf(stderr, "%s\n", e.what());
      return 1;
    }
  }
  std::vector<std::string> workerArgs{"--plan-weights", file, "--config", runFile};
  for (const std::string &set : args.all("--set")) workerArgs.insert(workerArgs.end(), {"--set", set});
  std::printf("\n");
  std::fflush(stdout);
  return callWorker(selfPath, workerArgs) == 0 ? 0 : 1;
}

int runCheck(const CliArgs &args, const std::string &selfPath) {
  if (args.positionals.size() != 1) return usageError("check");
  const std::string &path = args.positionals[0];
  try {
    spec::ModelSpec model;
    std::optional<config::RunConfig> config;
    if (isRunFile(path)) {
      config = config::loadRunConfig(path, args.all("--set"));
      model = config->modelFile.empty() ? spec::parseModelYaml(config->modelYaml, path + " (model)")
                                        : spec::parseModelYaml(config->modelYaml, config->modelFile);
    } else {
      model = spec::parseModelFile(path);
    }
    auto analysis = spec::analyze(model);
    if (!analysis.ok()) {
      printDiagnostics(analysis.diagnostics);
      std::fprintf(stderr, "%zu problem(s) found in %s\n", analysis.diagnostics.size(), path.c_str());
      return 1;
    }
    std::printf("%s", spec::formatSummary(model, analysis).c_str());
    if (config) warnAboutClasses(analysis, config->data);
    if (!config) return 0;
    // A run file is checked as `train` would check it before recording a run: the same rules,
    // the data source, and the memory the run needs against the device it names.
    const validate::RunCheck check = validate::validateRun(*config, analysis);
    std::printf("\n%s", validate::formatMemoryEstimate(check.memory, *config).c_str());
    if (!check.ok()) {
      std::fflush(stdout);
      std::fprintf(stderr, "%s\n", spec::formatDiagnostics(check.diagnostics).c_str());
      std::fprintf(stderr, "%zu problem(s) found in %s\n", check.diagnostics.size(), path.c_str());
      return 1;
    }
    if (!config->train.initFrom.empty()) return planWeights(args, selfPath, path, config->train.initFrom);
    return 0;
  } catch (const spec::SpecError &e) {
    printDiagnostics(e.diagnostics());
    return 1;
  } catch (const config::ConfigError &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}

}  // namespace tw::cli
