#pragma once
// System metrics of ranks on other machines. Only the machine of rank 0 has the tracking
// database, and its launcher samples only its own ranks; a rank on another machine therefore
// samples its own process (and its GPU) every few seconds and publishes the sample in the run's
// rendezvous store, and rank 0 reads the samples it has not seen and records them by rank, beside
// the ones its launcher writes. Nothing here waits on a peer: a missing sample is skipped.
// Engine-internal.
//
//   RemoteSystemMetrics remote(comm, env, writer, gpuIndex);
//   remote.tick();        // after every step: does something every kIntervalMs at most
//   remote.tick(true);    // at the end, so a short run still leaves one sample

#include "core/dist/dist_env.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tw::sysmon {
class Nvml;
class ProcessSampler;
}  // namespace tw::sysmon
namespace tw::tracking {
class MetricWriter;
}

namespace tw::engine {

class Communicator;

// A sample as text ("time_ms=...;cpu_percent=...;rss_mb=..."), and back; unknown or malformed
// fields are skipped.
std::string encodeSystemSample(int64_t timeMs, const std::vector<std::pair<std::string, double>> &values);
bool decodeSystemSample(const std::string &text, int64_t *timeMs, std::vector<std::pair<std::string, double>> *values);

class RemoteSystemMetrics {
 public:
  static constexpr int kIntervalMs = 2000;

  // Whether the run needs it: a rank on another machine than rank 0, or rank 0 with such ranks.
  static bool needed(const dist::DistEnv &env);

  // writer: rank 0's (null elsewhere). gpuIndex: the rank's CUDA device, -1 on the CPU.
  RemoteSystemMetrics(Communicator &comm, const dist::DistEnv &env, tracking::MetricWriter *writer, int gpuIndex);
  ~RemoteSystemMetrics();

  void tick(bool force = false);

 private:
  void publish();
  void collect();

  Communicator &m_comm;
  dist::DistEnv m_env;
  tracking::MetricWriter *m_writer;
  int m_gpuIndex;
  std::unique_ptr<sysmon::ProcessSampler> m_sampler;
  std::unique_ptr<sysmon::Nvml> m_nvml;
  std::chrono::steady_clock::time_point m_last;
  bool m_started = false;
  std::map<int, int64_t> m_seen;  // rank -> time of the last sample recorded
};

}  // namespace tw::engine
