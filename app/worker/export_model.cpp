#include "app/worker/export_model.h"

#include "app/worker/model_file_source.h"
#include "app/worker/worker_args.h"

#include "core/config/number_text.h"
#include "core/engine/atomic_file.h"
#include "core/engine/export/export_error.h"
#include "core/engine/export/onnx_exporter.h"
#include "core/engine/export/onnx_reference.h"
#include "core/engine/export/torchscript_exporter.h"
#include "core/engine/threads.h"
#include "core/spec/model_spec.h"

#include <torch/script.h>

#include <cstdio>
#include <filesystem>
#include <sstream>

namespace tw::worker {

namespace fs = std::filesystem;

namespace {

constexpr int64_t kCheckExamples = 8;

// Inputs of every Input node's shape: normal values for float inputs, small indices for int64.
std::vector<torch::Tensor> checkInputs(const engine::ExportSource &source) {
  std::vector<torch::Tensor> inputs;
  torch::manual_seed(0);
  for (const std::string &id : source.module->inputIds()) {
    const spec::NodeInfo *info = source.analysis.find(id);
    std::vector<int64_t> shape{kCheckExamples};
    for (int64_t d : info->outputShape) shape.push_back(d);
    const bool indices = info->params.count("dtype") && std::get<std::string>(info->params.at("dtype")) == "int64";
    inputs.push_back(indices ? torch::randint(0, 2, shape, torch::kLong) : torch::randn(shape));
  }
  return inputs;
}

double largestDifference(const torch::Tensor &a, const torch::Tensor &b) {
  return (a.to(torch::kDouble) - b.to(torch::kDouble)).abs().max().item<double>();
}

}  // namespace

int exportModelFile(int argc, char **argv) {
  const std::string modelFile = option(argc, argv, "--export-model");
  const std::string format = option(argc, argv, "--format");
  const std::string out = option(argc, argv, "--out");
  const std::string weights = option(argc, argv, "--weights");
  const int64_t seed = std::atoll(option(argc, argv, "--seed", "42").c_str());
  engine::ExportOptions options;
  options.opset = std::atoi(option(argc, argv, "--opset", std::to_string(engine::kMaxOnnxOpset)).c_str());
  options.bakePreprocessing = false;  // a model file has no data, so no standardisation to bake
  if (modelFile.empty() || out.empty() || (format != "torchscript" && format != "onnx")) {
    std::fprintf(stderr, "usage: torchwright-worker --export-model MODEL.model.yaml --format torchscript|onnx --out FILE "
                         "[--weights FILE] [--seed N] [--opset N]\n");
    return 2;
  }
  engine::applyThreads(engine::planThreads(0, /*convolutional=*/true, engine::availableCores()));
  try {
    ModelFileSource loaded = loadModelFile(modelFile, weights, seed);
    engine::ExportSource &source = loaded.source;
    const std::string &origin = loaded.origin;
    source.metadata.insert(source.metadata.begin(), {{"torchwright_version", "\"" TW_VERSION "\""},
                                                     {"model_file", "\"" + fs::absolute(modelFile).string() + "\""}});

    const std::string bytes =
        format == "onnx" ? engine::exportOnnx(source, options) : engine::exportTorchScript(source, options);
    torch::NoGradGuard noGrad;
    const std::vector<torch::Tensor> inputs = checkInputs(source);
    torch::Tensor expected;
    {
      std::vector<torch::Tensor> args = inputs;
      expected = source.module->forward(args);
    }
    double diff = 0.0;
    if (format == "onnx") {
      const spec::NodeInfo *output = source.analysis.find(source.analysis.output);
      const engine::OnnxCheck check = engine::checkOnnx(bytes, output->outputShape);
      if (!check.problem.empty()) {
        std::fprintf(stderr, "torchwright: the ONNX model fails its check, nothing written: %s\n", check.problem.c_str());
        return 1;
      }
      std::map<std::string, torch::Tensor> named;
      for (size_t i = 0; i < inputs.size(); ++i) named[source.module->inputIds()[i]] = inputs[i];
      diff = largestDifference(engine::evaluateOnnx(bytes, named), expected);
      if (!(diff <= 1e-4)) {
        std::fprintf(stderr, "torchwright: the ONNX model differs from the model by %.3g (limit 1e-4); nothing written\n", diff);
        return 1;
      }
    } else {
      std::istringstream reread(bytes);
      torch::jit::Module loaded = torch::jit::load(reread);
      std::vector<torch::jit::IValue> args(inputs.begin(), inputs.end());
      diff = largestDifference(loaded.forward(args).toTensor(), expected);
      if (!(diff <= 1e-5)) {
        std::fprintf(stderr, "torchwright: the reloaded file differs from the model by %.3g (limit 1e-5); nothing written\n",
                     diff);
        return 1;
      }
    }
    engine::writeFileAtomically(out, bytes);
    std::printf("wrote %s (%s, %s) from %s, %s\n", out.c_str(), format.c_str(),
                config::formatBytes(double(bytes.size())).c_str(), modelFile.c_str(), origin.c_str());
    std::printf("check: largest difference from the model %.3g on %lld random inputs\n", diff,
                static_cast<long long>(kCheckExamples));
    return 0;
  } catch (const engine::ExportError &e) {
    std::fprintf(stderr, "torchwright: cannot export %s: %s\n", modelFile.c_str(), e.what());
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torchwright: %s\n", e.what());
  }
  return 1;
}

}  // namespace tw::worker
