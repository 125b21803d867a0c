#pragma once
// Reading an ONNX file for import: the protobuf parsed and checked to be a model (not some other
// bytes, not cut short), its default-domain opset within what the importer maps, and tensors kept
// in external files read in, but only from inside the model's own folder. Engine-internal.

#include <cstdint>
#include <string>

namespace onnx {
class ModelProto;
}

namespace tw::engine {

constexpr int64_t kMinImportOpset = 11;
constexpr int64_t kMaxImportOpset = 17;

// Throws ImportError naming `path`: no such file, not an ONNX model or truncated, an opset
// outside kMinImportOpset..kMaxImportOpset, external data that is missing, short, or outside the
// file's folder (an absolute path, `..`, or a link that leads out).
void loadOnnxFile(const std::string &path, onnx::ModelProto &model);

// Throws ImportError naming the node when a node of the default domain has more or fewer inputs
// or outputs than its operator's ONNX schema allows. The importer calls it once every operator is
// known to be one it maps, so an unknown one is refused by name first.
void checkNodeArity(const onnx::ModelProto &model, const std::string &file, int64_t opset);

// The opset of the default (ai.onnx) domain; 0 when the model does not import it.
int64_t defaultOpset(const onnx::ModelProto &model);

}  // namespace tw::engine
