#pragma once
// Sharded data parallel (distributed.shard, ZeRO stages 1 and 2): each rank keeps the optimiser
// state of its share of the parameters only (shard_layout.h: its chunk of every gradient bucket),
// steps that share as one flat tensor per optimiser group, and the updated values are gathered
// into every rank's parameters bucket by bucket. The optimisers update element by element, so a
// shard steps exactly what plain data parallel steps for those elements.
//
// Checkpoints keep the format of an unsharded run: before one is written, the run's own optimiser
// (over the model's parameters) is given every rank's state on rank 0 and emptied again after,
// so a checkpoint resumes with any number of ranks and any sharding. Engine-internal.
//
//   ShardedOptimizer sharded(comm, sync, *optimizer, trainOptions);  // takes its share of the state
//   sync.finish();
//   sharded.takeGradients();
//   sharded.step();
//   sharded.gatherState(0);  saveCheckpoint(path, model, *optimizer, progress);  sharded.releaseFullState();

#include "core/config/run_config.h"
#include "core/engine/communicator.h"
#include "core/engine/gradient_sync.h"
#include "core/engine/shard_layout.h"

#include <torch/torch.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace tw::engine {

class ShardedOptimizer {
 public:
  // `full`: the run's optimiser over the model's parameters, in its groups. This rank takes its
  // share of `full`'s state (a resumed checkpoint's) and empties it. `sync`'s buckets give the
  // layout; when it shards gradients, this rank's summed gradients come from its chunks.
  ShardedOptimizer(Communicator &comm, GradientSync &sync, torch::optim::Optimizer &full,
                   const config::TrainOptions &options);
  ~ShardedOptimizer();
  ShardedOptimizer(const ShardedOptimizer &) = delete;
  ShardedOptimizer &operator=(const ShardedOptimizer &) = delete;

  // The shards' optimiser, in the same groups as the full one: its rates are set as the full one's.
  torch::optim::Optimizer &optimizer() { return *m_optimizer; }
  // One flat tensor per optimiser group: this rank's elements of it and, after takeGradients(),
  // their summed gradients as its .grad.
  const std::vector<torch::Tensor> &shards() const { return m_shards; }
  bool shardsGradients() const { return m_sync.shardsGradients(); }

  // This rank's elements of the summed gradients: from the parameters' gradients, or from the
  // sync's chunks (which are then released).
  void takeGradients();
  // Steps the shards, then every rank's updated elements go into every rank's parameters.
  void step();

  // Collective, over the shards' gradients: their global 2-norm; and clipped to `maxNorm` as
  // clip_grad_norm_ does (returns the norm before clipping).
  double gradientNorm();
  double clipGradientNorm(double maxNorm);
  // Collective: per parameter of the sync, the 2-norm of its summed gradient.
  std::vector<double> parameterGradientNorms();
  // Collective: true when `yes` on every rank.
  bool everyRank(bool yes);
  // The first parameter (index into the sync's) whose gradient elements here are not finite; -1: none.
  int64_t firstNonFiniteParameter() const;

  // Collective: the full optimiser gets every rank's state on rank `root` (-1: on every rank),
  // for a checkpoint, or for new shards after the parameters changed (unfreezing).
  void gatherState(int root);
  // Empties the full optimiser again.
  void releaseFullState();

  int64_t stateBytes() const;     // this rank's optimiser state
  int64_t gradientBytes() const;  // the shards' gradients this rank keeps between steps

 private:
  void takeState();
  torch::Tensor chunkOf(size_t bucket, const std::vector<torch::Tensor> &fromShards) const;

  Communicator &m_comm;
  GradientSync &m_sync;
  torch::optim::Optimizer &m_full;
  std::vector<torch::Tensor> m_params;   // the sync's
  std::vector<size_t> m_groupOf;         // per parameter: its optimiser group
  ShardLayout m_layout;
  std::vector<std::vector<size_t>> m_buckets;
  std::vector<torch::Tensor> m_shards;   // per optimiser group
  std::unique_ptr<torch::optim::Optimizer> m_optimizer;
};

}  // namespace tw::engine
