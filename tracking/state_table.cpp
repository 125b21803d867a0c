#include "tracking/state_table.h"

#include <algorithm>

namespace tw::tracking {

const std::vector<StateRule> &runStates() {
  static const std::vector<StateRule> table = {
      {"CREATED", true, false, false, {"RUNNING", "FAILED", "KILLED"}},
      // RUNNING again: a resumed run, or ranks restarted after a failure, stamp it anew.
      {"RUNNING", false, false, false, {"RUNNING", "FINISHED", "FAILED", "KILLED"}},
      {"FINISHED", false, true, true, {}},  // `reproduce` trains it again as a new run
      // A run failed for its silence whose worker was alive after all records its real end; a
      // resume continues a failed or stopped run; a later, fuller reason replaces the first.
      {"FAILED", false, true, false, {"RUNNING", "FAILED", "FINISHED", "KILLED"}},
      {"KILLED", false, true, false, {"RUNNING", "KILLED", "FAILED"}},
  };
  return table;
}

const std::vector<StateRule> &trialStates() {
  static const std::vector<StateRule> table = {
      {"WAITING", true, false, false, {"RUNNING", "COMPLETE", "PRUNED", "FAILED"}},
      {"RUNNING", true, false, false, {"COMPLETE", "PRUNED", "FAILED"}},
      {"COMPLETE", false, true, true, {}},
      {"PRUNED", false, true, true, {}},
      {"FAILED", false, true, true, {}},  // a retry is a new trial (retry_of), never this one again
  };
  return table;
}

const StateRule *findState(const std::vector<StateRule> &table, const std::string &name) {
  auto found = std::find_if(table.begin(), table.end(), [&](const StateRule &r) { return r.name == name; });
  return found == table.end() ? nullptr : &*found;
}

std::string stateNames(const std::vector<StateRule> &table) {
  std::string text;
  for (size_t i = 0; i < table.size(); ++i)
    text += (i == 0 ? "" : i + 1 == table.size() ? " or " : ", ") + table[i].name;
  return text;
}

std::string transitionProblem(const std::vector<StateRule> &table, const std::string &what, const std::string &from,
                              const std::string &to) {
  if (!findState(table, to)) return "unknown state '" + to + "' (expected " + stateNames(table) + ")";
  const StateRule *rule = findState(table, from);
  if (!rule) return what + " is in an unknown state '" + from + "'";
  if (std::find(rule->next.begin(), rule->next.end(), to) != rule->next.end()) return {};
  std::string allowed;
  for (size_t i = 0; i < rule->next.size(); ++i) allowed += (i ? ", " : "") + rule->next[i];
  return what + " is " + from + " and cannot become " + to + " (" +
         (rule->final ? from + " is final" : "from " + from + " it may become " + allowed) + ")";
}

}  // namespace tw::tracking
