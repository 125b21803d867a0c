#pragma once
// Plain structs the tracking store hands out; SQL never leaves tracking/.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tw::tracking {

enum class RunStatus { Created, Running, Finished, Failed, Killed };
std::string runStatusName(RunStatus status);         // "RUNNING"
bool parseRunStatus(const std::string &name, RunStatus *status);

struct NewRun {
  std::string experiment = "default";
  std::string name;             // human label; generated when empty
  bool uniqueName = false;      // a name another run has becomes name-2, name-3, ...
  std::string configYaml;       // the fully resolved configuration
  std::string configHash;
  int64_t seed = 0;
  std::string dataFingerprint;
  std::string libraryVersions;  // "libtorch=1.13.1 sqlite=3.40.1 ..."
  std::string host;
  std::string hardware;         // "2 x Intel(R) Xeon(R) ..., 24 GiB"
  // The folder that holds run folders (<workspace>/runs); the run's own folder, recorded as its
  // runDir, is runsRoot/<uuid>, known only once the store has chosen the uuid. Empty: no folder.
  std::string runsRoot;
  // Empty: a new random id. `runs import` keeps the source's (32 lowercase hex digits), so that
  // importing again finds the run instead of adding one.
  std::string uuid;
};

struct RunRecord {
  int64_t id = 0;         // internal key used by metrics
  std::string uuid;       // 32 hex chars, the run's public id (folder name, CLI argument)
  int64_t experimentId = 0;
  std::string experiment;
  std::string name;
  RunStatus status = RunStatus::Created;
  std::string statusMessage;  // why it failed or was killed
  int64_t createdMs = 0;
  int64_t startMs = 0;        // 0 until RUNNING
  int64_t endMs = 0;          // 0 until finished
  int64_t updatedMs = 0;      // bumped by every write about the run (status, metrics)
  int64_t heartbeatMs = 0;    // the launcher's last beat; 0 = never. Does not bump updatedMs
  std::string configYaml;
  std::string configHash;
  int64_t seed = 0;
  std::string dataFingerprint;
  std::string libraryVersions;
  std::string host;
  std::string hardware;
  std::string runDir;
};

struct MetricPoint {
  int64_t step = 0;
  double value = 0.0;
  int64_t timeMs = 0;
};

struct LatestMetric {
  std::string key;
  int64_t step = 0;
  double value = 0.0;
};

// What a runs table shows of a run beside its record (Store::runDetails).
struct RunDetails {
  std::vector<LatestMetric> latest;  // sorted by key
  std::map<std::string, std::string> params;
  std::map<std::string, std::string> tags;
};

struct MetricRow {  // what a writer queues
  std::string key;
  int64_t step = 0;
  double value = 0.0;
  int64_t timeMs = 0;
};

struct SystemMetricRow {
  std::string key;  // "cpu_percent", "rss_mb"
  int rank = 0;
  int64_t timeMs = 0;
  double value = 0.0;
};

struct Artifact {
  std::string path;  // relative to the run folder
  std::string kind;  // "checkpoint", "model", "log", "export:onnx", ...
  int64_t createdMs = 0;
  std::string sha256;  // hex; empty when not recorded
  std::string details; // JSON object (an export's options and check); empty for plain files
};

int64_t nowMs();

}  // namespace tw::tracking
