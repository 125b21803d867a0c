// `torchwright export RUN --format torchscript|onnx --out FILE`: everything that can be refused
// without LibTorch is refused here (usage, the opset's range, the output folder, a missing
// checkpoint); the worker writes and checks the file (app/worker/export_run.cpp).

#include "app/cli/commands.h"
#include "app/cli/output_file.h"
#include "app/cli/run_ref.h"
#include "app/cli/usage.h"
#include "app/cli/worker_call.h"
#include "app/common/run_recording.h"

#include "core/config/checkpoint_choice.h"
#include "core/config/onnx_opsets.h"
#include "core/config/workspace.h"
#include "core/config/zip_archive_check.h"
#include "tracking/workspace_store.h"
#include "tracking/store.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace tw::cli {


namespace {

bool isModelFile(const std::string &reference) {
  for (const char *suffix : {".yaml", ".yml"})
    if (reference.size() > std::strlen(suffix) &&
        reference.compare(reference.size() - std::strlen(suffix), std::string::npos, suffix) == 0)
      return true;
  return false;
}

}  // namespace

int runExport(const CliArgs &args, const std::string &selfPath) {
  if (args.positionals.size() != 1) return usageError("export", "give one RUN or MODEL.model.yaml");
  const std::string format = args.option("--format");
  if (format != "torchscript" && format != "onnx")
    throw UsageError("--format must be torchscript or onnx" + (format.empty() ? "" : ", got '" + format + "'"));
  const std::string checkpoint = args.option("--checkpoint", "best");
  if (const config::CheckpointChoice choice = config::parseCheckpointChoice(checkpoint); !choice.problem.empty())
    throw UsageError("--checkpoint: " + choice.problem);
  const std::string out = args.option("--out");
  if (out.empty()) throw UsageError("--out FILE is required");
  if (!args.option("--opset").empty() && format != "onnx") throw UsageError("--opset applies to ONNX only");
  if (args.hasFlag("--int8") && format != "onnx") throw UsageError("--int8 applies to ONNX only");
  const long long opset = integerOption(args, "--opset", config::kMaxOnnxOpset, config::kMinOnnxOpset,
                                         config::kMaxOnnxOpset);

  const std::string target = checkOutputFile(out);
  if (target.empty()) return 1;

  // A model file: no run, so nothing to record, no data to calibrate or standardise with.
  if (isModelFile(args.positionals[0])) {
    for (const char *runOnly : {"--int8", "--no-preprocessing"})
      if (args.hasFlag(runOnly)) throw UsageError(std::string(runOnly) + " applies to a run, not to a model file");
    if (!args.option("--checkpoint").empty()) throw UsageError("--checkpoint applies to a run, not to a model file");
    const std::string model = args.positionals[0];
    std::error_code ec;
    if (!std::filesystem::is_regular_file(model, ec)) {
      std::fprintf(stderr, "torchwright: the model file %s does not exist\n", model.c_str());
      return 1;
    }
    std::vector<std::string> workerArgs{"--export-model", model, "--format", format, "--out", target};
    if (format == "onnx") workerArgs.insert(workerArgs.end(), {"--opset", std::to_string(opset)});
    if (!args.option("--weights").empty()) workerArgs.insert(workerArgs.end(), {"--weights", args.option("--weights")});
    if (!args.option("--seed").empty())
      workerArgs.insert(workerArgs.end(), {"--seed", std::to_string(integerOption(args, "--seed", 42, 0, INT64_MAX))});
    return callWorker(selfPath, workerArgs) == 0 ? 0 : 1;
  }
  for (const char *modelOnly : {"--weights", "--seed"})
    if (!args.option(modelOnly).empty()) throw UsageError(std::string(modelOnly) + " applies to a model file, not to a run");

  const std::string workspace = args.workspace();
  auto store = tracking::Store::open(tracking::workspaceStore(workspace));
  const auto run = resolveRun(*store, args.positionals[0]);
  if (!run) return 1;
  if (!hasCheckpoint(workspace, *run, checkpoint)) return 1;
  const std::string checkpointPath =
      app::runFolder(workspace, *run) + "/checkpoints/" + config::parseCheckpointChoice(checkpoint).file();
  if (const std::string problem = config::zipArchiveProblem(checkpointPath); !problem.empty()) {
    std::fprintf(stderr, "torchwright: cannot export run %s: its checkpoint %s %s\n", run->uuid.substr(0, 8).c_str(),
                 checkpointPath.c_str(), problem.c_str());
    return 1;
  }
  std::printf("exporting run %s (%s) as %s\n", run->uuid.substr(0, 8).c_str(), run->name.c_str(), format.c_str());
  std::vector<std::string> workerArgs{"--export", run->uuid,  "--workspace", workspace,      "--format",
                                      format,     "--checkpoint", checkpoint, "--out", target};
  if (format == "onnx") workerArgs.insert(workerArgs.end(), {"--opset", std::to_string(opset)});
  if (args.hasFlag("--no-preprocessing")) workerArgs.push_back("--no-preprocessing");
  if (args.hasFlag("--int8")) workerArgs.push_back("--int8");
  const int code = callWorker(selfPath, workerArgs);
  return code == 0 ? 0 : 1;
}

}  // namespace tw::cli
