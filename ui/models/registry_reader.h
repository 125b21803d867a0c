#pragma once
// The model registry read off the UI thread: every version of every registered model, with the
// folder and data of the run it came from (for "Try it" and "Open in Runs") and, for a version
// Try It cannot run, a TorchScript file of the same run that it can. Called through StoreCall
// (ui/common/store_call.h), on a thread of QtConcurrent's pool with a connection of its own.

#include "tracking/model_record.h"

#include <QString>

#include <cstdint>
#include <string>
#include <vector>

namespace tw::tracking {
class Store;
}

namespace tw::ui {

struct RegistryEntry {
  tracking::ModelVersionRecord version;
  std::string description;  // the model's
  int64_t runId = 0;        // 0 when the run was deleted since
  std::string runDir;
  std::string fileState;    // "unchanged", "modified since registration", "missing"
  std::string dataset;      // the run's data.dataset (and data.path when set); empty without the run
  // For a version Try It cannot run (not TorchScript): a TorchScript file of the same run that it
  // can, a registered version's first, else an export recorded with the run; empty when none.
  std::string torchscriptSibling;
  std::string siblingName;  // "shirts version 2", or the export's file name
};

struct RegistrySnapshot {
  std::vector<RegistryEntry> entries;  // by model name, then version
  QString error;                       // the database could not be read
};

// Throws TrackingError when the store cannot be read.
RegistrySnapshot readRegistry(tracking::Store &store);

}  // namespace tw::ui
