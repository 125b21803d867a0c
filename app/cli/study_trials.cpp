#include "app/cli/study_trials.h"

#include "core/search/space.h"

#include "core/search/catalog.h"
#include "core/search/pareto.h"
#include "core/sweep/trial_params.h"

#include <algorithm>
#include <filesystem>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace tw::cli {

namespace {

bool finiteValues(const tracking::TrialRecord &t, size_t count) {
  if (t.state != "COMPLETE" || t.values.size() != count) return false;
  return std::all_of(t.values.begin(), t.values.end(), [](double v) { return std::isfinite(v); });
}

}  // namespace

tracking::NewStudy newStudy(const sweep::SweepFile &sweep, const std::vector<std::string> &overrides) {
  tracking::NewStudy out;
  out.name = sweep.studyName;
  if (!sweep.baseYaml.empty())
    out.experiment = config::parseRunConfig(sweep.baseYaml, sweep.baseFile).tracking.experiment;
  out.sweepYaml = app::sweepTextWithOverrides(sweep.text, overrides);
  out.sweepFile = sweep.sourceFile.empty() ? std::string() : std::filesystem::absolute(sweep.sourceFile).string();
  for (const auto &o : sweep.objectives) {
    out.directions += (out.directions.empty() ? "" : ",") + search::directionName(o.direction);
    out.metrics += (out.metrics.empty() ? "" : ",") + o.metric;
  }
  out.baseHash = sweep.baseYaml.empty() ? std::string() : sweep::baseHash(sweep);
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
  return store.addTrial(study.id, sweep::paramsText(sweep, params));
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
  // Values and states are all the front needs: no space, so no parameter is read.
  const std::vector<search::Trial> plain = searchTrials(search::SearchSpace{}, trials);
  std::vector<tracking::TrialRecord> front;
  for (const search::Trial *t : search::paretoFront(plain, directions))
    front.push_back(trials[static_cast<size_t>(t - plain.data())]);
  return front;
}

std::string paramsLine(const std::map<std::string, std::string> &params) {
  std::string out;
  for (const auto &[key, value] : params) out += (out.empty() ? "" : " ") + key + "=" + search::displayText(value);
  return out.empty() ? "no parameters" : out;
}

}  // namespace tw::cli
