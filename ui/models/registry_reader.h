#pragma once
// The model registry read off the UI thread: every version of every registered model, with the
// folder of the run it came from (for "Try it" and "Open in Runs"). One read per call, on a
// thread of QtConcurrent's pool, with a connection of its own.

#include "tracking/model_record.h"

#include <QFuture>
#include <QString>

#include <cstdint>
#include <string>
#include <vector>

namespace tw::ui {

struct RegistryEntry {
  tracking::ModelVersionRecord version;
  std::string description;  // the model's
  int64_t runId = 0;        // 0 when the run was deleted since
  std::string runDir;
  std::string fileState;    // "unchanged", "modified since registration", "missing"
};

struct RegistrySnapshot {
  std::vector<RegistryEntry> entries;  // by model name, then version
  QString error;                       // the database could not be read
};

QFuture<RegistrySnapshot> readRegistry(const QString &dbPath);

}  // namespace tw::ui
