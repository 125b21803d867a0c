#pragma once
// Pareto dominance for several objectives: the non-dominated sorting NSGA-II selects with, and
// the Pareto front `study show` and the Sweeps page display.
//
//   std::vector<int> rank = nonDominatedRanks({{0.1, 5}, {0.2, 3}, {0.3, 6}},
//                                             {Direction::Minimize, Direction::Minimize});
//   // rank == {0, 0, 1}: the third point is dominated by the first
//   std::vector<const Trial *> front = paretoFront(trials, directions);

#include "core/search/trial.h"

#include <vector>

namespace tw::search {

// Whether `a` dominates `b`: no worse in every objective, strictly better in at least one.
bool dominates(const std::vector<double> &a, const std::vector<double> &b, const std::vector<Direction> &directions);

// The non-domination rank of each point (0: on the Pareto front; k: on the front once ranks
// below k are removed), by Deb's fast non-dominated sort. Every point has one value per direction.
std::vector<int> nonDominatedRanks(const std::vector<std::vector<double>> &values,
                                   const std::vector<Direction> &directions);

// NSGA-II's crowding distance of each point of one front: the normalised side lengths of the
// cuboid its neighbours span, summed over objectives; the extremes of every objective (and every
// point of a front of one or two) get infinity, so they are kept first. Direction-free.
std::vector<double> crowdingDistances(const std::vector<std::vector<double>> &front);

// The COMPLETE trials (finite values) that no other COMPLETE trial dominates, in number order.
// Trials with identical values are all on the front.
std::vector<const Trial *> paretoFront(const std::vector<Trial> &trials, const std::vector<Direction> &directions);

}  // namespace tw::search
