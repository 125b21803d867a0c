#pragma once
// `torchwright import`: an ONNX file as a Torchwright model whose nodes are registry ops, the
// file's initializers as that model's weights, and a report of what became of every ONNX node.
// Nothing is imported half-way: an operator without a registry counterpart, a node the registry
// cannot express (asymmetric padding, a broadcasting Add), control flow, a shape left open, a file
// that is not ONNX or is cut short all refuse the whole file (ImportError). Engine-internal.
//
//   ImportOptions options;                          // options.inputShape = {3, 224, 224} when the
//   ImportedModel m = importOnnx("net.onnx", options);  // file leaves height and width open
//   auto module = buildImportedModel(m);            // imported_weights.h: LibTorch, with the weights
//   std::string yaml = spec::toYaml(m.spec);

#include "core/spec/model_spec.h"

#include <torch/torch.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tw::engine {

struct ImportOptions {
  std::vector<int64_t> inputShape;  // one sample's shape (C, H, W) for an input with open dimensions
  std::string modelName;            // the model file's `name:`; empty: from the ONNX file's name
};

// One ONNX node (or graph input) and what it became.
struct ImportedRow {
  std::string name;    // the ONNX node's name
  std::string opType;  // "Conv"; "input" for a graph input
  std::string fate;    // "mapped", "folded", "constant" or "dropped"
  std::string node;    // mapped, folded: the model's node id
  std::string op;      // that node's registry op
  std::string note;    // what was folded or why ("bias", "[N, -1]", "identity at inference")
};

struct ImportedModel {
  std::string file;
  int64_t opset = 0;
  int64_t irVersion = 0;
  std::string producer;  // "pytorch 1.13.0"
  spec::ModelSpec spec;
  // Node id -> LibTorch tensor name ("weight", "running_var") -> value, for every node with weights.
  std::map<std::string, std::map<std::string, torch::Tensor>> tensors;
  std::vector<ImportedRow> rows;  // graph inputs, then every node in file order
};

ImportedModel importOnnx(const std::string &path, const ImportOptions &options = {});

}  // namespace tw::engine
