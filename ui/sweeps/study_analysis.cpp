#include "ui/sweeps/study_analysis.h"

#include "core/sweep/sweep_file.h"

#include <cmath>
#include <sstream>

namespace tw::ui {

namespace {

std::vector<std::string> splitCommas(const std::string &text) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ',');)
    if (!part.empty()) parts.push_back(part);
  return parts;
}

}  // namespace

bool readStudySpace(const tracking::StudyRecord &study, search::SearchSpace *space,
                    std::vector<search::Direction> *directions, std::vector<std::string> *metrics, std::string *error) {
  directions->clear();
  for (const std::string &name : splitCommas(study.directions)) {
    search::Direction direction = search::Direction::Maximize;
    search::parseDirection(name, &direction);
    directions->push_back(direction);
  }
  *metrics = splitCommas(study.metrics);
  try {
    *space = sweep::parseSweepFile(study.sweepYaml, study.sweepFile, {}, false).space;
    return true;
  } catch (const std::exception &e) {
    *error = e.what();
    return false;
  }
}

search::Trial toSearchTrial(const tracking::TrialRecord &record, const search::SearchSpace &space) {
  search::Trial trial;
  trial.number = record.number;
  search::parseTrialState(record.state, &trial.state);
  for (const auto &[key, text] : record.params) {
    const search::ParamSpec *spec = space.find(key);
    double value = 0.0;
    if (spec && search::parseValue(*spec, text, &value)) trial.params[key] = value;
  }
  trial.values = record.values;
  trial.intermediate = record.intermediate;
  trial.message = record.message;
  trial.startMs = record.startMs;
  trial.endMs = record.endMs;
  return trial;
}

StudyAnalysis analyseStudy(const tracking::StudyRecord &study, const std::vector<tracking::TrialRecord> &trials,
                           const StudyAnalysisRequest &request) {
  (void)request;
  StudyAnalysis analysis;
  analysis.studyId = study.id;
  if (!readStudySpace(study, &analysis.space, &analysis.directions, &analysis.metrics, &analysis.problem))
    return analysis;
  analysis.trials.reserve(trials.size());
  for (const auto &record : trials) analysis.trials.push_back(toSearchTrial(record, analysis.space));
  return analysis;
}

std::pair<double, int> bestValue(const std::vector<tracking::TrialRecord> &trials, search::Direction direction) {
  double best = NAN;
  int number = -1;
  for (const auto &trial : trials) {
    if (trial.state != "COMPLETE" || trial.values.empty() || !std::isfinite(trial.values.front())) continue;
    if (number < 0 || search::better(direction, trial.values.front(), best)) {
      best = trial.values.front();
      number = trial.number;
    }
  }
  return {best, number};
}

}  // namespace tw::ui
