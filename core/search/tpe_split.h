#pragma once
// How TPE reads the history (Optuna 3.1's _get_observation_pairs and _split_observation_pairs):
// which trials count, how they rank, and which fall in the "good" (below) and "bad" (above) sets.

#include "core/search/sampler.h"

#include <vector>

namespace tw::search {

struct TpeObservation {
  const Trial *trial = nullptr;
  // Ranking key, compared as (stage, loss...) with losses minimised (maximised objectives are
  // negated): a COMPLETE trial has stage -inf; a PRUNED one -(its last step), so a trial pruned
  // later ranks ahead of one pruned earlier, and among equals its last intermediate value decides
  // (a NaN value ranks last); a PRUNED one that never reported has stage 1 and loss 0; a trial in
  // flight (constant liar) has stage +inf and loss +inf, the worst of all.
  double stage = 0.0;
  std::vector<double> loss;
  bool inFlight = false;
};

// COMPLETE trials, PRUNED ones (single objective only) and, with `constantLiar`, RUNNING and
// WAITING ones (single objective only), in trial order. FAILED trials never count.
std::vector<TpeObservation> tpeObservations(const SampleContext &ctx, bool constantLiar);

// Optuna's default gamma: how many observations form the good set, min(ceil(0.1 n), 25).
size_t tpeGamma(size_t n);

// Splits observations into `nBelow` good ones and the rest, each list in trial order. One
// objective: by the ranking key. Several: by non-domination rank (fronts fill the good set
// whole); the front that does not fit whole contributes its members of largest crowding distance.
void splitObservations(const std::vector<TpeObservation> &observations, size_t nBelow, std::vector<size_t> *below,
                       std::vector<size_t> *above);

}  // namespace tw::search
