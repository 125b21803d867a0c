#include "core/search/trial.h"

#include <cmath>

namespace tw::search {

namespace {
const std::vector<std::pair<TrialState, const char *>> kStates = {
    {TrialState::Waiting, "WAITING"},   {TrialState::Running, "RUNNING"}, {TrialState::Complete, "COMPLETE"},
    {TrialState::Pruned, "PRUNED"},     {TrialState::Failed, "FAILED"}};
}

std::string trialStateName(TrialState state) {
  for (const auto &[s, name] : kStates)
    if (s == state) return name;
  return "?";
}

bool parseTrialState(const std::string &name, TrialState *state) {
  for (const auto &[s, text] : kStates)
    if (name == text) {
      *state = s;
      return true;
    }
  return false;
}

std::string directionName(Direction direction) {
  return direction == Direction::Minimize ? "minimize" : "maximize";
}

bool parseDirection(const std::string &name, Direction *direction) {
  if (name == "minimize") *direction = Direction::Minimize;
  else if (name == "maximize") *direction = Direction::Maximize;
  else return false;
  return true;
}

bool better(Direction direction, double a, double b) {
  return direction == Direction::Minimize ? a < b : a > b;
}

std::vector<const Trial *> completeTrials(const std::vector<Trial> &trials) {
  std::vector<const Trial *> out;
  for (const auto &t : trials) {
    if (t.state != TrialState::Complete || t.values.empty()) continue;
    bool finite = true;
    for (double v : t.values) finite = finite && std::isfinite(v);
    if (finite) out.push_back(&t);
  }
  return out;
}

}  // namespace tw::search
