#include "core/engine/remote_system_metrics.h"

#include "core/engine/communicator.h"
#include "core/engine/engine_log.h"
#include "core/engine/train_setup.h"
#include "core/sysmon/nvml.h"
#include "core/sysmon/process_sampler.h"
#include "tracking/metric_writer.h"
#include "tracking/run_record.h"

#include <cstdlib>
#include <sstream>

namespace tw::engine {

namespace {

std::string keyOf(int rank) { return "torchwright/sysmon/" + std::to_string(rank); }

}  // namespace

std::string encodeSystemSample(int64_t timeMs, const std::vector<std::pair<std::string, double>> &values) {
  std::ostringstream out;
  out.precision(9);
  out << "time_ms=" << timeMs;
  for (const auto &[key, value] : values) out << ';' << key << '=' << value;
  return out.str();
}

bool decodeSystemSample(const std::string &text, int64_t *timeMs, std::vector<std::pair<std::string, double>> *values) {
  bool haveTime = false;
  std::istringstream in(text);
  std::string field;
  while (std::getline(in, field, ';')) {
    const size_t eq = field.find('=');
    if (eq == std::string::npos || eq == 0) continue;
    const std::string key = field.substr(0, eq);
    char *end = nullptr;
    const double value = std::strtod(field.c_str() + eq + 1, &end);
    if (end == field.c_str() + eq + 1) continue;
    if (key == "time_ms") {
      *timeMs = static_cast<int64_t>(value);
      haveTime = true;
    } else {
      values->emplace_back(key, value);
    }
  }
  return haveTime;
}

bool RemoteSystemMetrics::needed(const dist::DistEnv &env) {
  if (!env.distributed()) return false;
  return env.nodeRank != 0 || (env.rank == 0 && env.localWorldSize < env.worldSize);
}

RemoteSystemMetrics::RemoteSystemMetrics(Communicator &comm, const dist::DistEnv &env, tracking::MetricWriter *writer,
                                         int gpuIndex)
    : m_comm(comm), m_env(env), m_writer(writer), m_gpuIndex(gpuIndex) {
  if (m_env.nodeRank != 0) {
    m_sampler = std::make_unique<sysmon::ProcessSampler>();
    m_sampler->sample();  // the CPU rate needs a previous sample
    if (m_gpuIndex >= 0) m_nvml = std::make_unique<sysmon::Nvml>();
  }
}

RemoteSystemMetrics::~RemoteSystemMetrics() = default;

void RemoteSystemMetrics::tick(bool force) {
  const auto now = std::chrono::steady_clock::now();
  if (!force && m_started && now - m_last < std::chrono::milliseconds(kIntervalMs)) return;
  m_started = true;
  m_last = now;
  // Metrics are a side show: a store hiccup must never stop the training.
  try {
    if (m_env.nodeRank != 0) publish();
    if (m_env.rank == 0 && m_writer) collect();
  } catch (const std::exception &e) {
    engineLog()->warn("system metrics of other machines: {}", messageOf(e));
  }
}

void RemoteSystemMetrics::publish() {
  const sysmon::ProcessSample s = m_sampler->sample();
  if (!s.ok) return;
  std::vector<std::pair<std::string, double>> values = {
      {"cpu_percent", s.cpuPercent}, {"rss_mb", s.rssMb}, {"threads", static_cast<double>(s.threads)}};
  if (m_env.localRank == 0) values.emplace_back("host_mem_percent", s.hostMemUsedPercent);
  if (m_nvml) {
    for (const auto &gpu : m_nvml->sample()) {
      if (gpu.index != m_gpuIndex) continue;
      values.insert(values.end(), {{"gpu_util_percent", gpu.utilPercent},
                                   {"gpu_memory_mb", gpu.memoryUsedMb},
                                   {"gpu_temperature_c", gpu.temperatureC},
                                   {"gpu_power_w", gpu.powerW}});
    }
  }
  m_comm.setText(keyOf(m_env.rank), encodeSystemSample(tracking::nowMs(), values));
}

void RemoteSystemMetrics::collect() {
  // Ranks are numbered machine by machine (torchrun, SLURM's block distribution): rank 0's
  // machine holds ranks 0 .. localWorldSize-1, whose processes its launcher samples itself.
  for (int rank = m_env.localWorldSize; rank < m_env.worldSize; ++rank) {
    std::string text;
    if (!m_comm.tryGetText(keyOf(rank), &text)) continue;
    int64_t timeMs = 0;
    std::vector<std::pair<std::string, double>> values;
    if (!decodeSystemSample(text, &timeMs, &values)) continue;
    auto seen = m_seen.find(rank);
    if (seen != m_seen.end() && seen->second >= timeMs) continue;
    m_seen[rank] = timeMs;
    for (const auto &[key, value] : values) m_writer->logSystem(key, value, rank);
  }
}

}  // namespace tw::engine
