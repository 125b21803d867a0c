#pragma once
// The import report: every ONNX node and what it became (mapped to a node, folded into one,
// computed as a constant, dropped at inference), as text for a terminal or as JSON (`--json`).
// Engine-internal.

#include "core/engine/import/onnx_import.h"

#include <string>

namespace tw::engine {

struct ImportOutcome {
  std::string modelFile, weightsFile;  // as written
  int64_t weightTensors = 0;
  double seconds = 0.0;                // reading the file to both files written
};

std::string importReportText(const ImportedModel &model, const ImportOutcome &outcome);
std::string importReportJson(const ImportedModel &model, const ImportOutcome &outcome);

}  // namespace tw::engine
