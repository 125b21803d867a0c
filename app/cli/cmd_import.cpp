// `torchwright import MODEL.onnx [-o NAME.model.yaml] [--input-shape C,H,W] [--json]`: what can be
// refused without LibTorch is refused here (usage, a missing file, the output folder, a shape that
// is not a list of sizes); the worker reads the ONNX file and writes the model file and its
// weights (app/worker/import_run.cpp).

#include "app/cli/commands.h"
#include "app/cli/output_file.h"
#include "app/cli/usage.h"
#include "app/cli/worker_call.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace tw::cli {

namespace fs = std::filesystem;

namespace {

// "3,224,224": sizes of one sample, each at least 1.
bool sizeList(const std::string &text) {
  if (text.empty() || text.front() == ',' || text.back() == ',' || text.find(",,") != std::string::npos) return false;
  for (size_t start = 0; start < text.size();) {
    const size_t end = std::min(text.find(',', start), text.size());
    const std::string part = text.substr(start, end - start);
    if (part.find_first_not_of("0123456789") != std::string::npos || part.size() > 9 || std::stoll(part) < 1) return false;
    start = end + 1;
  }
  return true;
}

}  // namespace

int runImport(const CliArgs &args, const std::string &selfPath) {
  if (args.positionals.size() != 1) return usageError("import", "give one ONNX file");
  const std::string file = args.positionals[0];
  const std::string shape = args.option("--input-shape");
  if (!args.option("--input-shape").empty() && !sizeList(shape))
    throw UsageError("--input-shape expects one sample's sizes separated by commas, e.g. 3,224,224; got '" + shape + "'");
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) {
    std::fprintf(stderr, "torchwright import: %s: %s\n", file.c_str(),
                 fs::exists(file, ec) ? "is not a file" : "no such file");
    return 1;
  }
  // Default: beside the ONNX file, resnet18.onnx -> resnet18.model.yaml.
  std::string out = args.option("--out");
  if (out.empty()) out = (fs::path(file).parent_path() / (fs::path(file).stem().string() + ".model.yaml")).string();
  const std::string ext = fs::path(out).extension().string();
  if (ext != ".yaml" && ext != ".yml") throw UsageError("-o names the model file to write, a .yaml file; got '" + out + "'");
  const std::string target = checkOutputFile(out);
  if (target.empty()) return 1;

  std::vector<std::string> workerArgs{"--import", fs::absolute(file).string(), "--out", target};
  if (!shape.empty()) workerArgs.insert(workerArgs.end(), {"--input-shape", shape});
  if (args.hasFlag("--json")) workerArgs.push_back("--json");
  return callWorker(selfPath, workerArgs) == 0 ? 0 : 1;
}

}  // namespace tw::cli
