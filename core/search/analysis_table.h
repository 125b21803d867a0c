#pragma once
// The COMPLETE trials of a study as a table for the forest-based analyses (importance,
// contour): one row per trial, one column per parameter in unit-cube coordinates (toUnit:
// log-scaled where `log`, a categorical's index i at (i + 0.5) / n), and the objective.
//
// A conditional parameter inactive in some rows gets the column domain [-w, 1], w being the
// ratio of rows where it is inactive to rows where it is active, and its inactive rows a value
// just below 0. A tree then separates "inactive" from every active value at about 0, and the
// band [-w, 0) holds the inactive rows' share of the uniform measure fANOVA integrates over,
// so "whether it is active" counts towards its importance as often as it happens.
// (Optuna leaves such parameters out of the importance altogether.)

#include "core/search/random_forest.h"
#include "core/search/space.h"
#include "core/search/trial.h"

#include <string>
#include <vector>

namespace tw::search {

struct AnalysisTable {
  std::vector<std::string> keys;           // the columns' parameters, in declared order
  std::vector<FeatureRange> domain;        // per column
  std::vector<std::vector<double>> rows;   // per COMPLETE trial
  std::vector<double> targets;             // its objective `objective`
  std::vector<int> numbers;                // its trial number
  int column(const std::string &key) const;  // -1 when not a column
};

// Columns for every parameter active in at least one COMPLETE trial with finite values.
AnalysisTable analysisTable(const SearchSpace &space, const std::vector<Trial> &trials, size_t objective = 0);

}  // namespace tw::search
