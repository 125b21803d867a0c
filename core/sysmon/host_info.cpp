#include "core/sysmon/host_info.h"

#include <sched.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

namespace tw::sysmon {

namespace {

std::string valueAfterColon(const std::string &line) {
  auto colon = line.find(':');
  if (colon == std::string::npos) return {};
  auto start = line.find_first_not_of(" \t", colon + 1);
  return start == std::string::npos ? std::string() : line.substr(start);
}

}  // namespace

std::string HostInfo::hardwareSummary() const {
  std::ostringstream out;
  out << logicalCores << " x " << (cpuModel.empty() ? "unknown CPU" : cpuModel);
  char mem[32];
  std::snprintf(mem, sizeof(mem), "%.1f", memoryGiB);
  out << ", " << mem << " GiB RAM";
  return out.str();
}

HostInfo readHostInfo() {
  HostInfo info;
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) == 0) info.hostname = name;

  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) {
      info.cpuModel = valueAfterColon(line);
      break;
    }
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  info.logicalCores = sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set)
                                                                   : int(std::thread::hardware_concurrency());
  std::ifstream meminfo("/proc/meminfo");
  for (std::string line; std::getline(meminfo, line);) {
    if (line.rfind("MemTotal:", 0) == 0) {
      info.memoryGiB = std::stod(valueAfterColon(line)) / (1024.0 * 1024.0);  // kB -> GiB
      break;
    }
  }
  std::ifstream osRelease("/etc/os-release");
  for (std::string line; std::getline(osRelease, line);) {
    if (line.rfind("PRETTY_NAME=", 0) == 0) {
      info.os = line.substr(12);
      if (info.os.size() >= 2 && info.os.front() == '"') info.os = info.os.substr(1, info.os.size() - 2);
    }
  }
  return info;
}

}  // namespace tw::sysmon
