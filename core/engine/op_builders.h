#pragma once
// One builder per registry op: the LibTorch side of the layer table in core/spec/registry.h.
// Engine-internal (includes LibTorch); only engine sources and engine tests include it.

#include "core/engine/export/emitters.h"
#include "core/spec/analysis.h"

#include <torch/torch.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tw::engine {

using OpForward = std::function<torch::Tensor(const std::vector<torch::Tensor> &inputs)>;

// What a node becomes: a forward function and, for nodes with parameters, buffers or a
// train/eval mode (Linear, Conv, BatchNorm, Dropout...), the module that forward calls, which
// the graph registers so that parameters(), train() and state_dict see it.
struct BuiltOp {
  std::shared_ptr<torch::nn::Module> module;  // null for stateless ops (ReLU, Add, Flatten...)
  OpForward forward;
};

// Builds a node from its analysed form (typed parameters with defaults and inferred values).
using OpBuilder = BuiltOp (*)(const spec::NodeInfo &node);

// One row of the op table: the builder and, beside it, the op's emitter for each export format
// (export/emitters.h). A null emitter means the format cannot write the op yet.
struct OpEntry {
  OpBuilder build = nullptr;
  TorchScriptEmitter torchscript = nullptr;
  OnnxEmitter onnx = nullptr;
};

// nullptr when the op is not in the table.
const OpEntry *findOp(const std::string &op);

// nullptr when the op has no builder. Input has one too: the graph hands it the caller's tensor
// and it checks the dtype, so every registry entry is covered by the same table.
OpBuilder findOpBuilder(const std::string &op);

}  // namespace tw::engine
