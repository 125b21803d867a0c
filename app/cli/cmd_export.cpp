// `torchwright export RUN --format torchscript|onnx --out FILE`: everything that can be refused
// without LibTorch is refused here (usage, the opset's range, the output folder, a missing
// checkpoint); the worker writes and checks the file (app/worker/export_run.cpp).

#include "app/cli/commands.h"
#include "app/cli/run_ref.h"
#include "app/cli/usage.h"
#include "app/cli/worker_call.h"

#include "core/config/workspace.h"
#include "tracking/store.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>

namespace tw::cli {

namespace fs = std::filesystem;

namespace {

// The ONNX opsets the exporter writes (core/engine/export/onnx_exporter.h's range; the CLI does
// not link the engine, so the range is checked again there).
constexpr int kMinOpset = 13, kMaxOpset = 17;

}  // namespace

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
  const long long opset = integerOption(args, "--opset", kMaxOpset, kMinOpset, kMaxOpset);

  const fs::path target = fs::absolute(out).lexically_normal();
  const fs::path folder = target.parent_path();
  std::error_code ec;
  if (fs::is_directory(target, ec)) {
    std::fprintf(stderr, "torchwright: --out %s is a folder; give a file name\n", out.c_str());
    return 1;
  }
  if (!fs::is_directory(folder, ec)) {
    std::fprintf(stderr, "torchwright: --out %s: the folder %s does not exist\n", out.c_str(), folder.c_str());
    return 1;
  }
  if (::access(folder.c_str(), W_OK) != 0) {
    std::fprintf(stderr, "torchwright: --out %s: the folder %s is not writable\n", out.c_str(), folder.c_str());
    return 1;
  }

  const std::string workspace = args.workspace();
  auto store = tracking::Store::open(config::trackingDbPath(workspace));
  const auto run = resolveRun(*store, args.positionals[0]);
  if (!run) return 1;
  const std::string runDir = run->runDir.empty() ? config::runDir(workspace, run->uuid) : run->runDir;
  const fs::path checkpointFile = fs::path(runDir) / "checkpoints" / (checkpoint + ".pt");
  if (!fs::exists(checkpointFile, ec)) {
    std::fprintf(stderr, "torchwright: run %s (%s) has no %s checkpoint: %s does not exist\n",
                 run->uuid.substr(0, 8).c_str(), run->name.c_str(), checkpoint.c_str(), checkpointFile.c_str());
    return 1;
  }
  std::printf("exporting run %s (%s) as %s\n", run->uuid.substr(0, 8).c_str(), run->name.c_str(), format.c_str());
  std::vector<std::string> workerArgs{"--export", run->uuid,  "--workspace", workspace,      "--format",
                                      format,     "--checkpoint", checkpoint, "--out", target.string()};
  if (format == "onnx") workerArgs.insert(workerArgs.end(), {"--opset", std::to_string(opset)});
  if (args.hasFlag("--no-preprocessing")) workerArgs.push_back("--no-preprocessing");
  const int code = callWorker(selfPath, workerArgs);
  return code == 0 ? 0 : 1;
}

}  // namespace tw::cli
