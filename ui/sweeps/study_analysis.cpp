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
  StudyAnalysis analysis;
  analysis.studyId = study.id;
  if (!readStudySpace(study, &analysis.space, &analysis.directions, &analysis.metrics, &analysis.problem))
    return analysis;
  analysis.trials.reserve(trials.size());
  for (const auto &record : trials) analysis.trials.push_back(toSearchTrial(record, analysis.space));
  if (analysis.directions.empty()) return analysis;
  const search::SearchSpace &space = analysis.space;
  analysis.history = search::optimizationHistory(analysis.trials, analysis.directions.front());
  analysis.importance = search::paramImportances(space, analysis.trials);
  analysis.slices = search::paramSlices(space, analysis.trials);
  analysis.parallel = search::parallelCoordinates(space, analysis.trials,
                                                  analysis.metrics.empty() ? "objective" : analysis.metrics.front());
  // The contour pair: the one asked for, else the two most important parameters.
  std::string x = request.contourX, y = request.contourY;
  if (!space.find(x) || !space.find(y) || x == y) {
    x.clear();
    y.clear();
    if (analysis.importance.size() >= 2) {
      x = analysis.importance[0].key;
      y = analysis.importance[1].key;
    } else if (space.params.size() >= 2) {
      x = space.params[0].key;
      y = space.params[1].key;
    }
  }
  if (analysis.directions.size() == 2)
    analysis.pareto = search::paretoPlot(analysis.trials, analysis.directions, analysis.metrics);
  if (!x.empty() && !y.empty() && x != y) analysis.contour = search::contourData(space, analysis.trials, x, y);
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
