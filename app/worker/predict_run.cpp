#include "app/worker/predict_run.h"

#include "app/common/value_text.h"
#include "app/worker/model_file_source.h"
#include "app/worker/worker_args.h"
#include "core/config/number_text.h"
#include "core/config/run_config.h"
#include "core/config/sha256.h"
#include "core/config/workspace.h"
#include "core/data/json_text.h"
#include "core/engine/atomic_file.h"
#include "core/engine/dataset.h"
#include "core/engine/export/export_source.h"
#include "core/engine/export/torchscript_exporter.h"
#include "core/engine/threads.h"
#include "core/metrics/class_scores.h"
#include "core/spec/convolutions.h"
#include "tracking/workspace_store.h"
#include "tracking/store.h"

#include <torch/script.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <chrono>
#include <filesystem>
#include <cstdio>
#include <functional>
#include <sstream>

namespace tw::worker {

namespace fs = std::filesystem;

namespace {

constexpr int64_t kBatch = 512;



// The model as a function of raw inputs (pixels in 0..1, the CSV's numbers), with what a reader
// of its outputs needs.
struct Predictor {
  std::function<torch::Tensor(const torch::Tensor &)> forward;
  data::Preprocessing preprocessing;  // the run's: shape, task, class names, statistics
  bool havePreprocessing = false;
  std::string activation = "logits";  // export_source.h's outputActivation
  std::vector<int64_t> inputShape;    // one example
  bool convolutional = false;
  int64_t seed = 42;                  // the run's, so its own split is the same one
  std::string configYaml, configFile;  // the run's configuration, when MODEL is a run
  // A model file has no recorded statistics: the data is standardised as a run on it would be,
  // with statistics fitted on its training split (unless data.normalize is false).
  bool fitStatistics = false;
  std::string origin;                  // a model file's weights, for the printed summary
};

std::function<torch::Tensor(const torch::Tensor &)> standardizing(const data::Preprocessing &p,
                                                                  std::function<torch::Tensor(const torch::Tensor &)> f) {
  if (p.indexInputs || p.standardization == "none") return f;
  auto [mean, stdev] = engine::standardization(p);
  return [mean, stdev, f](const torch::Tensor &x) { return f((x - mean) / stdev); };
}

Predictor fromRun(const std::string &workspace, const std::string &runId, const std::string &checkpoint) {
  auto store = tracking::Store::open(tracking::workspaceStore(workspace));
  const auto run = store->findRun(runId);
  if (!run) throw std::runtime_error("no run '" + runId + "' in " + store->shownLocation());
  const std::string runDir = run->runDir.empty() ? config::runDir(workspace, run->uuid) : run->runDir;
  const config::RunConfig config = config::parseRunConfig(run->configYaml, runDir + "/config.yaml");
  auto source = std::make_shared<engine::ExportSource>(engine::loadRunExport(runDir, config.modelYaml, checkpoint));
  if (!source->preprocessing)
    throw std::runtime_error("run " + run->name + " recorded no preprocessing.json, so its inputs cannot be prepared");
  if (source->module->inputIds().size() != 1)
    throw std::runtime_error("the model has " + std::to_string(source->module->inputIds().size()) +
                             " inputs; predict feeds one");
  Predictor p;
  p.preprocessing = *source->preprocessing;
  p.havePreprocessing = true;
  p.activation = engine::outputActivation(*source);
  p.inputShape = source->analysis.find(source->module->inputIds()[0])->outputShape;
  p.convolutional = spec::hasConvolution(source->spec);
  p.seed = config.train.seed;
  p.configYaml = run->configYaml;
  p.configFile = runDir + "/config.yaml";
  p.forward = standardizing(p.preprocessing, [source](const torch::Tensor &x) { return source->module->forward(x); });
  return p;
}

// Whether this workspace exported these very bytes: an artifact of a run (a registered version is
// one too) with their SHA-256. The database is only read, never created, for the question.
bool exportedHere(const std::string &workspace, const std::string &digest) {
  if (workspace.empty() || !tracking::storeMayExist(tracking::workspaceStore(workspace))) return false;
  auto store = tracking::Store::open(tracking::workspaceStore(workspace));
  for (const auto &[runId, artifact] : store->artifactsWithDigest(digest))
    if (artifact.kind == "export:torchscript") return true;
  return false;
}

// TorchScript is code: loading a file runs what it holds (its methods, __setstate__ on load) with
// the user's permissions. A file this workspace exported is ours; any other loads only when the
// user says --trust-torchscript, with a warning. The bytes hashed are the bytes loaded, so the
// file cannot change between the question and the load.
Predictor fromTorchScript(const std::string &path, const std::string &workspace, bool trusted) {
  const std::string bytes = engine::readWholeFile(path);
  if (bytes.compare(0, 4, std::string("PK\x03\x04", 4)) != 0)
    throw std::runtime_error(path + " is not a TorchScript file torch::jit::load can read (not a zip archive)");
  const std::string digest = config::sha256Hex(bytes);
  if (!exportedHere(workspace, digest)) {
    if (!trusted)
      throw std::runtime_error(path + " is TorchScript that this workspace (" + workspace +
                          ") did not export: no export recorded here has its SHA-256 " + digest.substr(0, 16) +
                          "... TorchScript is code, and loading it runs it with your permissions. If you trust "
                          "where it came from, give --trust-torchscript.");
    std::fprintf(stderr, "torchwright: warning: %s is TorchScript from outside this workspace (SHA-256 %s): it is "
                         "code, and it runs now with your permissions (--trust-torchscript)\n",
                 path.c_str(), digest.c_str());
  }
  torch::jit::ExtraFilesMap extra{{engine::kTorchScriptMetadataFile, ""}};
  auto module = std::make_shared<torch::jit::Module>();
  try {
    std::istringstream in(bytes);
    *module = torch::jit::load(in, c10::nullopt, extra);
  } catch (const std::exception &e) {
    throw std::runtime_error(path + " is not a TorchScript file torch::jit::load can read");
  }
  module->eval();
  Predictor p;
  const std::string text = extra[engine::kTorchScriptMetadataFile];
  bool baked = false;
  if (!text.empty()) {
    const YAML::Node meta = YAML::Load(text);
    baked = meta["preprocessing_baked"] && meta["preprocessing_baked"].as<bool>();
    if (meta["output_activation"]) p.activation = meta["output_activation"].as<std::string>();
    if (meta["inputs"] && meta["inputs"].size() == 1) {
      for (size_t i = 1; i < meta["inputs"][0]["shape"].size(); ++i)
        p.inputShape.push_back(meta["inputs"][0]["shape"][i].as<int64_t>());
    }
    if (meta["preprocessing"]) {
      YAML::Emitter out;
      out << meta["preprocessing"];
      p.preprocessing = engine::parsePreprocessingJson(out.c_str(), path + " (torchwright.json)");
      p.havePreprocessing = true;
    }
  }
  auto forward = [module](const torch::Tensor &x) { return module->forward({x}).toTensor(); };
  p.forward = baked || !p.havePreprocessing ? std::function<torch::Tensor(const torch::Tensor &)>(forward)
                                            : standardizing(p.preprocessing, forward);
  p.convolutional = p.inputShape.size() == 3;
  return p;
}

Predictor fromModelFile(const std::string &path, const std::string &weights, int64_t seed) {
  auto loaded = std::make_shared<ModelFileSource>(loadModelFile(path, weights, seed));
  const engine::ExportSource &source = loaded->source;
  if (source.module->inputIds().size() != 1)
    throw std::runtime_error("the model has " + std::to_string(source.module->inputIds().size()) + " inputs; predict feeds one");
  Predictor p;
  p.activation = engine::outputActivation(source);
  p.inputShape = source.analysis.find(source.module->inputIds()[0])->outputShape;
  p.convolutional = spec::hasConvolution(source.spec);
  p.fitStatistics = true;
  p.origin = loaded->origin;
  p.forward = [loaded](const torch::Tensor &x) { return loaded->source.module->forward(x); };
  return p;
}

// What a prediction says it did, in the one number format (config/number_text.h).
std::string predictedLine(int64_t rows, const std::string &split, double seconds, const std::string &out) {
  return "predicted " + config::formatNumber(double(rows)) + " rows of the " + split + " split in " +
         app::formatDuration(std::llround(seconds * 1000.0)) + " (" +
         config::formatNumber(double(rows) / std::max(seconds, 1e-9)) + " rows/s) -> " + out;
}

// A CSV cell: six significant digits, for the next program rather than a person.
std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

// A CSV field: quoted when it holds a comma, a quote or a line break.
std::string field(const std::string &text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

int predictRun(int argc, char **argv) {
  const std::string runId = option(argc, argv, "--run");
  const std::string modelFile = option(argc, argv, "--model-file");
  const std::string modelSpec = option(argc, argv, "--model-spec");
  const std::string workspace = option(argc, argv, "--workspace");
  const std::string dataFile = option(argc, argv, "--data");
  const std::string splitName = option(argc, argv, "--split", "test");
  const std::string checkpoint = option(argc, argv, "--checkpoint", "best");
  const std::string out = option(argc, argv, "--out");
  if (int(!runId.empty()) + int(!modelFile.empty()) + int(!modelSpec.empty()) != 1 || out.empty()) {
    std::fprintf(stderr, "usage: torchwright-worker --predict (--run RUN_ID --workspace DIR | --model-file FILE [--workspace DIR] [--trust-torchscript] | "
                         "--model-spec MODEL.model.yaml [--weights FILE] [--seed N]) [--data RUN.yaml] "
                         "[--set data.KEY=VALUE ...] [--split S] --out FILE\n");
    return 2;
  }
  try {
    Predictor p = !modelSpec.empty() ? fromModelFile(modelSpec, option(argc, argv, "--weights"),
                                                     std::atoll(option(argc, argv, "--seed", "42").c_str()))
                  : runId.empty()    ? fromTorchScript(modelFile, workspace, flag(argc, argv, "--trust-torchscript"))
                                     : fromRun(workspace, runId, checkpoint);
    if (!p.origin.empty()) std::printf("model %s: %s\n", modelSpec.c_str(), p.origin.c_str());
    engine::applyThreads(engine::planThreads(0, p.convolutional, engine::availableCores()));

    // The data: the run's own unless --data names a run file; --set adjusts it. Always raw: the
    // model's own statistics standardise it, never ones fitted on this data.
    const auto sets = options(argc, argv, "--set");
    config::RunConfig c;
    if (!dataFile.empty()) {
      c = config::loadRunConfig(dataFile, sets, /*requireModel=*/false);
      p.seed = c.train.seed;
    } else if (!p.configYaml.empty()) {
      c = config::parseRunConfig(p.configYaml, p.configFile, sets);
    } else {
      c = config::parseRunConfig("data: {}\n", "--set", sets, /*requireModel=*/false);
    }
    config::DataOptions data = c.data;
    if (p.fitStatistics && data.normalize)
      std::printf("inputs standardised with statistics fitted on this data's training split (no run recorded any)\n");
    else
      data.normalize = false;
    data::ModelUse use;
    use.indexInputs = p.havePreprocessing && p.preprocessing.indexInputs;
    const engine::Dataset dataset = engine::loadDataset(data, p.seed, use);

    std::vector<engine::Split> parts;
    if (splitName == "train" || splitName == "all") parts.push_back(dataset.train);
    if (splitName == "val" || splitName == "all") parts.push_back(dataset.val);
    if (splitName == "test" || splitName == "all") parts.push_back(dataset.test);
    std::vector<torch::Tensor> xs, ys;
    for (const auto &s : parts)
      if (s.size() > 0) {
        const engine::Batch all = s.range(0, s.size());
        xs.push_back(all.inputs);
        ys.push_back(all.targets);
      }
    if (xs.empty()) throw std::runtime_error("the " + splitName + " split of this data is empty");
    const torch::Tensor x = torch::cat(xs), y = torch::cat(ys);

    // The data must fit the model: its shape, and for CSV data the same columns in the same order.
    const std::vector<int64_t> shape(x.sizes().begin() + 1, x.sizes().end());
    if (!p.inputShape.empty() && shape != p.inputShape) {
      throw std::runtime_error("the data's examples are " + spec::formatShape(shape, true) + ", the model takes " +
                               spec::formatShape(p.inputShape, true));
    }
    if (p.havePreprocessing && !p.preprocessing.featureNames.empty() && !dataset.preprocessing.featureNames.empty()) {
      const auto &want = p.preprocessing.featureNames, &have = dataset.preprocessing.featureNames;
      for (size_t i = 0; i < std::max(want.size(), have.size()); ++i) {
        const std::string a = i < want.size() ? want[i] : "(none)", b = i < have.size() ? have[i] : "(none)";
        if (a != b)
          throw std::runtime_error("feature " + std::to_string(i + 1) + " of the data is '" + b + "', the model's is '" +
                                   a + "'");
      }
    }

    torch::NoGradGuard noGrad;
    const auto start = std::chrono::steady_clock::now();
    std::vector<torch::Tensor> outs;
    for (int64_t i = 0; i < x.size(0); i += kBatch) outs.push_back(p.forward(x.slice(0, i, std::min(i + kBatch, x.size(0)))));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    torch::Tensor yhat = torch::cat(outs).to(torch::kFloat);

    const bool classification = p.activation != "values" && yhat.dim() == 2 &&
                                (!p.havePreprocessing || p.preprocessing.task == data::Task::Classification);
    std::string csv;
    const int64_t rows = x.size(0);
    const bool labelled = y.defined() && y.size(0) == rows;
    if (classification) {
      torch::Tensor probs = p.activation == "probabilities"       ? yhat
                            : p.activation == "log_probabilities" ? yhat.exp()
                                                                  : torch::softmax(yhat, 1);
      const int64_t classes = probs.size(1);
      auto name = [&](int64_t c) {
        return c < int64_t(p.preprocessing.classNames.size()) ? p.preprocessing.classNames[c] : std::to_string(c);
      };
      csv = "row,predicted";
      if (labelled) csv += ",label";
      for (int64_t c = 0; c < classes; ++c) csv += ",p_" + field(name(c));
      csv += "\n";
      const torch::Tensor predicted = probs.argmax(1);
      auto pa = probs.accessor<float, 2>();
      auto pr = predicted.accessor<int64_t, 1>();
      std::vector<int64_t> confusion;
      torch::Tensor labels = labelled ? y.to(torch::kLong) : torch::Tensor();
      const int64_t classCount = std::max<int64_t>(classes, labelled ? labels.max().item<int64_t>() + 1 : 0);
      if (labelled) confusion.assign(classCount * classCount, 0);
      for (int64_t r = 0; r < rows; ++r) {
        csv += std::to_string(r) + "," + field(name(pr[r]));
        if (labelled) {
          const int64_t label = labels[r].item<int64_t>();
          csv += "," + field(name(label));
          ++confusion[label * classCount + pr[r]];
        }
        for (int64_t c = 0; c < classes; ++c) csv += "," + number(pa[r][c]);
        csv += "\n";
      }
      engine::writeFileAtomically(out, csv);
      std::printf("%s\n", predictedLine(rows, splitName, seconds, out).c_str());
      if (labelled) {
        const metrics::ClassScores s = metrics::classScores(confusion, classCount);
        std::printf("accuracy %s  macro F1 %s  weighted F1 %s\n", app::formatMetric(s.accuracy).c_str(),
                    app::formatMetric(s.macroF1).c_str(), app::formatMetric(s.weightedF1).c_str());
      }
    } else {
      const torch::Tensor values = yhat.reshape({rows, -1});
      const int64_t dims = values.size(1);
      csv = "row";
      for (int64_t d = 0; d < dims; ++d) csv += ",predicted_" + std::to_string(d);
      if (labelled)
        for (int64_t d = 0; d < dims; ++d) csv += ",target_" + std::to_string(d);
      csv += "\n";
      const torch::Tensor targets = labelled ? y.to(torch::kFloat).reshape({rows, -1}) : torch::Tensor();
      for (int64_t r = 0; r < rows; ++r) {
        csv += std::to_string(r);
        for (int64_t d = 0; d < dims; ++d) csv += "," + number(values[r][d].item<float>());
        if (labelled)
          for (int64_t d = 0; d < dims; ++d) csv += "," + number(targets[r][d].item<float>());
        csv += "\n";
      }
      engine::writeFileAtomically(out, csv);
      std::printf("%s\n", predictedLine(rows, splitName, seconds, out).c_str());
      if (labelled) {
        const double ssRes = (values - targets).pow(2).sum().item<double>();
        const double ssTot = (targets - targets.mean(0)).pow(2).sum().item<double>();
        std::printf("R2 %s  RMSE %s\n", app::formatMetric(ssTot > 0 ? 1.0 - ssRes / ssTot : 0.0).c_str(),
                    app::formatMetric(std::sqrt(ssRes / static_cast<double>(values.numel()))).c_str());
      }
    }
    return 0;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torchwright: %s\n", e.what());
  }
  return 1;
}

}  // namespace tw::worker
