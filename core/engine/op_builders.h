#pragma once
// One builder per registry op: the LibTorch side of the layer table in core/spec/registry.h.
// Engine-internal (includes LibTorch); only engine sources and engine tests include it.

#include "core/engine/export/emitters.h"
#include "core/spec/analysis.h"

#include <torch/torch.h>

#include <functional>
#include <map>
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

class NodeImport;  // import/node_import.h
namespace onnx_import {
using NodeHandler = void (*)(NodeImport &);
}  // namespace onnx_import

// An ONNX operator that ONNX import turns into this op, and the mapper that does it
// (import/onnx_mappers.h). A mapper may make a neighbouring op too (Conv a Conv1d, Clip a ReLU);
// it is listed once, on the row of the op it mostly makes.
struct OnnxImport {
  const char *onnxOp;
  onnx_import::NodeHandler handler;
};

// One row of the op table: the builder and, beside it, the op's emitter for each export format
// (export/emitters.h) and the ONNX operators imported as it. A null emitter means the format
// cannot write the op yet; no imports, that no mapper makes it on its own (MultiheadAttention is
// folded from its parts by import/onnx_attention.h, a TransformerEncoderLayer imports as its
// parts). What an op is (shapes, parameters, int8) is its registry entry (core/spec/registry.h).
struct OpEntry {
  OpBuilder build = nullptr;
  TorchScriptEmitter torchscript = nullptr;
  OnnxEmitter onnx = nullptr;
  std::vector<OnnxImport> onnxImports;
};

// nullptr when the op is not in the table.
const OpEntry *findOp(const std::string &op);
// Every row, by op name.
const std::map<std::string, OpEntry> &opTable();

// nullptr when the op has no builder. Input has one too: the graph hands it the caller's tensor
// and it checks the dtype, so every registry entry is covered by the same table.
OpBuilder findOpBuilder(const std::string &op);

}  // namespace tw::engine
