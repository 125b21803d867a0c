#pragma once
// ONNX export: a ModelProto built with the ONNX protobuf API, one emitter per node, with a dynamic
// batch axis, names from the spec's ids and the lineage in metadata_props. Engine-internal.

#include "core/config/onnx_opsets.h"
#include "core/engine/export/export_source.h"

#include <string>
#include <vector>

namespace tw::engine {

using config::kMaxOnnxOpset;
using config::kMinOnnxOpset;

// The serialised model. Throws ExportError naming the node when an op cannot be written, or the
// opset when it is outside [13, 17].
std::string exportOnnx(const ExportSource &source, const ExportOptions &options);

// What the ONNX checker and shape inference say of a serialised model: empty when both pass and
// the inferred output shape is `expectedOutput` (the batch as a symbol); else the problem.
struct OnnxCheck {
  std::string problem;
  std::vector<std::string> outputShape;  // as inferred, "batch" for the symbolic axis
};
OnnxCheck checkOnnx(const std::string &bytes, const std::vector<int64_t> &expectedOutput);

}  // namespace tw::engine
