#pragma once
// What machine a run ran on: stored with every run so that a result can be explained later.

#include <string>

namespace tw::sysmon {

struct HostInfo {
  std::string hostname;
  std::string cpuModel;   // from /proc/cpuinfo
  int logicalCores = 0;   // usable by this process (affinity)
  double memoryGiB = 0.0; // MemTotal
  std::string os;         // PRETTY_NAME from /etc/os-release

  std::string hardwareSummary() const;  // "2 x AMD EPYC 7B13, 23.5 GiB RAM, no GPU"
};

HostInfo readHostInfo();

}  // namespace tw::sysmon
