#pragma once
// What an exporter reads: the model as analysed, its trained weights in evaluation mode, and what
// its data went through (preprocessing.json), plus the lineage an exported file carries.
// Engine-internal.
//
//   ExportSource source = loadRunExport(runDir, config.modelYaml, "best");
//   std::string bytes = exportTorchScript(source, {});

#include "core/data/preprocessing.h"
#include "core/engine/graph_module.h"
#include "core/spec/analysis.h"
#include "core/spec/model_spec.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tw::engine {

struct ExportSource {
  spec::ModelSpec spec;
  spec::Analysis analysis;
  std::shared_ptr<GraphModule> module;             // weights loaded, eval(), contiguous layout
  std::optional<data::Preprocessing> preprocessing;  // absent when the run wrote none
  std::string preprocessingJson;                   // the run's file as written
  // Lineage written into the file's metadata, in this order: key, and its value as JSON text.
  std::vector<std::pair<std::string, std::string>> metadata;
};

struct Int8Plan;  // int8_quantization.h

struct ExportOptions {
  bool bakePreprocessing = true;  // apply the run's standardisation inside the model
  int opset = 17;                 // ONNX only
  const Int8Plan *int8 = nullptr; // ONNX only: quantize Linear and Conv weights and inputs (static QDQ)
};

// The model of a spec with fresh weights, for tests and for callers that load weights themselves.
ExportSource exportSourceFromSpec(const spec::ModelSpec &spec);

// Loads `<runDir>/checkpoints/<checkpoint>.pt` ("best" or "last") into the run's model and reads
// `<runDir>/preprocessing.json`. Throws ExportError naming the file when the checkpoint is missing
// or does not fit the model.
ExportSource loadRunExport(const std::string &runDir, const std::string &modelYaml, const std::string &checkpoint);

// Whether the export will standardise inside the model: asked for, the run standardised its
// inputs, and the model has one float Input for it to apply to.
bool bakesPreprocessing(const ExportSource &source, const ExportOptions &options);

// The standardisation as tensors shaped like one example ({} for an image's one mean and std).
std::pair<torch::Tensor, torch::Tensor> standardization(const data::Preprocessing &p);

// What the model's output holds, for whoever reads it: "probabilities" (it ends in Softmax),
// "log_probabilities" (LogSoftmax), "values" (a regression run), else "logits".
std::string outputActivation(const ExportSource &source);

// The file's metadata as one JSON object: the source's lineage, the inputs and output, whether
// preprocessing is baked in, and the run's preprocessing record.
std::string exportMetadataJson(const ExportSource &source, const ExportOptions &options, const std::string &format);

data::Preprocessing parsePreprocessingJson(const std::string &text, const std::string &fileName);

}  // namespace tw::engine
