#pragma once
// What an import has built so far, shared by the driver (onnx_import.cpp) and the per-op mappers:
// the registry nodes made, the weights each one takes, what every ONNX value has become, and one
// report row per ONNX node. Engine-internal.

#include "core/spec/param.h"
#include "core/spec/shape.h"

#include <torch/torch.h>

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace tw::engine {

// An ONNX value during import: an activation (a registry node's output, one sample's shape
// without the batch) or a constant (an initializer, or something folded from constants). A
// constant may be a shape read from an activation: `batch` marks the entries that stand for the
// batch size, which the file does not fix.
struct ImportValue {
  enum class Kind { Activation, Constant };
  Kind kind = Kind::Activation;
  size_t node = 0;        // Activation: index into ImportGraph::nodes
  spec::Shape shape;      // Activation: per sample
  torch::Tensor tensor;   // Constant
  torch::Tensor batch;    // Constant: bool of tensor's shape, or undefined when no entry is the batch

  bool constant() const { return kind == Kind::Constant; }
  bool hasBatch() const { return batch.defined() && batch.any().item<bool>(); }
};

// What one ONNX node became.
struct ImportRow {
  enum class Fate {
    Mapped,    // a registry node of its own
    Folded,    // merged into another node (a bias Add into Linear, HardSigmoid * x into Hardswish)
    Constant,  // computed now from constants (shape arithmetic, Identity of an initializer)
    Dropped,   // no effect at inference (Dropout, Identity)
  };
  std::string name;    // the ONNX node's name (or "output #k of" ... when it has none)
  std::string opType;  // "Conv"
  Fate fate = Fate::Mapped;
  size_t node = 0;     // Mapped, Folded: the registry node (index into ImportGraph::nodes)
  std::string note;    // why, or what was folded ("bias", "[N, -1]")
};

// A registry node in the making: inputs are indices until ids are chosen at the end.
struct ImportNode {
  std::string op;
  spec::ParamMap params;
  std::vector<size_t> inputs;
  spec::Shape shape;                            // its output, per sample
  std::map<std::string, torch::Tensor> tensors;  // LibTorch name ("weight", "running_var") -> value
  std::string onnxName;                         // the ONNX node it came from ("" for the Input)
  std::string onnxOp;
  std::string weightName;                       // its weight's initializer name, for the id
  std::string onnxOutput;                       // the ONNX value it computes, for its readers
  bool removed = false;                         // folded into another node later (channel shuffle's Transpose)
};

struct ImportGraph {
  std::string file;
  int64_t opset = 0;
  int64_t fileBatch = 0;  // the batch size the file's input fixes; 0 when it leaves it open
  std::vector<ImportNode> nodes;
  std::map<std::string, ImportValue> values;  // ONNX value name -> what it is
  std::map<std::string, int> readers;         // ONNX value name -> nodes and graph outputs reading it
  std::vector<ImportRow> rows;
};

}  // namespace tw::engine
