#pragma once
// TorchScript export: a torch::jit::Module whose forward is TorchScript source written by each
// node's emitter, with the trained parameters as attributes named by node id (`h1.fc.weight`).
// `torch::jit::load` in C++ and `torch.jit.load` in Python load the file; the lineage is the
// archive's extra file `torchwright.json`. Engine-internal.

#include "core/engine/export/export_source.h"

#include <string>

namespace tw::engine {

inline constexpr const char *kTorchScriptMetadataFile = "torchwright.json";

// The file's bytes. Throws ExportError naming the node when an op cannot be written.
std::string exportTorchScript(const ExportSource &source, const ExportOptions &options);

// The forward method's source alone (for messages and tests).
std::string torchScriptSource(const ExportSource &source, const ExportOptions &options);

}  // namespace tw::engine
