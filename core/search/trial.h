#pragma once
// Trials as samplers, pruners and analyses see them: plain values, no database.

#include "core/search/space.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tw::search {

enum class TrialState { Waiting, Running, Complete, Pruned, Failed };
std::string trialStateName(TrialState state);  // "COMPLETE", as `study show` prints it
bool parseTrialState(const std::string &name, TrialState *state);

enum class Direction { Minimize, Maximize };
std::string directionName(Direction direction);  // "minimize", "maximize"
bool parseDirection(const std::string &name, Direction *direction);

struct Trial {
  int number = 0;  // 0, 1, 2, ... in the order trials were asked for; never reused
  TrialState state = TrialState::Running;
  Params params;               // active parameters only
  std::vector<double> values;  // one per objective, set when Complete
  // The objective's value at each reported step (epoch), for pruners and for samplers that
  // learn from pruned trials.
  std::map<int64_t, double> intermediate;
  std::string message;         // why it failed
  int64_t startMs = 0, endMs = 0;
};

// Whether `a` is better than `b` for `direction` (strictly).
bool better(Direction direction, double a, double b);

// The trials that finished (Complete) with every value finite, in number order.
std::vector<const Trial *> completeTrials(const std::vector<Trial> &trials);

}  // namespace tw::search
