#include "app/worker/import_run.h"

#include "app/worker/worker_args.h"

#include "core/engine/atomic_file.h"
#include "core/engine/checkpoint.h"
#include "core/engine/import/import_report.h"
#include "core/engine/import/imported_weights.h"
#include "core/engine/threads.h"
#include "core/spec/model_files.h"
#include "core/spec/model_spec.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <sstream>

namespace tw::worker {

namespace fs = std::filesystem;

namespace {

std::vector<int64_t> shapeOption(const std::string &text) {
  std::vector<int64_t> shape;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ',');) shape.push_back(std::stoll(part));
  return shape;
}

}  // namespace

int importModel(int argc, char **argv) {
  const std::string file = option(argc, argv, "--import");
  const std::string out = option(argc, argv, "--out");
  if (file.empty() || out.empty()) {
    std::fprintf(stderr, "usage: torchwright-worker --import FILE.onnx --out MODEL.model.yaml [--input-shape C,H,W] [--json]\n");
    return 2;
  }
  engine::applyThreads(engine::planThreads(0, /*convolutional=*/true, engine::availableCores()));
  const auto start = std::chrono::steady_clock::now();
  try {
    engine::ImportOptions options;
    options.inputShape = shapeOption(option(argc, argv, "--input-shape"));
    options.modelName = spec::modelNameOf(out);
    const engine::ImportedModel imported = engine::importOnnx(file, options);
    std::shared_ptr<engine::GraphModule> model = engine::buildImportedModel(imported);

    // The weights first: a model file is never left naming weights that were not written.
    engine::ImportOutcome outcome;
    outcome.modelFile = out;
    outcome.weightsFile = spec::weightsFileFor(out);
    for (const auto &[node, tensors] : imported.tensors) outcome.weightTensors += static_cast<int64_t>(tensors.size());
    engine::saveModelWeights(outcome.weightsFile, *model);
    const std::string weightsName = fs::path(outcome.weightsFile).filename().string();
    const std::string header = "# Imported by `torchwright import` from " + fs::path(file).filename().string() +
                               " (ONNX opset " + std::to_string(imported.opset) + "). Its weights are in " + weightsName +
                               ": a run file's `train: {init_from: " + weightsName + "}` trains from them.\n";
    try {
      engine::writeFileAtomically(out, header + spec::toYaml(imported.spec));
    } catch (...) {
      std::error_code ec;
      fs::remove(outcome.weightsFile, ec);
      throw;
    }
    outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string report = flag(argc, argv, "--json") ? engine::importReportJson(imported, outcome)
                                                          : engine::importReportText(imported, outcome);
    std::fputs(report.c_str(), stdout);
    return 0;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torchwright import: %s\n", e.what());
    return 1;
  }
}

}  // namespace tw::worker
