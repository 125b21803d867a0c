#include "core/engine/export/export_source.h"
#include "core/config/checkpoint_choice.h"

#include "core/data/json_text.h"
#include "core/engine/atomic_file.h"
#include "core/engine/checkpoint.h"
#include "core/engine/export/export_error.h"
#include "core/engine/model_builder.h"
#include "core/spec/registry.h"

#include <yaml-cpp/yaml.h>

#include <filesystem>

namespace tw::engine {

namespace fs = std::filesystem;

namespace {

// Checkpoints keep the layout training chose (channels-last); an exported file gets plain
// contiguous tensors.
void makeContiguous(torch::nn::Module &module) {
  torch::NoGradGuard noGrad;
  for (auto &p : module.parameters()) p.set_data(p.data().contiguous());
  for (auto &b : module.buffers()) b.set_data(b.data().contiguous());
}

}  // namespace

ExportSource exportSourceFromSpec(const spec::ModelSpec &spec) {
  ExportSource source;
  source.spec = spec;
  source.analysis = spec::analyzeOrThrow(source.spec);
  source.module = buildModel(source.spec, source.analysis);
  source.module->eval();
  return source;
}

ExportSource loadRunExport(const std::string &runDir, const std::string &modelYaml, const std::string &checkpoint) {
  const config::CheckpointChoice choice = config::parseCheckpointChoice(checkpoint);
  if (!choice.problem.empty()) throw ExportError(choice.problem);
  const fs::path folder = fs::path(runDir) / "checkpoints";
  std::string checkpointPath;
  try {
    checkpointPath = config::checkpointFile(runDir, choice);
  } catch (const std::exception &e) {
    throw ExportError(e.what());
  }
  if (!fs::exists(checkpointPath)) {
    throw ExportError("the run has no " + checkpoint + " checkpoint (" + checkpointPath + " does not exist): " +
                      config::missingCheckpointHint(folder.string(), choice));
  }
  ExportSource source = exportSourceFromSpec(spec::parseModelYaml(modelYaml, "config.yaml"));
  try {
    const int64_t epoch = loadCheckpointWeights(checkpointPath, *source.module);
    source.metadata.emplace_back("checkpoint", data::jsonString(checkpoint));
    source.metadata.emplace_back("checkpoint_epoch", std::to_string(epoch));
  } catch (const std::exception &e) {
    throw ExportError(e.what());
  }
  makeContiguous(*source.module);
  source.module->eval();
  const std::string prePath = (fs::path(runDir) / "preprocessing.json").string();
  if (fs::exists(prePath)) {
    source.preprocessingJson = readWholeFile(prePath);
    source.preprocessing = parsePreprocessingJson(source.preprocessingJson, prePath);
  }
  return source;
}

bool bakesPreprocessing(const ExportSource &source, const ExportOptions &options) {
  if (!options.bakePreprocessing || !source.preprocessing) return false;
  const data::Preprocessing &p = *source.preprocessing;
  if (p.indexInputs || p.standardization == "none") return false;
  const auto &inputs = source.module->inputIds();
  if (inputs.size() != 1) return false;
  const spec::NodeInfo *input = source.analysis.find(inputs[0]);
  const bool integer = spec::has(input->params, "dtype") && spec::getString(input->params, "dtype") == "int64";
  return !integer && spec::numel(input->outputShape) == spec::numel(p.inputShape);
}

std::pair<torch::Tensor, torch::Tensor> standardization(const data::Preprocessing &p) {
  if (p.standardization == "image") {
    return {torch::tensor(static_cast<float>(p.imageMean)), torch::tensor(static_cast<float>(p.imageStd))};
  }
  torch::Tensor mean = torch::tensor(p.featureMean), stdev = torch::tensor(p.featureStd);
  return {mean.reshape(p.inputShape).clone(), stdev.reshape(p.inputShape).clone()};
}

std::string outputActivation(const ExportSource &source) {
  const spec::NodeInfo *output = source.analysis.find(source.analysis.output);
  if (const spec::OpDef *def = output ? spec::Registry::instance().find(output->op) : nullptr; def && !def->outputKind.empty())
    return def->outputKind;
  if (source.preprocessing && source.preprocessing->task == data::Task::Regression) return "values";
  return "logits";
}

std::string exportMetadataJson(const ExportSource &source, const ExportOptions &options, const std::string &format) {
  std::string out = "{\n  \"producer\": \"Torchwright\",\n  \"format\": " + data::jsonString(format);
  for (const auto &[key, value] : source.metadata) out += ",\n  " + data::jsonString(key) + ": " + value;
  std::string inputs = "[";
  for (size_t i = 0; i < source.module->inputIds().size(); ++i) {
    const spec::NodeInfo *node = source.analysis.find(source.module->inputIds()[i]);
    const bool integer = spec::has(node->params, "dtype") && spec::getString(node->params, "dtype") == "int64";
    std::string shape = "[null";
    for (int64_t d : node->outputShape) shape += ", " + std::to_string(d);
    inputs += std::string(i ? ", " : "") + "{\"name\": " + data::jsonString(node->id) + ", \"shape\": " + shape +
              "], \"dtype\": \"" + (integer ? "int64" : "float32") + "\"}";
  }
  out += ",\n  \"inputs\": " + inputs + "]";
  out += ",\n  \"output\": " + data::jsonString(source.analysis.output);
  out += ",\n  \"output_activation\": " + data::jsonString(outputActivation(source));
  out += ",\n  \"preprocessing_baked\": " + std::string(bakesPreprocessing(source, options) ? "true" : "false");
  out += ",\n  \"int8\": " + std::string(options.int8 ? "true" : "false");
  if (source.preprocessing) {
    std::string names = "[";
    for (size_t i = 0; i < source.preprocessing->classNames.size(); ++i)
      names += (i ? ", " : "") + data::jsonString(source.preprocessing->classNames[i]);
    out += ",\n  \"class_names\": " + names + "]";
    std::string pre = source.preprocessingJson;
    while (!pre.empty() && (pre.back() == '\n' || pre.back() == ' ')) pre.pop_back();
    out += ",\n  \"preprocessing\": " + pre;
  }
  return out + "\n}\n";
}

data::Preprocessing parsePreprocessingJson(const std::string &text, const std::string &fileName) {
  data::Preprocessing p;
  try {
    const YAML::Node root = YAML::Load(text);
    auto str = [&](const char *key, const std::string &fallback = {}) {
      return root[key] ? root[key].as<std::string>() : fallback;
    };
    p.dataset = str("dataset");
    p.task = data::parseTask(str("task", "classification"));
    if (root["input_shape"]) p.inputShape = root["input_shape"].as<std::vector<int64_t>>();
    p.indexInputs = root["index_inputs"] && root["index_inputs"].as<bool>();
    p.standardization = str("standardization", "none");
    if (root["image_mean"]) p.imageMean = root["image_mean"].as<double>();
    if (root["image_std"]) p.imageStd = root["image_std"].as<double>();
    if (root["feature_mean"]) p.featureMean = root["feature_mean"].as<std::vector<float>>();
    if (root["feature_std"]) p.featureStd = root["feature_std"].as<std::vector<float>>();
    if (root["feature_names"]) p.featureNames = root["feature_names"].as<std::vector<std::string>>();
    if (root["classes"]) p.classes = root["classes"].as<int64_t>();
    if (root["class_names"]) p.classNames = root["class_names"].as<std::vector<std::string>>();
    if (root["target_dim"]) p.targetDim = root["target_dim"].as<int64_t>();
    if (root["csv_target"]) p.csvTarget = root["csv_target"].as<std::string>();
    if (root["csv_columns"]) {
      for (const YAML::Node &c : root["csv_columns"]) {
        data::CsvColumn column;
        column.name = c["name"].as<std::string>();
        column.categorical = c["kind"].as<std::string>() == "categorical";
        column.offset = c["offset"].as<int64_t>();
        if (c["categories"]) column.categories = c["categories"].as<std::vector<std::string>>();
        if (c["fill"]) column.fill = c["fill"].as<double>();
        p.csvColumns.push_back(std::move(column));
      }
    }
  } catch (const std::exception &e) {
    throw ExportError(fileName + ": " + e.what());
  }
  if (p.standardization == "per-feature" &&
      (p.featureMean.size() != p.featureStd.size() ||
       static_cast<int64_t>(p.featureMean.size()) != spec::numel(p.inputShape))) {
    throw ExportError(fileName + ": feature_mean and feature_std must have one value per input feature");
  }
  return p;
}

}  // namespace tw::engine
