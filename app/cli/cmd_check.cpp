// `torchwright check`: the same parse and analysis the builder and Studio use, printed as a table.

#include "app/cli/commands.h"

#include "core/config/run_config.h"
#include "core/data/data_splits.h"
#include "core/spec/analysis.h"
#include "core/spec/model_spec.h"

#include <yaml-cpp/yaml.h>

#include <cstdio>
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

int runCheck(const CliArgs &args) {
  if (args.positionals.size() != 1) {
    std::fprintf(stderr, "usage: torchwright check MODEL.yaml|RUN.yaml\n");
    return 2;
  }
  const std::string &path = args.positionals[0];
  try {
    spec::ModelSpec model;
    std::optional<config::RunConfig> run;
    if (isRunFile(path)) {
      auto config = config::loadRunConfig(path, args.all("--set"));
      run = config;
      model = config.modelFile.empty() ? spec::parseModelYaml(config.modelYaml, path + " (model)")
                                       : spec::parseModelYaml(config.modelYaml, config.modelFile);
    } else {
      model = spec::parseModelFile(path);
    }
    auto analysis = spec::analyze(model);
    if (!analysis.ok()) {
      std::fprintf(stderr, "%s", spec::formatDiagnostics(analysis.diagnostics).c_str());
      std::fprintf(stderr, "%zu problem(s) found in %s\n", analysis.diagnostics.size(), path.c_str());
      return 1;
    }
    std::printf("%s", spec::formatSummary(model, analysis).c_str());
    if (run) warnAboutClasses(analysis, run->data);
    return 0;
  } catch (const spec::SpecError &e) {
    std::fprintf(stderr, "%s", spec::formatDiagnostics(e.diagnostics()).c_str());
    return 1;
  } catch (const config::ConfigError &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}

}  // namespace tw::cli
