#pragma once
// Data-parallel gradient averaging with DDP's semantics: gradients are summed across the ranks in
// buckets, and a bucket's all-reduce starts from a hook the moment backward has finished its
// last gradient, so communication overlaps the rest of the backward pass. Buckets start strictly
// in order, so every rank issues the same collectives in the same order even when a rank skips
// backward (its share of a batch is empty). Sharding gradients (distributed.shard: gradients,
// ZeRO-2), a bucket is reduce-scattered instead: each rank receives only the sum of its chunk
// (shard_layout.h), and the parameters' own gradients are released as their bucket leaves.
// Engine-internal.
//
//   GradientSync sync(comm, model.parameters(), /*bucketMb=*/25.0);
//   sync.arm({lossShare});          // before the backward whose gradients are final
//   loss.backward();
//   auto sums = sync.finish();       // gradients now summed over the ranks; sums[0] = global loss

#include "core/engine/communicator.h"

#include <torch/torch.h>

#include <memory>
#include <vector>

namespace tw::engine {

class GradientSync {
 public:
  // `params` in registration order; the first bucket (the last parameters, which backward
  // finishes first) holds about 1 MB so that communication starts early.
  GradientSync(Communicator &comm, std::vector<torch::Tensor> params, double bucketMb, bool shardGradients = false);
  ~GradientSync();
  GradientSync(const GradientSync &) = delete;
  GradientSync &operator=(const GradientSync &) = delete;

  // Arms the hooks for the next backward (micro-steps before it accumulate locally, with no
  // communication). `extras` are numbers to sum across the ranks along with the gradients.
  void arm(std::vector<double> extras);
  // Starts what backward did not (every bucket when this rank ran no backward), waits for all,
  // and writes the summed gradients back (sharding gradients: keeps this rank's chunk of each
  // bucket, chunk()). Returns the summed extras.
  std::vector<double> finish();
  // The parameters (those that require gradients) and, per bucket, their indices in the order
  // the bucket lays them out.
  const std::vector<torch::Tensor> &params() const { return m_params; }
  std::vector<std::vector<size_t>> bucketParams() const;
  bool shardsGradients() const { return m_shardGradients; }
  // Sharding gradients, after finish(): the sum over the ranks of this rank's chunk of the bucket
  // (chunkElements(numel, ranks) long, the tail past the bucket's end zero).
  const torch::Tensor &chunk(size_t bucket) const { return m_buckets[bucket].chunk; }
  void releaseChunks();
  // Seconds spent waiting in finish() so far: the communication backward did not hide.
  double waitSeconds() const { return m_waitSeconds; }
  int buckets() const { return static_cast<int>(m_buckets.size()); }

 private:
  struct Bucket {
    std::vector<size_t> params;  // indices into m_params
    int64_t numel = 0;
    size_t ready = 0;
    bool launched = false;
    torch::Tensor flat;
    torch::Tensor received;  // sharding gradients: every rank's piece of this rank's chunk
    torch::Tensor chunk;     // sharding gradients: their sum
    PendingWork work;
  };
  bool carriesExtras() const;  // the extras can ride in the last bucket
  torch::Tensor packExtras(const Bucket &bucket) const;
  std::vector<double> unpackExtras(const Bucket &bucket) const;
  void onGradReady(size_t param);
  void launchReadyBuckets();
  void launch(Bucket &bucket);

  Communicator &m_comm;
  std::vector<torch::Tensor> m_params;
  std::vector<size_t> m_bucketOf;                       // param index -> bucket
  std::vector<std::shared_ptr<torch::autograd::Node>> m_accumulators;  // hooks live on these
  // False once this sync is gone: its hooks outlive it (unfreezing replaces the sync mid-run).
  std::shared_ptr<bool> m_alive = std::make_shared<bool>(true);
  std::vector<Bucket> m_buckets;
  size_t m_nextLaunch = 0;
  bool m_armed = false;
  std::vector<double> m_extras;
  double m_waitSeconds = 0.0;
  bool m_shardGradients = false;
};

}  // namespace tw::engine
