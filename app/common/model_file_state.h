#pragma once
// Whether a registered model version's file is still the one registered: the CLI's `models show`
// and Studio's Models page say it the same way.

#include "tracking/model_record.h"

#include <string>

namespace tw::app {

// "unchanged", "modified since registration" (its SHA-256 differs) or "missing". Reads the file.
std::string modelFileState(const tracking::ModelVersionRecord &version);

}  // namespace tw::app
