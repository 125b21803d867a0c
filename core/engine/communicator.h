#pragma once
// The ranks of a distributed run talking through LibTorch's own c10d: a store for the rendezvous
// (a FileStore when the ranks share a machine and `torchwright launch` names the file, else a
// TCPStore served by rank 0) and a Gloo (CPU) or NCCL (CUDA) process group for the collectives;
// Gloo listens on 127.0.0.1 unless several machines are asked for or GLOO_SOCKET_IFNAME says. Engine-internal. The differences between LibTorch 1.13 and 2.x stay in the .cpp.
//
//   Communicator comm(env, "auto", torch::kCPU, std::chrono::seconds(300));
//   comm.allreduce(t);                 // sum over the ranks, in place
//   comm.broadcast(model.parameters());  // rank 0's values everywhere

#include "core/dist/dist_env.h"

#include <torch/csrc/distributed/c10d/Work.hpp>
#include <torch/torch.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>


namespace tw::engine {

// A collective in flight.
class PendingWork {
 public:
  PendingWork() = default;
  explicit PendingWork(c10::intrusive_ptr<c10d::Work> work);
  ~PendingWork();
  PendingWork(PendingWork &&) noexcept;
  PendingWork &operator=(PendingWork &&) noexcept;
  void wait();  // throws when the collective failed (a peer died, the timeout passed)

 private:
  c10::intrusive_ptr<c10d::Work> m_work;
};

class Communicator {
 public:
  // Joins the run's process group: through env.rendezvousFile when set, else rank 0 serves the
  // store at env.masterAddr:env.masterPort and
  // waits for the others; every rank waits at most `timeout`. Throws std::runtime_error saying
  // what failed (the port is taken, the master cannot be reached, the backend is unavailable).
  Communicator(const dist::DistEnv &env, const std::string &backend, torch::Device device,
               std::chrono::seconds timeout);
  ~Communicator();
  Communicator(const Communicator &) = delete;
  Communicator &operator=(const Communicator &) = delete;

  int rank() const { return m_rank; }
  int size() const { return m_size; }
  const std::string &backendName() const { return m_backendName; }

  PendingWork allreduceAsync(torch::Tensor &tensor);  // sum, in place
  void allreduce(torch::Tensor &tensor);
  std::vector<double> allreduce(const std::vector<double> &values);  // sums, in double precision
  // Rank `root`'s values in every tensor on every rank, as one collective per dtype.
  void broadcast(const std::vector<torch::Tensor> &tensors, int root = 0);
  // Every rank's `mine` (the same size on all) in rank order, on every rank; `all` is filled
  // (size() tensors) once the work is done.
  PendingWork allgatherAsync(const torch::Tensor &mine, std::vector<torch::Tensor> &all);
  // Rank `root` gets every rank's `mine` (the same size on all) in rank order; the others none.
  std::vector<torch::Tensor> gather(const torch::Tensor &mine, int root = 0);
  // `input` in size() equal pieces, piece r to rank r; `output` (as large) receives rank r's
  // piece for this rank as its piece r. A reduce-scatter is this and a sum: Gloo in LibTorch
  // 1.13 has no reduce_scatter.
  PendingWork alltoallAsync(torch::Tensor &input, torch::Tensor &output);

  // Small texts through the rendezvous store (run folder, system metrics of other ranks).
  void setText(const std::string &key, const std::string &value);
  std::string getText(const std::string &key);     // waits for the key (up to the timeout)
  bool tryGetText(const std::string &key, std::string *value);  // false at once when the key is absent

 private:
  struct Impl;  // the store and the group, whose types differ between LibTorch versions
  std::unique_ptr<Impl> m_impl;
  int m_rank = 0, m_size = 1;
  torch::Device m_device;  // where collectives' tensors live (NCCL: the rank's GPU)
  std::string m_backendName;
  std::chrono::seconds m_timeout;
};

}  // namespace tw::engine
