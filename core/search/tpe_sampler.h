#pragma once
// Tree-structured Parzen Estimator, with Optuna 3.1's semantics and defaults.
//
//   sampler: {type: tpe, n_startup_trials: 10, n_ei_candidates: 24, multivariate: false}   # independent
//
// Until n_startup_trials trials have finished (COMPLETE or PRUNED), parameters are drawn at
// random. After that the finished trials are split into the best gamma(n) = min(ceil(0.1 n), 25)
// (l) and the rest (g); a Parzen estimator is fitted to each, n_ei_candidates are drawn from l,
// and the candidate with the largest l(x) / g(x) wins. PRUNED trials join the ranking by their
// last intermediate value (later-pruned before earlier-pruned); RUNNING and WAITING trials are
// ignored unless constant_liar, which counts them as the worst, steering parallel trials apart.
// The default is multivariate with group (unlike Optuna, whose default is independent; the catalog
// says why): group splits the space into groups of parameters that were always active together
// (one group when nothing is conditional) and models each group jointly. multivariate without group
// models jointly the parameters active in every finished trial (Optuna's intersection space) and
// each of the others alone. multivariate: false is the independent TPE, each parameter alone from
// the trials where it was active; group has no effect then.
// Several objectives: the good set is filled by non-domination rank (MOTPE's split), the last front
// that does not fit whole by crowding distance; the good set's weights are flat (Optuna weights it
// by hypervolume contribution), and PRUNED and in-flight trials do not count, as in Optuna.

#include "core/search/parzen_estimator.h"
#include "core/search/sampler.h"

namespace tw::search {

struct TpeOptions {
  int nStartupTrials = 10;
  int nEiCandidates = 24;
  bool multivariate = true;
  bool group = true;  // only with multivariate
  bool constantLiar = false;
  ParzenOptions parzen;  // consider_prior, prior_weight, consider_magic_clip, consider_endpoints
};

class TpeSampler : public Sampler {
 public:
  explicit TpeSampler(TpeOptions options = {});
  Params sample(const SampleContext &ctx) const override;
  const TpeOptions &options() const { return m_options; }

 private:
  TpeOptions m_options;
};

}  // namespace tw::search
