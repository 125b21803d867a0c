#pragma once
// The model registry as the store hands it out: a registered model is a name, its versions are
// exported files with a stage and the lineage copied at registration (run, configuration hash,
// data fingerprint, metrics, what the export was asked for and what its check said).

#include <cstdint>
#include <string>
#include <vector>

namespace tw::tracking {

// The stages a version moves through, as MLflow's registry has them. "archived" versions stay
// listed and their files are kept; they are simply out of use.
inline const std::vector<std::string> &modelStages() {
  static const std::vector<std::string> stages = {"none", "staging", "production", "archived"};
  return stages;
}

struct NewModelVersion {
  std::string path;            // absolute path of the exported file
  std::string sha256;          // of the file as registered
  std::string format;          // "torchscript" | "onnx"
  std::string runUuid, runName, experiment;
  std::string configHash, dataFingerprint;
  std::string metrics;         // JSON object: the run's latest metrics
  std::string exportDetails;   // JSON object: the export's options and check (artifacts.details)
};

struct ModelVersionRecord {
  std::string model;           // the registered name
  int version = 0;             // 1, 2, ... per name
  std::string stage = "none";
  std::string path, sha256, format;
  std::string runUuid, runName, experiment;
  std::string configHash, dataFingerprint;
  std::string metrics, exportDetails;
  int64_t createdMs = 0;
  int64_t updatedMs = 0;
};

struct ModelRecord {
  std::string name;
  std::string description;
  int versions = 0;
  int latestVersion = 0;
  int productionVersion = 0;   // 0 when no version is in production
  int64_t createdMs = 0;
  int64_t updatedMs = 0;
};

}  // namespace tw::tracking
