#pragma once
// Parameter importance by fANOVA on a random forest, as Optuna's default
// FanovaImportanceEvaluator: a forest of 64 regression trees (depth up to 64, bootstrap samples)
// fitted on the COMPLETE trials, each tree's variance split into the share each parameter's
// marginal explains, averaged over the trees and normalised to sum to 1.
//
//   for (const auto &p : paramImportances(study.space(), study.trials())) draw(p.key, p.importance);
//
// Parameters are in unit-cube coordinates (so a log-scaled one counts evenly per decade, where
// Optuna measures it on its raw scale) and a categorical's choices in their declared order
// (Optuna one-hot encodes them); conditional parameters as analysis_table.h says.

#include "core/search/random_forest.h"
#include "core/search/space.h"
#include "core/search/trial.h"

#include <string>
#include <vector>

namespace tw::search {

struct ImportanceOptions {
  ForestOptions forest;   // Optuna's: 64 trees, max depth 64, split 2, leaf 1, bootstrap
  size_t objective = 0;   // which objective of a multi-objective study
};

struct ParamImportance {
  std::string key;
  double importance = 0.0;  // share of the explained variance; the shares sum to 1
  double spread = 0.0;      // standard deviation of the share over the trees, on the same scale
};

// Every parameter active in a COMPLETE trial, most important first. Empty with fewer than two
// COMPLETE trials; all 0 when the objective never varies (nothing to explain).
std::vector<ParamImportance> paramImportances(const SearchSpace &space, const std::vector<Trial> &trials,
                                              const ImportanceOptions &options = {});

}  // namespace tw::search
