#pragma once
// A recorded study read back for core/search: its sweep (with the `--set` overrides recorded
// beside it), directions, metrics and trials as samplers and analyses see them. The CLI (sweep
// driver, `study ask|tell|show`) and Studio's Sweeps page read a study through these, so every
// path reads it the same way.

#include "core/search/trial.h"
#include "core/sweep/sweep_file.h"
#include "tracking/study_record.h"

#include <set>
#include <string>
#include <vector>

namespace tw::app {

// The study's sweep, parsed again from the text recorded with it (the base, when the sweep names
// one, is read from disk as it is now). Throws config::ConfigError as loadSweepFile does.
// `extraOverrides`: a resume's new `--set` settings, applied after the recorded ones.
sweep::SweepFile recordedSweep(const tracking::StudyRecord &study, bool requireBase,
                               const std::vector<std::string> &extraOverrides = {});
// The study's sweep text with `overrides` recorded after it as "# --set KEY=VALUE" lines, which
// recordedSweep applies again.
std::string sweepTextWithOverrides(const std::string &sweepText, const std::vector<std::string> &overrides);

// "maximize,minimize" as recorded -> directions; throws std::runtime_error on a bad name.
std::vector<search::Direction> studyDirections(const tracking::StudyRecord &study);
std::vector<std::string> studyMetrics(const tracking::StudyRecord &study);

// A record as samplers and analyses see it. A recorded value the space cannot take (the sweep was
// edited by hand, a key renamed) leaves that parameter out rather than inventing one.
search::Trial searchTrial(const search::SearchSpace &space, const tracking::TrialRecord &record);
std::vector<search::Trial> searchTrials(const search::SearchSpace &space,
                                        const std::vector<tracking::TrialRecord> &records);

// A FAILED trial worth asking again (`retries` in the sweep file), or -1: it started a run (a
// configuration that does not validate would fail the same way), no trial retries it yet, it is
// not in `exclude`, and fewer than `retries` retries lead to it.
int retryCandidate(const std::vector<tracking::TrialRecord> &trials, int retries, const std::set<int> &exclude);

// How many trials of the budget are used: every trial, except FAILED ones that a retry replaced.
int budgetTrialsUsed(const std::vector<tracking::TrialRecord> &trials);
// The sweep's time budget is spent after `spentMs` of its drivers' time, all sessions together
// (studies.driver_ms plus the running session's): the driver stops starting trials, and Studio
// reads the study as finished.
bool timeBudgetSpent(double budgetMinutes, int64_t spentMs);

}  // namespace tw::app
