// `torchwright export RUN --format torchscript|onnx --out FILE`: everything that can be refused
// without LibTorch is refused here (usage, the opset's range, the output folder, a missing
// checkpoint); the worker writes and checks the file (app/worker/export_run.cpp).

#include "app/cli/commands.h"
#include "app/cli/output_file.h"
#include "app/cli/run_ref.h"
#include "app/cli/usage.h"
#include "app/cli/worker_call.h"

#include "core/config/onnx_opsets.h"
#include "core/config/workspace.h"
#include "tracking/store.h"

#include <cstdio>

namespace tw::cli {


int runExport(const CliArgs &args, const std::string &selfPath) {
  if (args.positionals.size() != 1) return usageError("export", "give one RUN");
  const std::string format = args.option("--format");
  if (format != "torchscript" && format != "onnx")
    throw UsageError("--format must be torchscript or onnx" + (format.empty() ? "" : ", got '" + format + "'"));
  const std::string checkpoint = args.option("--checkpoint", "best");
  if (checkpoint != "best" && checkpoint != "last")
    throw UsageError("--checkpoint must be best or last, got '" + checkpoint + "'");
  const std::string out = args.option("--out");
  if (out.empty()) throw UsageError("--out FILE is required");
  if (!args.option("--opset").empty() && format != "onnx") throw UsageError("--opset applies to ONNX only");
  if (args.hasFlag("--int8") && format != "onnx") throw UsageError("--int8 applies to ONNX only");
  const long long opset = integerOption(args, "--opset", config::kMaxOnnxOpset, config::kMinOnnxOpset,
                                         config::kMaxOnnxOpset);

  const std::string target = checkOutputFile(out);
  if (target.empty()) return 1;

  const std::string workspace = args.workspace();
  auto store = tracking::Store::open(config::trackingDbPath(workspace));
  const auto run = resolveRun(*store, args.positionals[0]);
  if (!run) return 1;
  if (!hasCheckpoint(workspace, *run, checkpoint)) return 1;
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
