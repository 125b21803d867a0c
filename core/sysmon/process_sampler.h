#pragma once
// What one process costs right now, read from Linux's /proc: CPU since the previous sample,
// resident memory, threads, and how full the host's memory is. The worker records these as a
// run's system metrics (cpu_percent, rss_mb, ...). Never throws: a process that is gone or
// unreadable gives a sample with ok == false and zeros.
//
//   tw::sysmon::ProcessSampler sampler;         // this process; ProcessSampler(pid) for another
//   sampler.sample();                           // the first sample has cpuPercent 0
//   ...
//   ProcessSample s = sampler.sample();         // s.cpuPercent: 180 = 1.8 cores busy since then

#include <chrono>
#include <cstdint>
#include <string>

namespace tw::sysmon {

struct ProcessSample {
  bool ok = false;                  // false: the process is gone or /proc is unreadable
  double cpuPercent = 0.0;          // of one core, since the previous sample; 0 on the first
  double rssMb = 0.0;               // resident set in MiB
  int threads = 0;
  double hostMemUsedPercent = 0.0;  // (MemTotal - MemAvailable) / MemTotal; 0 when unreadable
};

class ProcessSampler {
 public:
  explicit ProcessSampler(int pid = 0);  // 0 = this process
  int pid() const { return m_pid; }
  ProcessSample sample();

 private:
  int m_pid;
  std::string m_statPath;
  double m_ticksPerSecond;
  double m_pageBytes;
  // The previous successful sample, for the CPU rate; its start time tells a reused pid apart.
  bool m_hasPrevious = false;
  uint64_t m_startTicks = 0;
  uint64_t m_previousCpuTicks = 0;
  std::chrono::steady_clock::time_point m_previousTime;
};

}  // namespace tw::sysmon
