#pragma once
// A study as the Sweeps page draws it: the tracking store's trial records turned into
// core/search trials over the space of the study's sweep file, and the analysis core/search
// computes from them (history, importance, slices, contour, parallel coordinates, Pareto front).
// Computed on the study poller's thread, handed to the UI as one immutable value.
//
//   StudyAnalysis a = analyseStudy(study, trials, {.contourX = "train.lr", .contourY = "data.batch_size"});
//   a.trials.size();   // the trials the space could read, in number order

#include "core/search/analysis_contour.h"
#include "core/search/analysis_history.h"
#include "core/search/analysis_importance.h"
#include "core/search/analysis_parallel_coords.h"
#include "core/search/analysis_pareto.h"
#include "core/search/analysis_slices.h"
#include "core/search/space.h"
#include "core/search/trial.h"
#include "tracking/study_record.h"

#include <string>
#include <vector>

namespace tw::ui {

// The study's space, directions and objective metrics from its recorded sweep file
// (app/common/study_records.h); false with *error when the text no longer parses.
bool readStudySpace(const tracking::StudyRecord &study, search::SearchSpace *space,
                    std::vector<search::Direction> *directions, std::vector<std::string> *metrics, std::string *error);

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

  // What core/search computes from the trials, for the first objective.
  std::vector<search::HistoryPoint> history;
  std::vector<search::ParamImportance> importance;  // most important first
  std::vector<search::ParamSlice> slices;           // one per parameter
  search::ParallelCoordinates parallel;
  search::ContourData contour;                      // gridSize 0: no surface (yet)
  search::ParetoPlot pareto;                        // two objectives only
};

StudyAnalysis analyseStudy(const tracking::StudyRecord &study, const std::vector<tracking::TrialRecord> &trials,
                           const StudyAnalysisRequest &request);

// The best value of the first objective among COMPLETE trials, and its trial's number (-1: none).
std::pair<double, int> bestValue(const std::vector<tracking::TrialRecord> &trials, search::Direction direction);

}  // namespace tw::ui
