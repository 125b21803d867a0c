// `torchwright predict MODEL --out predictions.csv`: MODEL is a run (its best or last checkpoint),
// a TorchScript file (one this workspace did not export only with --trust-torchscript: it is
// code) or a model file. Usage, the output folder and a run's checkpoint are checked
// here; the worker reads the data, runs the model and writes the file (app/worker/predict_run.cpp).

#include "app/cli/commands.h"
#include "app/cli/output_file.h"
#include "app/cli/run_ref.h"
#include "app/cli/usage.h"
#include "app/cli/worker_call.h"

#include "core/config/checkpoint_choice.h"
#include "core/config/workspace.h"
#include "tracking/workspace_store.h"
#include "tracking/store.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>

namespace tw::cli {

namespace fs = std::filesystem;

int runPredict(const CliArgs &args, const std::string &selfPath) {
  if (args.positionals.size() != 1) return usageError("predict", "give one MODEL");
  const std::string split = args.option("--split", "test");
  if (split != "train" && split != "val" && split != "test" && split != "all")
    throw UsageError("--split must be train, val, test or all, got '" + split + "'");
  const std::string checkpoint = args.option("--checkpoint", "best");
  if (const config::CheckpointChoice choice = config::parseCheckpointChoice(checkpoint); !choice.problem.empty())
    throw UsageError("--checkpoint: " + choice.problem);
  for (const std::string &set : args.all("--set"))
    if (set.rfind("data.", 0) != 0) throw UsageError("--set takes data keys only (data.KEY=VALUE), got '" + set + "'");
  const std::string out = args.option("--out");
  if (out.empty()) throw UsageError("--out FILE is required");
  const std::string target = checkOutputFile(out);
  if (target.empty()) return 1;
  const std::string data = args.option("--data");
  std::error_code ec;
  if (!data.empty() && !fs::is_regular_file(data, ec)) {
    std::fprintf(stderr, "torchwright: --data %s: no such run file\n", data.c_str());
    return 1;
  }

  std::vector<std::string> workerArgs{"--predict", "--split", split, "--out", target};
  const std::string &model = args.positionals[0];
  const std::string extension = fs::path(model).extension().string();
  const bool modelSpec = extension == ".yaml" || extension == ".yml";
  if (modelSpec && args.hasFlag("--trust-torchscript"))
    throw UsageError("--trust-torchscript applies to a TorchScript file, not to a model file");
  if (!modelSpec)
    for (const char *specOnly : {"--weights", "--seed"})
      if (!args.option(specOnly).empty()) throw UsageError(std::string(specOnly) + " applies to a model file (.model.yaml)");
  if (modelSpec && !fs::is_regular_file(model, ec)) {
    std::fprintf(stderr, "torchwright: the model file %s does not exist\n", model.c_str());
    return 1;
  }
  if (fs::is_regular_file(model, ec)) {
    if (args.option("--checkpoint") != "") throw UsageError("--checkpoint applies to a run, not to a model file");
    if (modelSpec && data.empty())
      throw UsageError("a model file has no data of its own: give --data RUN.yaml (or --set data.dataset=...)");
    workerArgs.insert(workerArgs.end(), {modelSpec ? "--model-spec" : "--model-file", fs::absolute(model).string()});
    if (!args.option("--weights").empty())
      workerArgs.insert(workerArgs.end(), {"--weights", fs::absolute(args.option("--weights")).string()});
    if (!args.option("--seed").empty())
      workerArgs.insert(workerArgs.end(), {"--seed", std::to_string(integerOption(args, "--seed", 42, 0, INT64_MAX))});
    // The worker asks this workspace whether it exported the file (TorchScript is code).
    if (!modelSpec) workerArgs.insert(workerArgs.end(), {"--workspace", args.workspace()});
    if (args.hasFlag("--trust-torchscript")) workerArgs.push_back("--trust-torchscript");
  } else {
    if (args.hasFlag("--trust-torchscript")) throw UsageError("--trust-torchscript applies to a TorchScript file, not to a run");
    const std::string workspace = args.workspace();
    auto store = tracking::Store::open(tracking::workspaceStore(workspace));
    const auto run = resolveRun(*store, model);
    if (!run) return 1;
    if (!hasCheckpoint(workspace, *run, checkpoint)) return 1;
    workerArgs.insert(workerArgs.end(), {"--run", run->uuid, "--workspace", workspace, "--checkpoint", checkpoint});
  }
  if (!data.empty()) workerArgs.insert(workerArgs.end(), {"--data", fs::absolute(data).string()});
  for (const std::string &set : args.all("--set")) workerArgs.insert(workerArgs.end(), {"--set", set});
  return callWorker(selfPath, workerArgs) == 0 ? 0 : 1;
}

}  // namespace tw::cli
