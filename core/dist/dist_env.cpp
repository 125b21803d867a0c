#include "core/dist/dist_env.h"

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace tw::dist {

namespace {

int parseInt(const char *name, const char *text, int min) {
  const std::string value = text ? text : "";
  size_t used = 0;
  long parsed = 0;
  try {
    parsed = std::stol(value, &used);
  } catch (const std::exception &) {
    used = 0;
  }
  if (value.empty() || used != value.size() || parsed < min || parsed > 1 << 24)
    throw std::runtime_error("environment variable " + std::string(name) + "='" + value +
                             "': expected a whole number >= " + std::to_string(min));
  return static_cast<int>(parsed);
}

// The optional variable `name` as a number, or `fallback` when it is unset or empty.
int optionalInt(const GetEnv &getenv, const char *name, int fallback, int min) {
  const char *text = getenv(name);
  return text && *text ? parseInt(name, text, min) : fallback;
}

std::string optionalText(const GetEnv &getenv, const char *name, const std::string &fallback) {
  const char *text = getenv(name);
  return text && *text ? std::string(text) : fallback;
}

void checkConsistent(const DistEnv &env, const std::string &rankName, const std::string &sizeName) {
  if (env.rank >= env.worldSize)
    throw std::runtime_error(rankName + "=" + std::to_string(env.rank) + " is not below " + sizeName + "=" +
                             std::to_string(env.worldSize));
  if (env.localRank >= env.localWorldSize)
    throw std::runtime_error("local rank " + std::to_string(env.localRank) + " is not below the " +
                             std::to_string(env.localWorldSize) + " ranks on this node");
  if (env.masterPort < 1 || env.masterPort > 65535)
    throw std::runtime_error("MASTER_PORT=" + std::to_string(env.masterPort) + " is not a TCP port (1-65535)");
}

DistEnv fromTorchrun(const GetEnv &getenv) {
  DistEnv env;
  env.source = "torchrun";
  env.worldSize = optionalInt(getenv, "WORLD_SIZE", 1, 1);
  env.rank = optionalInt(getenv, "RANK", 0, 0);
  env.localRank = optionalInt(getenv, "LOCAL_RANK", env.rank, 0);
  env.localWorldSize = optionalInt(getenv, "LOCAL_WORLD_SIZE", env.worldSize, 1);
  env.nodeRank = optionalInt(getenv, "GROUP_RANK", optionalInt(getenv, "NODE_RANK", 0, 0), 0);
  env.masterAddr = optionalText(getenv, "MASTER_ADDR", env.masterAddr);
  env.masterPort = optionalInt(getenv, "MASTER_PORT", env.masterPort, 0);
  env.rendezvousFile = optionalText(getenv, "TORCHWRIGHT_RENDEZVOUS_FILE", "");
  checkConsistent(env, "RANK", "WORLD_SIZE");
  return env;
}

DistEnv fromSlurm(const GetEnv &getenv) {
  DistEnv env;
  env.source = "slurm";
  env.rank = optionalInt(getenv, "SLURM_PROCID", 0, 0);
  env.worldSize = optionalInt(getenv, "SLURM_NTASKS", 1, 1);
  env.localRank = optionalInt(getenv, "SLURM_LOCALID", 0, 0);
  env.nodeRank = optionalInt(getenv, "SLURM_NODEID", 0, 0);
  const int perNode = optionalInt(getenv, "SLURM_NTASKS_PER_NODE", 0, 1);
  if (perNode > 0) {
    env.localWorldSize = perNode;
  } else {
    const auto counts = expandSlurmTaskCounts(optionalText(getenv, "SLURM_TASKS_PER_NODE", ""));
    env.localWorldSize = static_cast<size_t>(env.nodeRank) < counts.size() ? counts[size_t(env.nodeRank)] : env.worldSize;
  }
  env.coresPerRank = optionalInt(getenv, "SLURM_CPUS_PER_TASK", 0, 1);
  // Rank 0 runs on the first host of the allocation; an explicit MASTER_ADDR wins.
  std::string nodelist = optionalText(getenv, "SLURM_JOB_NODELIST", optionalText(getenv, "SLURM_NODELIST", ""));
  const auto hosts = expandSlurmNodelist(nodelist);
  env.masterAddr = optionalText(getenv, "MASTER_ADDR", hosts.empty() ? env.masterAddr : hosts.front());
  // Jobs sharing a node must not share a port: derive it from the job id unless it is given.
  const int jobId = optionalInt(getenv, "SLURM_JOB_ID", 0, 0);
  env.masterPort = optionalInt(getenv, "MASTER_PORT", 29500 + jobId % 1000, 1);
  checkConsistent(env, "SLURM_PROCID", "SLURM_NTASKS");
  return env;
}

}  // namespace

std::string DistEnv::describe() const {
  return "rank " + std::to_string(rank) + " of " + std::to_string(worldSize) + " (local " +
         std::to_string(localRank) + " of " + std::to_string(localWorldSize) + ", node " + std::to_string(nodeRank) +
         "), " + (rendezvousFile.empty() ? "master " + masterAddr + ":" + std::to_string(masterPort)
                                         : "rendezvous file " + rendezvousFile) +
         ", from " + source;
}

DistEnv distEnvFrom(const GetEnv &getenv) {
  auto set = [&](const char *name) {
    const char *v = getenv(name);
    return v && *v;
  };
  DistEnv env;
  if (set("WORLD_SIZE") || set("RANK")) {
    env = fromTorchrun(getenv);
  } else if (set("SLURM_PROCID") && optionalInt(getenv, "SLURM_NTASKS", 1, 1) > 1) {
    env = fromSlurm(getenv);
  }
  env.coresPerRank = optionalInt(getenv, "TORCHWRIGHT_CORES", env.coresPerRank, 1);
  return env;
}

DistEnv distEnvFromProcess() {
  return distEnvFrom([](const char *name) { return std::getenv(name); });
}

std::vector<std::string> expandSlurmNodelist(const std::string &list) {
  std::vector<std::string> hosts;
  size_t i = 0;
  while (i < list.size()) {
    // One entry: a prefix, optionally followed by "[ranges]" and a suffix, up to a top-level comma.
    size_t end = i;
    int depth = 0;
    while (end < list.size() && (depth > 0 || list[end] != ',')) {
      if (list[end] == '[') ++depth;
      if (list[end] == ']') --depth;
      ++end;
    }
    const std::string entry = list.substr(i, end - i);
    i = end + 1;
    if (entry.empty()) continue;
    const size_t open = entry.find('[');
    if (open == std::string::npos) {
      hosts.push_back(entry);
      continue;
    }
    const size_t close = entry.find(']', open);
    if (close == std::string::npos) throw std::runtime_error("SLURM node list '" + list + "': unclosed '['");
    const std::string prefix = entry.substr(0, open), suffix = entry.substr(close + 1);
    const std::string ranges = entry.substr(open + 1, close - open - 1);
    size_t r = 0;
    while (r <= ranges.size()) {
      size_t comma = ranges.find(',', r);
      if (comma == std::string::npos) comma = ranges.size();
      const std::string range = ranges.substr(r, comma - r);
      r = comma + 1;
      if (range.empty()) continue;
      const size_t dash = range.find('-');
      const std::string first = range.substr(0, dash);
      const std::string last = dash == std::string::npos ? first : range.substr(dash + 1);
      const int from = parseInt("SLURM node list", first.c_str(), 0), to = parseInt("SLURM node list", last.c_str(), 0);
      for (int n = from; n <= to; ++n) {
        std::string number = std::to_string(n);
        // "node[01-10]": the width of the first bound is kept, as SLURM does.
        if (number.size() < first.size()) number.insert(0, first.size() - number.size(), '0');
        hosts.push_back(prefix + number + suffix);
      }
    }
  }
  return hosts;
}

std::vector<int> expandSlurmTaskCounts(const std::string &list) {
  std::vector<int> counts;
  size_t i = 0;
  while (i < list.size()) {
    size_t comma = list.find(',', i);
    if (comma == std::string::npos) comma = list.size();
    const std::string entry = list.substr(i, comma - i);
    i = comma + 1;
    const size_t paren = entry.find("(x");
    const int count = parseInt("SLURM_TASKS_PER_NODE", entry.substr(0, paren).c_str(), 0);
    int repeat = 1;
    if (paren != std::string::npos) {
      const size_t close = entry.find(')', paren);
      repeat = parseInt("SLURM_TASKS_PER_NODE", entry.substr(paren + 2, close - paren - 2).c_str(), 1);
    }
    counts.insert(counts.end(), size_t(repeat), count);
  }
  return counts;
}

}  // namespace tw::dist
