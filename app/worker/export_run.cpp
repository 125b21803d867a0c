#include "app/worker/export_run.h"

#include "app/common/progress_line.h"
#include "app/common/value_text.h"

#include "app/worker/worker_args.h"

#include "core/config/number_text.h"
#include "core/config/run_config.h"
#include "core/config/sha256.h"
#include "core/config/workspace.h"
#include "core/data/json_text.h"
#include "core/engine/atomic_file.h"
#include "core/engine/dataset.h"
#include "core/engine/export/export_error.h"
#include "core/engine/export/int8_quantization.h"
#include "core/engine/export/onnx_exporter.h"
#include "core/engine/export/onnx_reference.h"
#include "core/engine/export/torchscript_exporter.h"
#include "core/engine/threads.h"
#include "tracking/workspace_store.h"
#include "tracking/store.h"

#include <torch/script.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <sstream>

namespace tw::worker {

namespace fs = std::filesystem;

namespace {

constexpr int64_t kCheckExamples = 64;
constexpr int64_t kCalibrationExamples = 1024;

// Classification accuracy of the model on a split (standardised inputs, as trained).
double accuracy(engine::GraphModule &model, const engine::Split &split) {
  torch::NoGradGuard noGrad;
  int64_t correct = 0;
  for (int64_t i = 0; i < split.size(); i += 512) {
    const int64_t end = std::min(i + 512, split.size());
    const engine::Batch batch = split.range(i, end);
    correct += (model.forward(batch.inputs).argmax(1) == batch.targets).sum().item<int64_t>();
  }
  return split.size() ? static_cast<double>(correct) / static_cast<double>(split.size()) : 0.0;
}

// The run's own first test examples, as the trained model takes them and as the exported file
// takes them (raw when the standardisation is baked in).
struct CheckInputs {
  torch::Tensor model, file;
};

CheckInputs checkInputs(const engine::ExportSource &source, bool baked, const engine::Dataset &data) {
  const engine::Split &split = data.test.size() > 0 ? data.test : data.val;
  CheckInputs in;
  in.model = split.range(0, std::min<int64_t>(kCheckExamples, split.size())).inputs;
  in.file = in.model;
  if (baked) {
    const auto [mean, stdev] = engine::standardization(*source.preprocessing);
    in.file = in.model * stdev + mean;  // the raw values the file standardises itself
  }
  return in;
}

double largestDifference(const torch::Tensor &a, const torch::Tensor &b) {
  return (a.to(torch::kDouble) - b.to(torch::kDouble)).abs().max().item<double>();
}

}  // namespace

int exportRun(int argc, char **argv) {
  const std::string runRef = option(argc, argv, "--export");
  const std::string workspace = option(argc, argv, "--workspace");
  const std::string format = option(argc, argv, "--format");
  const std::string checkpoint = option(argc, argv, "--checkpoint", "best");
  const std::string out = option(argc, argv, "--out");
  engine::ExportOptions options;
  options.opset = std::atoi(option(argc, argv, "--opset", std::to_string(engine::kMaxOnnxOpset)).c_str());
  options.bakePreprocessing = !flag(argc, argv, "--no-preprocessing");
  const bool int8 = flag(argc, argv, "--int8");
  if (runRef.empty() || workspace.empty() || out.empty() || (format != "torchscript" && format != "onnx") ||
      (int8 && format != "onnx")) {
    std::fprintf(stderr, "usage: torchwright-worker --export RUN_ID --workspace DIR --format torchscript|onnx "
                         "--out FILE [--checkpoint best|last|epoch-N] [--opset N] [--no-preprocessing]\n");
    return 2;
  }
  engine::applyThreads(engine::planThreads(0, /*convolutional=*/true, engine::availableCores()));
  // On the terminal `export` runs in: the stages done (read the checkpoint, read the data, [int8:
  // calibrate, measure], write in memory, check). Ended before any message of the command's own.
  app::ProgressLine progress("exporting:", "stages", int8 ? 6 : 4, app::ProgressOptions{.onStdout = true});
  int64_t stages = 0;
  auto stageDone = [&] { progress.update(++stages); };
  try {
    auto store = tracking::Store::open(tracking::workspaceStore(workspace));
    const auto run = store->findRun(runRef);
    if (!run) {
      progress.finish(), std::fprintf(stderr, "torchwright: no run '%s' in %s\n", runRef.c_str(), store->shownLocation().c_str());
      return 1;
    }
    const std::string runDir = run->runDir.empty() ? config::runDir(workspace, run->uuid) : run->runDir;
    const config::RunConfig config = config::parseRunConfig(run->configYaml, runDir + "/config.yaml");
    engine::ExportSource source = engine::loadRunExport(runDir, config.modelYaml, checkpoint);
    stageDone();
    source.metadata.insert(source.metadata.begin(),
                           {{"torchwright_version", "\"" TW_VERSION "\""},
                            {"run_id", "\"" + run->uuid + "\""},
                            {"run_name", "\"" + run->name + "\""},
                            {"config_hash", "\"" + run->configHash + "\""},
                            {"data_fingerprint", "\"" + run->dataFingerprint + "\""}});
    const bool baked = engine::bakesPreprocessing(source, options);

    // The run's own data: the int8 calibration and both formats' checks read it.
    const engine::Dataset data = engine::loadDataset(config.data, config.train.seed, engine::modelUse(source.analysis));
    stageDone();

    // int8: calibrate on a slice of the training data, then measure what quantizing costs on the
    // test split with the same arithmetic simulated in LibTorch.
    engine::Int8Plan plan;
    std::string int8Report;
    std::optional<engine::ExportSource> simulated;
    if (int8) {
      plan = engine::calibrateInt8(*source.module, source.analysis,
                                   data.train.range(0, std::min<int64_t>(kCalibrationExamples, data.train.size())).inputs);
      options.int8 = &plan;
      const std::string floatBytes = engine::exportOnnx(source, engine::ExportOptions{options.bakePreprocessing, options.opset});
      simulated = engine::loadRunExport(runDir, config.modelYaml, checkpoint);
      engine::simulateInt8(*simulated->module, simulated->analysis, plan);
      stageDone();
      const engine::Split &test = data.test.size() > 0 ? data.test : data.val;
      const double floatAccuracy = accuracy(*source.module, test), int8Accuracy = accuracy(*simulated->module, test);
      char points[32];
      std::snprintf(points, sizeof points, "%+.2f", 100.0 * (int8Accuracy - floatAccuracy));
      const std::string text = "int8: calibrated on " + config::formatNumber(double(plan.calibrationExamples)) +
                               " training examples; the float file would be " +
                               config::formatBytes(double(floatBytes.size())) + "; test accuracy " +
                               app::formatMetric(int8Accuracy) + " (float " + app::formatMetric(floatAccuracy) + ", " +
                               points + " points) on " + config::formatNumber(double(test.size())) +
                               " examples, simulated in LibTorch";
      int8Report = text;
      stageDone();
    }

    // Everything is written and checked in memory first: a refusal leaves no file behind.
    const std::string bytes =
        format == "onnx" ? engine::exportOnnx(source, options) : engine::exportTorchScript(source, options);
    stageDone();
    const spec::NodeInfo *output = source.analysis.find(source.analysis.output);
    const CheckInputs in = checkInputs(source, baked, data);
    torch::NoGradGuard noGrad;
    // A model that gives NaN or infinity has nothing a file could be checked against (an int8
    // simulation quantizes such weights into numbers all the same).
    const torch::Tensor trained = source.module->forward(in.model);
    if (!torch::isfinite(trained).all().item<bool>()) {
      progress.finish(), std::fprintf(stderr, "torchwright: the trained model's outputs on %lld test examples are not finite (NaN or "
                           "infinity): its weights cannot be exported; nothing written\n",
                   static_cast<long long>(in.model.size(0)));
      return 1;
    }
    // An int8 file is compared with the LibTorch simulation of its arithmetic, a float one with
    // the trained model.
    const torch::Tensor expected = int8 ? simulated->module->forward(in.model) : trained;
    std::string checkText;
    char text[320];
    if (format == "onnx") {
      const engine::OnnxCheck check = engine::checkOnnx(bytes, output->outputShape);
      if (!check.problem.empty()) {
        progress.finish(), std::fprintf(stderr, "torchwright: the ONNX model fails its check, nothing written: %s\n",
                     check.problem.c_str());
        return 1;
      }
      const double diff =
          largestDifference(engine::evaluateOnnx(bytes, {{source.module->inputIds().at(0), in.file}}), expected);
      // int8: half of what quantizing costs the simulation (int8_quantization.h says why).
      const double limit = int8 ? engine::int8CheckLimit(expected, trained) : 1e-4;
      char limitText[40] = "";
      if (int8) std::snprintf(limitText, sizeof limitText, " (limit %.3g)", limit);
      std::snprintf(text, sizeof text,
                    "ONNX checker and shape inference passed (opset %d); largest difference from the %s %.3g%s on "
                    "%lld test examples (Torchwright's reference ONNX evaluator)",
                    options.opset, int8 ? "int8 simulation" : "trained model", diff,
                    limitText,
                    static_cast<long long>(in.model.size(0)));
      checkText = text;
      if (int8 && !(diff <= limit)) {
        progress.finish(), std::fprintf(stderr, "torchwright: the int8 ONNX model differs from its int8 simulation by %.3g (limit %.3g: "
                             "half of what quantizing costs the simulation on %lld test examples, at least 1e-4); "
                             "nothing written\n",
                     diff, limit, static_cast<long long>(in.model.size(0)));
        return 1;
      }
      if (!int8 && !(diff <= limit)) {
        progress.finish(), std::fprintf(stderr, "torchwright: the ONNX model differs from the trained model by %.3g (limit 1e-4); "
                             "nothing written\n", diff);
        return 1;
      }
    } else {
      std::istringstream reread(bytes);
      torch::jit::Module loaded = torch::jit::load(reread);
      const double diff = largestDifference(loaded.forward({in.file}).toTensor(), expected);
      std::snprintf(text, sizeof text, "reloaded; largest difference from the trained model %.3g on %lld test examples",
                    diff, static_cast<long long>(in.model.size(0)));
      checkText = text;
      if (!(diff <= 1e-5)) {
        progress.finish(), std::fprintf(stderr, "torchwright: the reloaded file differs from the trained model by %.3g (limit 1e-5); "
                             "nothing written\n", diff);
        return 1;
      }
    }
    stageDone();
    progress.finish();
    engine::writeFileAtomically(out, bytes);

    std::printf("wrote %s (%s, %s checkpoint, %s)\n", out.c_str(), format.c_str(), checkpoint.c_str(),
                config::formatBytes(double(bytes.size())).c_str());
    if (int8) std::printf("%s\n", int8Report.c_str());
    std::printf("preprocessing: %s\n", baked                      ? "baked in (the model takes raw inputs)"
                                       : source.preprocessing ? "not baked in (the metadata says what to apply)"
                                                              : "none recorded");
    std::printf("check: %s\n", checkText.c_str());
    config::Sha256 hash;
    hash.update(bytes);
    const std::string digest = hash.hexDigest();
    const fs::path absolute = fs::absolute(out).lexically_normal();
    const fs::path relative = absolute.lexically_relative(fs::path(runDir).lexically_normal());
    const bool inside = !relative.empty() && relative.native().rfind("..", 0) != 0;
    const std::string details =
        "{\"format\": " + data::jsonString(format) + ", \"checkpoint\": " + data::jsonString(checkpoint) +
        (format == "onnx" ? ", \"opset\": " + std::to_string(options.opset) : std::string()) +
        ", \"preprocessing_baked\": " + (baked ? "true" : "false") + ", \"int8\": " + (int8 ? "true" : "false") +
        (int8 ? ", \"int8_report\": " + data::jsonString(int8Report) : std::string()) +
        ", \"check\": " + data::jsonString(checkText) + "}";
    store->addArtifact(run->id, inside ? relative.string() : absolute.string(), "export:" + format, digest, details);
    std::printf("sha256: %s\n", digest.c_str());
    return 0;
  } catch (const engine::ExportError &e) {
    progress.finish(), std::fprintf(stderr, "torchwright: cannot export: %s\n", e.what());
  } catch (const std::exception &e) {
    progress.finish(), std::fprintf(stderr, "torchwright: %s\n", e.what());
  }
  return 1;
}

}  // namespace tw::worker
