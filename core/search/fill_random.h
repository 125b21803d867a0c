#pragma once
// Completes a partial proposal: the model-based samplers (GP, CMA-ES, NSGA-II) fix the
// parameters they model and leave the rest (categoricals CMA-ES cannot model, conditional
// parameters, ones a child did not inherit) to independent uniform draws.

#include "core/search/rng.h"
#include "core/search/space.h"

namespace tw::search {

// The active parameters of `space`, walking it in declared order: the value from `fixed` where it
// has the key, otherwise a uniform draw (sampleRandomValue). Activity follows from the values
// chosen so far, so a fixed categorical decides which of its dependants appear. Every parameter
// takes a draw from `rng`, used or not, so one parameter's draw does not depend on the others.
Params fillRandom(const SearchSpace &space, const Params &fixed, Rng &rng);

}  // namespace tw::search
