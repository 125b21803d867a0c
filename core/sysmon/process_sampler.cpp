#include "core/sysmon/process_sampler.h"

#include <unistd.h>

#include <fstream>
#include <sstream>

namespace tw::sysmon {

namespace {

struct StatFields {
  uint64_t cpuTicks = 0;    // utime + stime, all threads
  uint64_t startTicks = 0;  // since boot; differs when the pid was reused
  int threads = 0;
  int64_t rssPages = 0;     // the same count statm's second field gives
};

bool readLine(const std::string &path, std::string *line) {
  std::ifstream file(path);
  return file && std::getline(file, *line) && !line->empty();
}

// proc(5): "pid (comm) state ppid ...". comm is the program's name, up to 15 bytes chosen by the
// program itself, so it may hold spaces and ')' ("tw (rank 0)"): the fields start after the last ')'.
bool parseStat(const std::string &line, StatFields *out) {
  const auto close = line.rfind(')');
  if (close == std::string::npos) return false;
  std::istringstream rest(line.substr(close + 1));
  std::string state;
  rest >> state;
  // Fields 4..24 as proc(5) numbers them; some (cutime, priority, nice) may be negative.
  constexpr int kFirst = 4, kLast = 24;
  long long field[kLast + 1] = {};
  for (int i = kFirst; i <= kLast; ++i) {
    if (!(rest >> field[i])) return false;
  }
  out->cpuTicks = static_cast<uint64_t>(field[14] + field[15]);
  out->threads = static_cast<int>(field[20]);
  out->startTicks = static_cast<uint64_t>(field[22]);
  out->rssPages = field[24];
  return true;
}

double hostMemUsedPercent() {
  std::ifstream meminfo("/proc/meminfo");
  double totalKb = 0.0, availableKb = -1.0;
  for (std::string line; std::getline(meminfo, line);) {
    std::istringstream fields(line);
    std::string key;
    double value = 0.0;
    if (!(fields >> key >> value)) continue;
    if (key == "MemTotal:") totalKb = value;
    if (key == "MemAvailable:") availableKb = value;
  }
  // MemAvailable (not MemFree) counts the page cache the kernel would give back: a host that has
  // read a large data set is not out of memory.
  if (totalKb <= 0.0 || availableKb < 0.0) return 0.0;
  return 100.0 * (totalKb - availableKb) / totalKb;
}

}  // namespace

ProcessSampler::ProcessSampler(int pid)
    : m_pid(pid == 0 ? static_cast<int>(getpid()) : pid),
      m_statPath("/proc/" + std::to_string(m_pid) + "/stat"),
      m_ticksPerSecond(static_cast<double>(sysconf(_SC_CLK_TCK))),
      m_pageBytes(static_cast<double>(sysconf(_SC_PAGESIZE))) {}

ProcessSample ProcessSampler::sample() {
  ProcessSample sample;
  std::string line;
  StatFields stat;
  if (m_pid <= 0 || !readLine(m_statPath, &line) || !parseStat(line, &stat)) return sample;
  const auto now = std::chrono::steady_clock::now();
  // The pid now names another process: the one sampled so far is gone.
  if (m_hasPrevious && stat.startTicks != m_startTicks) return sample;

  sample.ok = true;
  if (m_hasPrevious && stat.cpuTicks >= m_previousCpuTicks && m_ticksPerSecond > 0.0) {
    const double seconds = std::chrono::duration<double>(now - m_previousTime).count();
    if (seconds > 0.0)
      sample.cpuPercent = 100.0 * double(stat.cpuTicks - m_previousCpuTicks) / m_ticksPerSecond / seconds;
  }
  sample.rssMb = double(stat.rssPages) * m_pageBytes / (1024.0 * 1024.0);
  sample.threads = stat.threads;
  sample.hostMemUsedPercent = hostMemUsedPercent();

  m_hasPrevious = true;
  m_startTicks = stat.startTicks;
  m_previousCpuTicks = stat.cpuTicks;
  m_previousTime = now;
  return sample;
}

}  // namespace tw::sysmon
