#pragma once
// A sweep file written from a SweepFile in memory: what Studio's Sweeps form saves, so that
// `torchwright sweep` runs exactly what the form showed and parseSweepFile reads it back to the
// same space, objectives, sampler, pruner, budget and parallelism.
//
//   sweep::SweepFile s;
//   s.baseFile = "lr-search.run.yaml";   // written as given (relative: beside the sweep file)
//   s.space.params.push_back({.key = "train.lr", .type = search::ParamType::Float,
//                             .low = 1e-4, .high = 0.3, .log = true});
//   writeFile("lr-search.sweep.yaml", sweepYaml(s));

#include "core/sweep/sweep_file.h"

#include <string>

namespace tw::sweep {

// The YAML text of `sweep`. The base is `baseFile` when set (as given), else `baseYaml` inlined
// as a map, else left out (a study without a base). Numbers are written in their shortest form
// that reads back to the same double. `sourceFile` and `text` are not written.
std::string sweepYaml(const SweepFile &sweep);

}  // namespace tw::sweep
