#include "app/cli/study_trials.h"

#include "core/search/catalog.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace tw::cli {

namespace {

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

bool finiteValues(const tracking::TrialRecord &t, size_t count) {
  if (t.state != "COMPLETE" || t.values.size() != count) return false;
  return std::all_of(t.values.begin(), t.values.end(), [](double v) { return std::isfinite(v); });
}

// a dominates b: no worse in every objective, better in one.
bool dominates(const std::vector<double> &a, const std::vector<double> &b,
               const std::vector<search::Direction> &directions) {
  bool strictly = false;
  for (size_t i = 0; i < directions.size(); ++i) {
    if (search::better(directions[i], b[i], a[i])) return false;
    if (search::better(directions[i], a[i], b[i])) strictly = true;
  }
  return strictly;
}

}  // namespace

sweep::SweepFile recordedSweep(const tracking::StudyRecord &study, bool requireBase) {
  // `sweep --set` overrides are recorded after the file's text as "# --set KEY=VALUE" lines (see
  // cmd_sweep.cpp), so a resume and `study ask` apply them again.
  std::vector<std::string> overrides;
  std::stringstream in(study.sweepYaml);
  std::string line;
  const std::string marker = "# --set ";
  while (std::getline(in, line))
    if (line.rfind(marker, 0) == 0) overrides.push_back(line.substr(marker.size()));
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

std::vector<search::Trial> searchTrials(const search::SearchSpace &space,
                                        const std::vector<tracking::TrialRecord> &records) {
  std::vector<search::Trial> out;
  out.reserve(records.size());
  for (const auto &r : records) {
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
    out.push_back(std::move(t));
  }
  return out;
}

std::map<std::string, std::string> paramsText(const search::SearchSpace &space, const search::Params &params) {
  std::map<std::string, std::string> out;
  for (const auto &[key, value] : params)
    if (const search::ParamSpec *spec = space.find(key)) out[key] = search::valueText(*spec, value);
  return out;
}

tracking::TrialRecord askTrial(tracking::Store &store, const tracking::StudyRecord &study,
                               const sweep::SweepFile &sweep, int retryOf) {
  const auto records = store.trials(study.id);
  if (retryOf >= 0) {
    for (const auto &r : records)
      if (r.number == retryOf) return store.addTrial(study.id, r.params, "RUNNING", retryOf);
    throw std::runtime_error("study '" + study.name + "' has no trial " + std::to_string(retryOf) + " to retry");
  }
  const search::SamplerEntry *entry = search::findSampler(sweep.sampler);
  if (!entry) throw std::runtime_error("unknown sampler '" + sweep.sampler + "'");
  const auto sampler = entry->make(sweep.samplerOptions);
  // The number the database will give, when nobody else asks in between; a sampler draws from
  // it, so a lost race only changes which random stream the proposal came from.
  int next = 0;
  for (const auto &r : records) next = std::max(next, r.number + 1);
  const search::Params params = search::nextTrialParams(*sampler, sweep.space, studyDirections(study),
                                                        searchTrials(sweep.space, records), next, sweep.seed);
  return store.addTrial(study.id, paramsText(sweep.space, params));
}

std::optional<tracking::TrialRecord> bestTrial(const std::vector<tracking::TrialRecord> &trials,
                                               search::Direction direction) {
  std::optional<tracking::TrialRecord> best;
  for (const auto &t : trials)
    if (finiteValues(t, 1) && (!best || search::better(direction, t.values[0], best->values[0]))) best = t;
  return best;
}

std::vector<tracking::TrialRecord> paretoFront(const std::vector<tracking::TrialRecord> &trials,
                                               const std::vector<search::Direction> &directions) {
  std::vector<const tracking::TrialRecord *> complete;
  for (const auto &t : trials)
    if (finiteValues(t, directions.size())) complete.push_back(&t);
  std::vector<tracking::TrialRecord> front;
  for (const auto *a : complete) {
    const bool dominated = std::any_of(complete.begin(), complete.end(), [&](const tracking::TrialRecord *b) {
      return dominates(b->values, a->values, directions);
    });
    if (!dominated) front.push_back(*a);
  }
  return front;
}

int budgetTrialsUsed(const std::vector<tracking::TrialRecord> &trials) {
  int retried = 0;
  for (const auto &t : trials)
    if (t.retryOf >= 0) ++retried;
  return static_cast<int>(trials.size()) - retried;
}

}  // namespace tw::cli
