#include "core/search/nsga2_sampler.h"

#include "core/search/catalog.h"
#include "core/search/fill_random.h"
#include "core/search/pareto.h"
#include "core/search/random_sampler.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace tw::search {

namespace {

struct Member {
  const Trial *trial;
  int rank = 0;
  double crowding = 0.0;
};

// Each member's crowding distance within its front (pareto.h's rule).
void assignCrowding(std::vector<Member *> &front) {
  std::vector<std::vector<double>> values;
  for (const Member *m : front) values.push_back(m->trial->values);
  const std::vector<double> distance = crowdingDistances(values);
  for (size_t i = 0; i < front.size(); ++i) front[i]->crowding = distance[i];
}

// Ranks and crowding distances of `pool`, then the best `size` of it (whole fronts first, the last
// front cut by crowding distance), each keeping the rank and crowding it had in the pool.
std::vector<Member> selectElite(const std::vector<const Trial *> &pool, const std::vector<Direction> &directions,
                                size_t size) {
  std::vector<std::vector<double>> values;
  for (const Trial *t : pool) values.push_back(t->values);
  const std::vector<int> rank = nonDominatedRanks(values, directions);
  std::vector<Member> members;
  for (size_t i = 0; i < pool.size(); ++i) members.push_back({pool[i], rank[i], 0.0});
  const int maxRank = members.empty() ? -1 : *std::max_element(rank.begin(), rank.end());
  for (int r = 0; r <= maxRank; ++r) {
    std::vector<Member *> front;
    for (Member &m : members)
      if (m.rank == r) front.push_back(&m);
    assignCrowding(front);
  }
  std::stable_sort(members.begin(), members.end(), [](const Member &a, const Member &b) {
    return a.rank != b.rank ? a.rank < b.rank : a.crowding > b.crowding;
  });
  if (members.size() > size) members.resize(size);
  return members;
}

const Member &tournament(const std::vector<Member> &population, Rng &rng) {
  const Member &a = population[size_t(rng.below(int64_t(population.size())))];
  const Member &b = population[size_t(rng.below(int64_t(population.size())))];
  if (a.rank != b.rank) return a.rank < b.rank ? a : b;
  return b.crowding > a.crowding ? b : a;
}

// Bounded simulated binary crossover of two values in [0, 1] (Deb and Agrawal 1995), one child.
double sbx(double a, double b, double eta, Rng &rng) {
  const double x1 = std::min(a, b), x2 = std::max(a, b);
  const double u = rng.uniform(), side = rng.uniform();
  if (x2 - x1 < 1e-14) return a;
  const auto spread = [&](double beta) {
    const double alpha = 2.0 - std::pow(beta, -(eta + 1.0));
    return u <= 1.0 / alpha ? std::pow(u * alpha, 1.0 / (eta + 1.0)) : std::pow(1.0 / (2.0 - u * alpha), 1.0 / (eta + 1.0));
  };
  const double c1 = 0.5 * (x1 + x2 - spread(1.0 + 2.0 * x1 / (x2 - x1)) * (x2 - x1));
  const double c2 = 0.5 * (x1 + x2 + spread(1.0 + 2.0 * (1.0 - x2) / (x2 - x1)) * (x2 - x1));
  return std::clamp(side < 0.5 ? c1 : c2, 0.0, 1.0);
}

}  // namespace

Params Nsga2Sampler::sample(const SampleContext &ctx) const {
  Rng rng(Rng::trialSeed(ctx.seed, ctx.number));
  const int size = std::max(2, m_options.populationSize);
  const int generation = ctx.number / size;
  if (generation == 0) return sampleRandom(ctx.space, rng);

  const std::vector<const Trial *> complete = completeTrials(ctx.trials);
  std::vector<Member> population;
  for (int g = 0; g < generation; ++g) {
    std::vector<const Trial *> pool;
    for (const Member &m : population) pool.push_back(m.trial);
    for (const Trial *t : complete)
      if (t->number / size == g && t->number < ctx.number && t->values.size() == ctx.directions.size())
        pool.push_back(t);
    population = selectElite(pool, ctx.directions, static_cast<size_t>(size));
  }
  if (population.size() < 2) return sampleRandom(ctx.space, rng);

  const Trial &first = *tournament(population, rng).trial;
  const Trial &second = *tournament(population, rng).trial;
  const bool cross = rng.uniform() < m_options.crossoverProb;
  const double mutation =
      m_options.mutationProb > 0 ? m_options.mutationProb : 1.0 / std::max<double>(1.0, double(ctx.space.params.size()));
  Params fixed;
  for (const auto &spec : ctx.space.params) {
    // Draw the same numbers for every parameter, whatever happens to it, so one parameter's
    // choices do not shift the others'.
    const double swap = rng.uniform(), mutate = rng.uniform();
    auto a = first.params.find(spec.key), b = second.params.find(spec.key);
    const bool inA = a != first.params.end(), inB = b != second.params.end();
    double value;
    if (cross && inA && inB && m_options.crossover == Crossover::Sbx && spec.type != ParamType::Categorical)
      value = fromUnit(spec, sbx(toUnit(spec, a->second), toUnit(spec, b->second), m_options.sbxEta, rng));
    else if (cross && inB && (swap < m_options.swappingProb || !inA))
      value = b->second;
    else if (inA)
      value = a->second;
    else
      continue;  // neither parent has it: drawn below
    if (mutate >= mutation) fixed[spec.key] = value;
  }
  return fillRandom(ctx.space, fixed, rng);
}

SamplerEntry nsga2SamplerEntry() {
  SamplerEntry e;
  e.name = "nsga2";
  e.doc = "NSGA-II for one or several objectives (non-dominated sorting, crowding distance), as Optuna's "
          "NSGAIISampler.";
  e.multiObjective = true;
  e.options = {
      {"population_size", OptionKind::Int, "50", 2.0, std::nullopt, {}, "trials per generation"},
      {"crossover", OptionKind::Choice, "uniform", std::nullopt, std::nullopt, {"uniform", "sbx"},
       "uniform: each parameter from either parent; sbx: simulated binary crossover on numeric parameters"},
      {"crossover_prob", OptionKind::Float, "0.9", 0.0, 1.0, {}, "chance that a child is a crossover, not a copy"},
      {"swapping_prob", OptionKind::Float, "0.5", 0.0, 1.0, {}, "uniform crossover: chance of taking the second parent's value"},
      {"mutation_prob", OptionKind::Float, "0", 0.0, 1.0, {}, "chance of redrawing each parameter; 0 takes 1 / (number of parameters)"},
  };
  e.make = [specs = e.options](const OptionValues &values) {
    const OptionReader read(specs, values);
    Nsga2SamplerOptions options;
    options.populationSize = static_cast<int>(read.integer("population_size"));
    options.crossover = read.choice("crossover") == "sbx" ? Crossover::Sbx : Crossover::Uniform;
    options.crossoverProb = read.number("crossover_prob");
    options.swappingProb = read.number("swapping_prob");
    options.mutationProb = read.number("mutation_prob");
    return std::make_unique<Nsga2Sampler>(options);
  };
  return e;
}

}  // namespace tw::search
