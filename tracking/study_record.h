#pragma once
// Studies and trials as the tracking store hands them out. States are the names core/search
// gives them ("RUNNING", "COMPLETE", "PRUNED", "FAILED", "WAITING"); the store keeps them as text
// and allows the transitions of tracking/state_table.h.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tw::tracking {

struct NewStudy {
  std::string name;             // unique among studies
  std::string experiment = "default";  // the experiment its trial runs belong to
  std::string sweepYaml;        // the sweep file as read (space, sampler, pruner, budget)
  std::string sweepFile;        // where it was read from, absolute; empty for text
  std::string directions;       // "maximize" or "maximize,minimize"
  std::string metrics;          // "val/accuracy" or "val/accuracy,params": one per direction
  std::string baseHash;         // the base run's configuration hash; empty without a base
};

struct StudyRecord {
  int64_t id = 0;
  std::string uuid;             // 32 hex chars, the study's public id
  std::string name;
  std::string experiment;
  std::string sweepYaml;
  std::string sweepFile;
  std::string directions;
  std::string metrics;
  std::string baseHash;
  std::string status;           // "RUNNING" while a driver holds it, else "IDLE"
  bool stopRequested = false;   // Studio asked the driver to stop; cleared when the study goes IDLE
  int64_t createdMs = 0;
  int64_t updatedMs = 0;        // bumped by every write about the study or its trials
  int64_t driverHeartbeatMs = 0;
  int64_t driverMs = 0;         // time sweep drivers have spent on it, all sessions together
};

struct TrialRecord {
  int64_t id = 0;
  int64_t studyId = 0;
  int number = 0;               // 0, 1, 2, ... per study; allocated under the write lock, never reused
  std::string state;            // RUNNING, WAITING, COMPLETE, PRUNED, FAILED
  std::map<std::string, std::string> params;  // dotted key -> value text; active parameters only
  std::vector<double> values;   // one per objective once COMPLETE
  std::map<int64_t, double> intermediate;     // step -> objective, as reported
  int64_t runId = 0;            // the tracked run, 0 while none (or for an external objective)
  std::string message;          // why it failed or was pruned
  int retryOf = -1;             // the number of the FAILED trial this one retries, -1 = none
  int64_t createdMs = 0, startMs = 0, endMs = 0, updatedMs = 0;
  int64_t heartbeatMs = 0;
};

}  // namespace tw::tracking
