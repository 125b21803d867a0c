#pragma once
// Who this process is in a distributed run, read from the environment contract that launchers
// already speak: torchrun's (and a Kubernetes PyTorchJob's) MASTER_ADDR, MASTER_PORT, WORLD_SIZE,
// RANK, LOCAL_RANK, or SLURM's SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID and node list. So the
// worker runs unchanged under `torchwright launch`, `torchrun`, `srun` or a PyTorchJob.
//
//   DistEnv env = distEnvFromProcess();
//   if (env.distributed()) ... join the process group at env.masterAddr:env.masterPort

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace tw::dist {

struct DistEnv {
  int rank = 0;            // global rank
  int worldSize = 1;
  int localRank = 0;       // rank on this machine: selects cuda:<localRank>
  int localWorldSize = 1;  // ranks on this machine: they share its cores
  int nodeRank = 0;
  std::string masterAddr = "127.0.0.1";  // where rank 0 serves the rendezvous store
  int masterPort = 29500;
  std::string source = "single";  // "torchrun" (also torchwright launch, PyTorchJob) | "slurm" | "single"
  int coresPerRank = 0;           // cores this rank may use (TORCHWRIGHT_CORES, SLURM_CPUS_PER_TASK); 0 = not said
  // TORCHWRIGHT_RENDEZVOUS_FILE: the ranks of one machine meet through this file (`torchwright
  // launch` makes a fresh one, user-only, per attempt) instead of a TCP store, which in LibTorch
  // 1.13 listens on every interface; empty: rank 0 serves the store at masterAddr:masterPort.
  std::string rendezvousFile;
  bool distributed() const { return worldSize > 1; }
  std::string describe() const;  // "rank 1 of 4 (local 1 of 2, node 0), master 10.0.0.1:29500, from slurm"
};

using GetEnv = std::function<const char *(const char *)>;

// torchrun's variables when WORLD_SIZE or RANK is set, else SLURM's when SLURM_PROCID is set
// (and SLURM_NTASKS > 1), else a single process. Throws std::runtime_error naming the variable
// when one is malformed or they contradict each other (RANK >= WORLD_SIZE ...).
DistEnv distEnvFrom(const GetEnv &getenv);
DistEnv distEnvFromProcess();

// "node[01-03,07],gpu-a" -> node01 node02 node03 node07 gpu-a (SLURM's compact host lists).
std::vector<std::string> expandSlurmNodelist(const std::string &list);
// "2(x3),1" -> 2 2 2 1 (SLURM_TASKS_PER_NODE).
std::vector<int> expandSlurmTaskCounts(const std::string &list);

// Rank's contiguous share [begin, end) of n items split across world ranks; shares differ by at
// most one, in rank order, so concatenating them gives back the whole range.
inline std::pair<int64_t, int64_t> shardBounds(int64_t n, int rank, int world) {
  return {n * rank / world, n * (rank + 1) / world};
}

}  // namespace tw::dist
