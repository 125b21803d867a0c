#pragma once
// The training order of one epoch when a packed shard set is read shard by shard
// (data.shuffle_mode: shards): the shards in an order drawn per epoch, each read front to back,
// through a shuffle buffer of data.shuffle_buffer examples, as WebDataset readers do. Reading is
// then sequential on disk; the price is an order less mixed than a global shuffle, which
// orderLabelAutocorrelation measures so that a buffer too small for the shard layout shows.
// The order is a function of the groups, the buffer size and the seed alone: never of the
// decode threads or ranks, so a run resumed with other data.workers reads the same batches.
//
//   std::vector<int64_t> order = bufferedShardOrder(groupStarts, n, 10000, seed);
//   double mixed = orderLabelAutocorrelation(order, labels);   // about 0 shuffled, 1 sorted

#include <cstdint>
#include <vector>

namespace tw::data {

// Positions 0..n-1 grouped into consecutive ranges starting at `groupStarts` (ascending, the
// first 0; empty = one group): the groups in a seeded order, concatenated, then passed through a
// buffer of `buffer` positions from which each next one is drawn at random. buffer <= 1 keeps the
// concatenated order.
std::vector<int64_t> bufferedShardOrder(const std::vector<int64_t> &groupStarts, int64_t n, int64_t buffer,
                                        uint64_t seed);

// How much neighbours in `order` share their class beyond chance: (observed share of consecutive
// pairs with the same label - the share a random order would have) / (1 - that share). About 0
// for a well-mixed order, 1 when every class comes in one run; 0 with fewer than two positions or
// a single class.
double orderLabelAutocorrelation(const std::vector<int64_t> &order, const std::vector<int64_t> &labels);

}  // namespace tw::data
