#include "ui/sweeps/study_analysis.h"

#include "app/common/study_records.h"

#include <cmath>
#include <sstream>

namespace tw::ui {

bool readStudySpace(const tracking::StudyRecord &study, search::SearchSpace *space,
                    std::vector<search::Direction> *directions, std::vector<std::string> *metrics, std::string *error) {
  try {
    *directions = app::studyDirections(study);
    *metrics = app::studyMetrics(study);
    *space = app::recordedSweep(study, false).space;
    return true;
  } catch (const std::exception &e) {
    *error = e.what();
    return false;
  }
}

StudyAnalysis analyseStudy(const tracking::StudyRecord &study, const std::vector<tracking::TrialRecord> &trials,
                           const StudyAnalysisRequest &request) {
  StudyAnalysis analysis;
  analysis.studyId = study.id;
  if (!readStudySpace(study, &analysis.space, &analysis.directions, &analysis.metrics, &analysis.problem))
    return analysis;
  analysis.trials.reserve(trials.size());
  for (const auto &record : trials) analysis.trials.push_back(app::searchTrial(analysis.space, record));
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
