#pragma once
// How much memory a run needs on the device it trains on, from the model's analysis and the run's
// options alone (nothing is allocated): parameters, their gradients, the optimiser's state and
// the activations of one batch. An estimate, not a measurement: LibTorch's workspace, the
// autograd graph's saved tensors beyond each node's output, and the allocator's caching come on
// top, so a model near the limit can still run out; one far beyond it never fits.
//
//   MemoryEstimate e = estimateMemory(config, analysis);
//   std::puts(formatMemoryEstimate(e).c_str());

#include "core/config/run_config.h"
#include "core/spec/analysis.h"

#include <cstdint>
#include <string>

namespace tw::validate {

struct MemoryEstimate {
  // Bytes, as doubles: a model too large for int64 still gets an estimate to refuse.
  double parameters = 0.0;      // float32 master weights (bf16/fp16 autocast keeps them)
  double gradients = 0.0;       // one float32 gradient per parameter
  double optimizerState = 0.0;  // adam/adamw 2 per parameter; sgd 1 with momentum; rmsprop 1, 2 with momentum
  // Every node's output for one rank's batch, at the precision's width; of a checkpointed segment
  // only the outputs read outside it, plus the largest segment's while it is recomputed.
  double activations = 0.0;
  int64_t batch = 0;            // examples per rank (data.batch_size split across the ranks)
  int optimizerStates = 0;      // float32 values the optimiser keeps per parameter
  int checkpointedSegments = 0;  // segments recomputed in the backward pass
  // distributed.shard: the ranks (of this machine) the optimiser state is split over, 1 unsharded;
  // each also steps its share of the parameters as a flat copy.
  int shardRanks = 1;
  double parameterShard = 0.0;
  // Sharding gradients: a rank keeps its share of the summed gradients, plus the buckets in
  // flight during backward (not with train.accumulate > 1: micro-steps keep whole gradients).
  bool gradientsSharded = false;

  double total() const { return parameters + gradients + optimizerState + parameterShard + activations; }
};

MemoryEstimate estimateMemory(const config::RunConfig &config, const spec::Analysis &analysis);


// The block `torchwright check` prints:
//   Memory estimate (per rank; batch 128, fp32, adam):
//     parameters        919.2 KiB
//     ...
std::string formatMemoryEstimate(const MemoryEstimate &estimate, const config::RunConfig &config);

}  // namespace tw::validate
