#pragma once
// Which elements of a distributed run's trainable parameters each rank looks after when the
// optimiser is sharded (distributed.shard): every gradient bucket (gradient_sync.h) is cut into
// world-size chunks of equal length (the last one padded), and rank r owns chunk r of each. A
// rank keeps the optimiser state of its elements, steps them, and (sharding gradients) receives
// only their summed gradients. Engine-internal, no LibTorch.
//
//   ShardLayout layout = planShards(buckets, numel, group, groups, rank, world);
//   for (const ShardSegment &s : layout.segments) ...   // a run of consecutive elements

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tw::engine {

// Consecutive elements of one parameter inside this rank's chunk of one bucket.
struct ShardSegment {
  size_t bucket = 0;
  int64_t chunkOffset = 0;  // where it starts in this rank's chunk of the bucket
  size_t param = 0;         // index into the parameters the buckets were made of
  int64_t paramOffset = 0;  // where it starts in the parameter, flattened (logical order)
  int64_t length = 0;
  size_t group = 0;         // the parameter's optimiser group
  int64_t shardOffset = 0;  // where it starts in this rank's shard of that group
};

struct ShardLayout {
  std::vector<int64_t> chunk;           // per bucket: the elements of each rank's chunk
  std::vector<ShardSegment> segments;   // this rank's, bucket by bucket, in bucket order
  std::vector<int64_t> groupElements;   // per optimiser group: this rank's elements of it
};

// A bucket of `numel` elements cut for `world` ranks: each rank's chunk, rounded up.
int64_t chunkElements(int64_t numel, int world);

// `buckets`: parameter indices per bucket, in the order the bucket lays them out; `numel` and
// `group` per parameter; `groups` optimiser groups.
ShardLayout planShards(const std::vector<std::vector<size_t>> &buckets, const std::vector<int64_t> &numel,
                       const std::vector<size_t> &group, size_t groups, int rank, int world);

}  // namespace tw::engine
