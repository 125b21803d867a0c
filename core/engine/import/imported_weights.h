#pragma once
// An imported model in LibTorch: built from its spec like any other model, then every parameter
// and buffer set from the ONNX file's initializers, in evaluation mode. Engine-internal.

#include "core/engine/graph_module.h"
#include "core/engine/import/onnx_import.h"

#include <memory>

namespace tw::engine {

// Throws ImportError naming the node when a module's tensor has no value or another shape in
// the import (BatchNorm's num_batches_tracked, which ONNX does not keep, stays 0).
std::shared_ptr<GraphModule> buildImportedModel(const ImportedModel &imported);

}  // namespace tw::engine
