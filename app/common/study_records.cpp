#include "app/common/study_records.h"

#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

namespace tw::app {

namespace {

constexpr const char *kOverrideMarker = "# --set ";

std::vector<std::string> splitCommas(const std::string &text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

search::TrialState stateOf(const std::string &name) {
  search::TrialState state = search::TrialState::Failed;
  search::parseTrialState(name, &state);
  return state;
}

}  // namespace

std::string sweepTextWithOverrides(const std::string &sweepText, const std::vector<std::string> &overrides) {
  std::string text = sweepText;
  for (const auto &o : overrides) text += "\n" + std::string(kOverrideMarker) + o;
  return text;
}

sweep::SweepFile recordedSweep(const tracking::StudyRecord &study, bool requireBase,
                               const std::vector<std::string> &extraOverrides) {
  // `sweep --set` overrides are recorded after the file's text as "# --set KEY=VALUE" lines (see
  // cmd_sweep.cpp), so a resume and `study ask` apply them again.
  std::vector<std::string> overrides;
  std::stringstream in(study.sweepYaml);
  std::string line;
  const std::string marker = kOverrideMarker;
  while (std::getline(in, line))
    if (line.rfind(marker, 0) == 0) overrides.push_back(line.substr(marker.size()));
  overrides.insert(overrides.end(), extraOverrides.begin(), extraOverrides.end());
  const std::string name = study.sweepFile.empty() ? study.name + " (recorded sweep)" : study.sweepFile;
  return sweep::parseSweepFile(study.sweepYaml, name, overrides, requireBase);
}

std::vector<search::Direction> studyDirections(const tracking::StudyRecord &study) {
  std::vector<search::Direction> out;
  for (const auto &name : splitCommas(study.directions)) {
    search::Direction d;
    if (!search::parseDirection(name, &d))
      throw std::runtime_error("study '" + study.name + "' records an unknown direction '" + name + "'");
    out.push_back(d);
  }
  if (out.empty()) throw std::runtime_error("study '" + study.name + "' records no objective");
  return out;
}

std::vector<std::string> studyMetrics(const tracking::StudyRecord &study) { return splitCommas(study.metrics); }

search::Trial searchTrial(const search::SearchSpace &space, const tracking::TrialRecord &r) {
  search::Trial t;
  t.number = r.number;
  t.state = stateOf(r.state);
  for (const auto &[key, text] : r.params) {
    const search::ParamSpec *spec = space.find(key);
    double value = 0.0;
    if (spec && search::parseValue(*spec, text, &value)) t.params[key] = value;
  }
  t.values = r.values;
  t.intermediate = r.intermediate;
  t.message = r.message;
  t.startMs = r.startMs;
  t.endMs = r.endMs;
  return t;
}

std::vector<search::Trial> searchTrials(const search::SearchSpace &space,
                                        const std::vector<tracking::TrialRecord> &records) {
  std::vector<search::Trial> out;
  out.reserve(records.size());
  for (const auto &r : records) out.push_back(searchTrial(space, r));
  return out;
}

int retryCandidate(const std::vector<tracking::TrialRecord> &trials, int retries, const std::set<int> &exclude) {
  if (retries <= 0) return -1;
  std::set<int> retried;
  std::map<int, int> retryOf;
  for (const auto &t : trials) {
    if (t.retryOf >= 0) retried.insert(t.retryOf);
    retryOf[t.number] = t.retryOf;
  }
  for (const auto &t : trials) {
    if (t.state != "FAILED" || t.runId == 0 || retried.count(t.number) || exclude.count(t.number)) continue;
    int depth = 0;
    for (int n = t.retryOf; n >= 0; n = retryOf.count(n) ? retryOf[n] : -1) ++depth;
    if (depth < retries) return t.number;
  }
  return -1;
}

int budgetTrialsUsed(const std::vector<tracking::TrialRecord> &trials) {
  int retried = 0;
  for (const auto &t : trials)
    if (t.retryOf >= 0) ++retried;
  return static_cast<int>(trials.size()) - retried;
}

bool timeBudgetSpent(double budgetMinutes, int64_t spentMs) {
  return budgetMinutes > 0 && static_cast<double>(spentMs) >= budgetMinutes * 60000.0;
}

}  // namespace tw::app
