#include "core/search/tpe_split.h"

#include "core/search/pareto.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace tw::search {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

std::vector<TpeObservation> tpeObservations(const SampleContext &ctx, bool constantLiar) {
  const bool multi = ctx.directions.size() > 1;
  std::vector<double> signs;
  for (Direction d : ctx.directions) signs.push_back(d == Direction::Minimize ? 1.0 : -1.0);
  std::vector<TpeObservation> out;
  for (const Trial &trial : ctx.trials) {
    TpeObservation o;
    o.trial = &trial;
    switch (trial.state) {
      case TrialState::Complete: {
        if (trial.values.size() != signs.size()) continue;
        bool finite = true;
        for (size_t i = 0; i < signs.size(); ++i) {
          o.loss.push_back(signs[i] * trial.values[i]);
          finite = finite && std::isfinite(trial.values[i]);
        }
        if (!finite) continue;
        o.stage = -kInf;
        break;
      }
      case TrialState::Pruned: {
        if (multi) continue;
        if (trial.intermediate.empty()) {
          o.stage = 1.0;
          o.loss = {0.0};
        } else {
          const auto &[step, value] = *trial.intermediate.rbegin();
          o.stage = -static_cast<double>(step);
          o.loss = {std::isnan(value) ? kInf : signs[0] * value};
        }
        break;
      }
      case TrialState::Running:
      case TrialState::Waiting:
        if (multi || !constantLiar || trial.number >= ctx.number) continue;
        o.stage = kInf;
        o.loss = {kInf};
        o.inFlight = true;
        break;
      case TrialState::Failed: continue;
    }
    out.push_back(std::move(o));
  }
  return out;
}

size_t tpeGamma(size_t n) { return std::min<size_t>(static_cast<size_t>(std::ceil(0.1 * static_cast<double>(n))), 25); }

void splitObservations(const std::vector<TpeObservation> &obs, size_t nBelow, std::vector<size_t> *below,
                       std::vector<size_t> *above) {
  below->clear();
  above->clear();
  const size_t n = obs.size();
  nBelow = std::min(nBelow, n);
  std::vector<char> isBelow(n, 0);
  if (n > 0 && obs[0].loss.size() > 1) {
    std::vector<std::vector<double>> losses;
    for (const auto &o : obs) losses.push_back(o.loss);
    const std::vector<int> rank = nonDominatedRanks(losses, std::vector<Direction>(losses[0].size(), Direction::Minimize));
    size_t taken = 0;
    for (int r = 0; taken < nBelow; ++r) {
      std::vector<size_t> front;
      for (size_t i = 0; i < n; ++i)
        if (rank[i] == r) front.push_back(i);
      if (taken + front.size() <= nBelow) {
        for (size_t i : front) isBelow[i] = 1;
        taken += front.size();
        continue;
      }
      std::vector<std::vector<double>> frontLosses;
      for (size_t i : front) frontLosses.push_back(losses[i]);
      const std::vector<double> crowd = crowdingDistances(frontLosses);
      std::vector<size_t> order(front.size());
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return crowd[a] > crowd[b]; });
      for (size_t i = 0; taken < nBelow; ++i, ++taken) isBelow[front[order[i]]] = 1;
    }
  } else {
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      if (obs[a].stage != obs[b].stage) return obs[a].stage < obs[b].stage;
      return obs[a].loss[0] < obs[b].loss[0];
    });
    for (size_t i = 0; i < nBelow; ++i) isBelow[order[i]] = 1;
  }
  for (size_t i = 0; i < n; ++i) (isBelow[i] ? below : above)->push_back(i);
}

}  // namespace tw::search
