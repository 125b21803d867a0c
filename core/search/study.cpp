#include "core/search/study.h"

#include <cmath>
#include <stdexcept>

namespace tw::search {

Params nextTrialParams(const Sampler &sampler, const SearchSpace &space, const std::vector<Direction> &directions,
                       const std::vector<Trial> &trials, int number, uint64_t seed) {
  const SampleContext ctx{space, directions, trials, number, seed};
  Params params = sampler.sample(ctx);
  // A sampler's proposal is snapped into the domain and cut to the active parameters, so a
  // sampler's rounding can never start a trial with a value the space does not allow.
  Params clean;
  for (const auto &spec : space.params) {
    if (!isActive(spec, space, clean)) continue;
    auto found = params.find(spec.key);
    if (found == params.end()) throw std::logic_error("sampler left out active parameter '" + spec.key + "'");
    clean[spec.key] = snap(spec, found->second);
  }
  return clean;
}

bool pruneNow(const Pruner &pruner, const std::vector<Trial> &trials, const Trial &trial, int64_t step,
              Direction direction) {
  return pruner.shouldPrune(PruneContext{trials, trial, step, direction});
}

Study::Study(SearchSpace space, std::vector<Direction> directions, std::unique_ptr<Sampler> sampler,
             std::unique_ptr<Pruner> pruner, uint64_t seed)
    : m_space(std::move(space)), m_directions(std::move(directions)), m_sampler(std::move(sampler)),
      m_pruner(std::move(pruner)), m_seed(seed) {
  if (!m_sampler) throw std::invalid_argument("a study needs a sampler");
  if (m_directions.empty()) throw std::invalid_argument("a study needs at least one objective");
}

const Trial &Study::ask() {
  const int number = static_cast<int>(m_trials.size());
  Trial trial;
  trial.number = number;
  trial.state = TrialState::Running;
  trial.params = nextTrialParams(*m_sampler, m_space, m_directions, m_trials, number, m_seed);
  m_trials.push_back(std::move(trial));
  return m_trials.back();
}

Trial &Study::at(int number) {
  if (number < 0 || number >= static_cast<int>(m_trials.size()))
    throw std::out_of_range("no trial " + std::to_string(number));
  return m_trials[static_cast<size_t>(number)];
}

void Study::tell(int number, std::vector<double> values) {
  Trial &trial = at(number);
  if (values.size() != m_directions.size())
    throw std::invalid_argument("trial " + std::to_string(number) + ": " + std::to_string(values.size()) +
                                " values for " + std::to_string(m_directions.size()) + " objectives");
  bool finite = true;
  for (double v : values) finite = finite && std::isfinite(v);
  trial.state = finite ? TrialState::Complete : TrialState::Failed;
  if (!finite) trial.message = "the objective is not a finite number";
  trial.values = std::move(values);
}

void Study::tellPruned(int number) { at(number).state = TrialState::Pruned; }

void Study::tellFailed(int number, std::string message) {
  Trial &trial = at(number);
  trial.state = TrialState::Failed;
  trial.message = std::move(message);
}

bool Study::report(int number, int64_t step, double value) {
  Trial &trial = at(number);
  trial.intermediate[step] = value;
  return m_pruner && pruneNow(*m_pruner, m_trials, trial, step, m_directions.front());
}

std::optional<Trial> Study::best() const {
  const Trial *best = nullptr;
  for (const Trial *t : completeTrials(m_trials))
    if (!best || better(m_directions.front(), t->values.front(), best->values.front())) best = t;
  if (!best) return std::nullopt;
  return *best;
}

}  // namespace tw::search
