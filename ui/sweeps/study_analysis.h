#pragma once
// A study as the Sweeps page draws it: the tracking store's trial records turned into
// core/search trials over the space of the study's sweep file, and the analysis core/search
// computes from them (history, importance, slices, contour, parallel coordinates, Pareto front).
// Computed on the study poller's thread, handed to the UI as one immutable value.
//
//   StudyAnalysis a = analyseStudy(study, trials, {.contourX = "train.lr", .contourY = "data.batch_size"});
//   a.trials.size();   // the trials the space could read, in number order

#include "core/search/space.h"
#include "core/search/trial.h"
#include "tracking/study_record.h"

#include <string>
#include <vector>

namespace tw::ui {

// The study's space, directions and objective metrics from its recorded sweep file; false with
// *error when the text no longer parses.
bool readStudySpace(const tracking::StudyRecord &study, search::SearchSpace *space,
                    std::vector<search::Direction> *directions, std::vector<std::string> *metrics, std::string *error);

// A record as core/search sees it; parameters the space cannot read (renamed, out of range) are
// left out, as they would be for a sampler.
search::Trial toSearchTrial(const tracking::TrialRecord &record, const search::SearchSpace &space);

struct StudyAnalysisRequest {
  std::string contourX, contourY;  // the parameter pair of the contour plot; empty: the two most important
};

struct StudyAnalysis {
  int64_t studyId = 0;
  std::string problem;  // why there is no analysis (a sweep file that no longer parses)
  search::SearchSpace space;
  std::vector<search::Direction> directions;
  std::vector<std::string> metrics;
  std::vector<search::Trial> trials;  // number order

  // Optimisation history of the first objective: COMPLETE trials in number order.
  struct HistoryPoint {
    int number = 0;
    double value = 0.0, best = 0.0;
  };
  std::vector<HistoryPoint> history;
  // Parameter importance (shares of the objective's variance), largest first.
  std::vector<std::pair<std::string, double>> importance;
  // The objective estimated over a grid of two parameters (rows x columns, bottom row first).
  struct Contour {
    std::string x, y;
    int columns = 0, rows = 0;
    std::vector<double> values;
  } contour;
  // Two objectives: the numbers of the trials on the Pareto front.
  std::vector<int> paretoFront;
};

StudyAnalysis analyseStudy(const tracking::StudyRecord &study, const std::vector<tracking::TrialRecord> &trials,
                           const StudyAnalysisRequest &request);

// The best value of the first objective among COMPLETE trials, and its trial's number (-1: none).
std::pair<double, int> bestValue(const std::vector<tracking::TrialRecord> &trials, search::Direction direction);

}  // namespace tw::ui
