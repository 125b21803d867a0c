#pragma once
// A study's trials between the tracking database (text) and core/search (values): what the sweep
// driver, `study ask|tell|show` and the progress display share, so every path reads a study the
// same way and asks the sampler the same question.

#include "app/common/study_records.h"
#include "core/search/study.h"
#include "core/sweep/sweep_file.h"
#include "tracking/store.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tw::cli {

using app::recordedSweep;
using app::searchTrials;
using app::studyDirections;
using app::studyMetrics;
using app::budgetTrialsUsed;
using app::retryCandidate;

// The study record for a sweep: its text with the `--set` overrides appended as "# --set KEY=VALUE"
// lines (recordedSweep applies them again), the objectives, the base's hash and experiment.
tracking::NewStudy newStudy(const sweep::SweepFile &sweep, const std::vector<std::string> &overrides);

// The sampler's proposal for the study's next trial, recorded RUNNING (the number comes from the
// database, so concurrent askers never share one). `retryOf` >= 0 records the failed trial's
// parameters again instead of sampling.
tracking::TrialRecord askTrial(tracking::Store &store, const tracking::StudyRecord &study,
                               const sweep::SweepFile &sweep, int retryOf = -1);

// The best COMPLETE trial of a single-objective study; nullopt before any.
std::optional<tracking::TrialRecord> bestTrial(const std::vector<tracking::TrialRecord> &trials,
                                               search::Direction direction);
// The COMPLETE trials no other COMPLETE trial dominates (multi-objective), in number order.
std::vector<tracking::TrialRecord> paretoFront(const std::vector<tracking::TrialRecord> &trials,
                                               const std::vector<search::Direction> &directions);

// "train.lr=0.003 train.optimizer=adam", or "no parameters".
std::string paramsLine(const std::map<std::string, std::string> &params);

}  // namespace tw::cli
