#pragma once
// A model file as the worker's export and predict take it without a run: the model built from
// the file, its weights from --weights, else `<stem>.weights.pt` beside the file (what
// `torchwright import` writes), else drawn from the seed. Weights must give every tensor of the
// model; a file that leaves one out is refused with its mapping table.

#include "core/engine/export/export_source.h"

#include <cstdint>
#include <string>

namespace tw::worker {

struct ModelFileSource {
  engine::ExportSource source;  // in evaluation mode
  std::string origin;           // "weights from FILE" or "initialised from seed N (no weights file)"
};

// Throws std::runtime_error naming the files and, for partial weights, every unmatched tensor.
ModelFileSource loadModelFile(const std::string &modelFile, const std::string &weights, int64_t seed);

}  // namespace tw::worker
