#pragma once
// A study's trials between the tracking database (text) and core/search (values): what the sweep
// driver, `study ask|tell|show` and the progress display share, so every path reads a study the
// same way and asks the sampler the same question.

#include "core/search/study.h"
#include "core/sweep/sweep_file.h"
#include "tracking/store.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tw::cli {

// The study's sweep, parsed again from the text recorded with it (the base, when the sweep names
// one, is read from disk as it is now). Throws config::ConfigError as loadSweepFile does.
sweep::SweepFile recordedSweep(const tracking::StudyRecord &study, bool requireBase);

// "maximize,minimize" as recorded -> directions; throws std::runtime_error on a bad name.
std::vector<search::Direction> studyDirections(const tracking::StudyRecord &study);
std::vector<std::string> studyMetrics(const tracking::StudyRecord &study);

// Recorded trials as samplers see them. A recorded value the space cannot take (the sweep was
// edited by hand) leaves that parameter out rather than inventing one.
std::vector<search::Trial> searchTrials(const search::SearchSpace &space,
                                        const std::vector<tracking::TrialRecord> &records);

// Active parameters as the database and run files hold them ("train.lr" -> "0.0031").
std::map<std::string, std::string> paramsText(const search::SearchSpace &space, const search::Params &params);

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

// How many trials of the budget are used: every trial, except FAILED ones that a retry replaced.
int budgetTrialsUsed(const std::vector<tracking::TrialRecord> &trials);

}  // namespace tw::cli
