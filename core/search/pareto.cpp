#include "core/search/pareto.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace tw::search {

bool dominates(const std::vector<double> &a, const std::vector<double> &b, const std::vector<Direction> &directions) {
  bool strictly = false;
  for (size_t k = 0; k < directions.size(); ++k) {
    if (better(directions[k], b[k], a[k])) return false;
    if (better(directions[k], a[k], b[k])) strictly = true;
  }
  return strictly;
}

std::vector<int> nonDominatedRanks(const std::vector<std::vector<double>> &values,
                                   const std::vector<Direction> &directions) {
  const size_t n = values.size();
  std::vector<std::vector<size_t>> dominated(n);  // the points each point dominates
  std::vector<int> dominatedBy(n, 0);             // how many points dominate each point
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j) {
      if (dominates(values[i], values[j], directions)) {
        dominated[i].push_back(j);
        ++dominatedBy[j];
      } else if (dominates(values[j], values[i], directions)) {
        dominated[j].push_back(i);
        ++dominatedBy[i];
      }
    }
  std::vector<int> rank(n, 0);
  std::vector<size_t> front;
  for (size_t i = 0; i < n; ++i)
    if (dominatedBy[i] == 0) front.push_back(i);
  for (int r = 0; !front.empty(); ++r) {
    std::vector<size_t> next;
    for (size_t i : front) {
      rank[i] = r;
      for (size_t j : dominated[i])
        if (--dominatedBy[j] == 0) next.push_back(j);
    }
    front = std::move(next);
  }
  return rank;
}

std::vector<const Trial *> paretoFront(const std::vector<Trial> &trials, const std::vector<Direction> &directions) {
  std::vector<const Trial *> complete;
  for (const Trial *t : completeTrials(trials))
    if (t->values.size() == directions.size()) complete.push_back(t);
  std::vector<std::vector<double>> values;
  values.reserve(complete.size());
  for (const Trial *t : complete) values.push_back(t->values);
  const std::vector<int> rank = nonDominatedRanks(values, directions);
  std::vector<const Trial *> front;
  for (size_t i = 0; i < complete.size(); ++i)
    if (rank[i] == 0) front.push_back(complete[i]);
  return front;
}

std::vector<double> crowdingDistances(const std::vector<std::vector<double>> &front) {
  const size_t n = front.size();
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> distance(n, n <= 2 ? inf : 0.0);
  if (n <= 2) return distance;
  for (size_t m = 0; m < front[0].size(); ++m) {
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return front[a][m] < front[b][m]; });
    const double span = front[order.back()][m] - front[order.front()][m];
    distance[order.front()] = distance[order.back()] = inf;
    if (span <= 0) continue;
    for (size_t i = 1; i + 1 < n; ++i) distance[order[i]] += (front[order[i + 1]][m] - front[order[i - 1]][m]) / span;
  }
  return distance;
}

}  // namespace tw::search
