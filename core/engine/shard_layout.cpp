#include "core/engine/shard_layout.h"

#include <algorithm>

namespace tw::engine {

int64_t chunkElements(int64_t numel, int world) { return (numel + world - 1) / world; }

ShardLayout planShards(const std::vector<std::vector<size_t>> &buckets, const std::vector<int64_t> &numel,
                       const std::vector<size_t> &group, size_t groups, int rank, int world) {
  ShardLayout layout;
  layout.groupElements.assign(groups, 0);
  for (size_t b = 0; b < buckets.size(); ++b) {
    int64_t bucketNumel = 0;
    for (size_t k : buckets[b]) bucketNumel += numel[k];
    const int64_t chunk = chunkElements(bucketNumel, world);
    layout.chunk.push_back(chunk);
    const int64_t first = chunk * rank, last = std::min(bucketNumel, first + chunk);
    int64_t start = 0;  // of the parameter in the bucket
    for (size_t k : buckets[b]) {
      const int64_t from = std::max(first, start), to = std::min(last, start + numel[k]);
      if (from < to) {
        ShardSegment s;
        s.bucket = b;
        s.chunkOffset = from - first;
        s.param = k;
        s.paramOffset = from - start;
        s.length = to - from;
        s.group = group[k];
        s.shardOffset = layout.groupElements[s.group];
        layout.groupElements[s.group] += s.length;
        layout.segments.push_back(s);
      }
      start += numel[k];
    }
  }
  return layout;
}

}  // namespace tw::engine
