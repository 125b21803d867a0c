#pragma once
// The states of a run and of a trial, in one table each: which a record may start in, which are
// final, and which state may follow which. The store refuses a write the table does not allow
// (TrackingError naming both states), so a bug that would, say, revive a FINISHED run or turn a
// PRUNED trial COMPLETE fails where it happens instead of leaving a record that contradicts itself.
//
//   if (std::string why = transitionProblem(runStates(), "run 12", "FINISHED", "RUNNING"); !why.empty()) ...

#include <string>
#include <vector>

namespace tw::tracking {

struct StateRule {
  std::string name;               // "RUNNING", as stored and printed
  bool initial = false;           // a record may be created in it
  bool ended = false;             // its record is not running: the end time is stamped
  bool final = false;             // nothing follows it
  std::vector<std::string> next;  // the states it may become
};

const std::vector<StateRule> &runStates();    // CREATED, RUNNING, FINISHED, FAILED, KILLED
const std::vector<StateRule> &trialStates();  // WAITING, RUNNING, COMPLETE, PRUNED, FAILED

const StateRule *findState(const std::vector<StateRule> &table, const std::string &name);
// Empty when `what` (e.g. "trial 3 of study 2") may go from `from` to `to`; otherwise why not.
std::string transitionProblem(const std::vector<StateRule> &table, const std::string &what, const std::string &from,
                              const std::string &to);
// "WAITING, RUNNING, COMPLETE, PRUNED or FAILED": the table's names, for messages.
std::string stateNames(const std::vector<StateRule> &table);

}  // namespace tw::tracking
