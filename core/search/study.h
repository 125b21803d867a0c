#pragma once
// A study in memory: ask for a trial, report its progress, tell its result. The benchmarks and
// tests drive samplers through this, and the sweep driver and `study ask|tell` do the same
// steps on trials loaded from the tracking database (nextTrialParams, pruneNow), so every
// path asks the sampler the same question.
//
//   Study study(space, {Direction::Minimize}, findSampler("tpe")->make({}), nullptr, /*seed=*/1);
//   for (int i = 0; i < 50; ++i) {
//     const Trial &trial = study.ask();
//     study.tell(trial.number, {objective(trial.params)});
//   }
//   study.best()->values[0];

#include "core/search/pruner.h"
#include "core/search/sampler.h"

#include <memory>
#include <optional>
#include <vector>

namespace tw::search {

// The parameters of trial `number` given the history (SampleContext's contract).
Params nextTrialParams(const Sampler &sampler, const SearchSpace &space, const std::vector<Direction> &directions,
                       const std::vector<Trial> &trials, int number, uint64_t seed);

// Whether `trial` (one of `trials`, its report at `step` recorded) should stop now.
bool pruneNow(const Pruner &pruner, const std::vector<Trial> &trials, const Trial &trial, int64_t step,
              Direction direction);

class Study {
 public:
  Study(SearchSpace space, std::vector<Direction> directions, std::unique_ptr<Sampler> sampler,
        std::unique_ptr<Pruner> pruner, uint64_t seed);

  const Trial &ask();  // a RUNNING trial with the next number
  void tell(int number, std::vector<double> values);  // COMPLETE (non-finite values: FAILED)
  void tellPruned(int number);
  void tellFailed(int number, std::string message);
  // Records the objective at `step`; true when the pruner says stop (the caller then tells
  // PRUNED). Always false without a pruner.
  bool report(int number, int64_t step, double value);

  const std::vector<Trial> &trials() const { return m_trials; }
  const SearchSpace &space() const { return m_space; }
  const std::vector<Direction> &directions() const { return m_directions; }
  // The best COMPLETE trial of a single-objective study; nullopt before any.
  std::optional<Trial> best() const;

 private:
  Trial &at(int number);
  SearchSpace m_space;
  std::vector<Direction> m_directions;
  std::unique_ptr<Sampler> m_sampler;
  std::unique_ptr<Pruner> m_pruner;
  uint64_t m_seed;
  std::vector<Trial> m_trials;
};

}  // namespace tw::search
