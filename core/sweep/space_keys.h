#pragma once
// Internal to core/sweep: every space key checked against what it sets, before the first trial.
// A run-file key against the config table (config_fields.h): the parameter's type fits the
// field's kind, low and high lie within its range, each choice is a value the field takes (read
// by the same converter as `--set`). A `model.<node>.<field>` key against the base model
// (model_fields.h) and the layer registry's parameter definitions in the same way.

#include "core/search/space.h"
#include "core/sweep/space_parser.h"

#include <string>

namespace tw::sweep::detail {

// `modelYaml` is the base run's model; every problem goes to `problems` at the key's line.
void checkSpaceKeys(const search::SearchSpace &space, const KeyMarks &marks, const std::string &modelYaml,
                    Problems &problems);

}  // namespace tw::sweep::detail
