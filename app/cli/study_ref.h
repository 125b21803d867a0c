#pragma once
// STUDY on the command line: a study name, a full id or any unique prefix of one.

#include "tracking/store.h"

#include <optional>
#include <string>

namespace tw::cli {

// The one study `reference` names; otherwise prints why on stderr (no such study, with what the
// workspace has) and returns nothing.
std::optional<tracking::StudyRecord> resolveStudy(const tracking::Store &store, const std::string &reference);

// "STUDY_UUID:N" as `train|launch --trial` take it; false when it does not read so.
bool parseTrialRef(const std::string &text, std::string *study, int *number);

// The trial `--trial STUDY:N` names, checked before a run is recorded for it. Throws
// std::runtime_error naming what is wrong.
tracking::TrialRecord findTrialRef(const tracking::Store &store, const std::string &trialRef,
                                   tracking::StudyRecord *study);

// Links a freshly recorded run to its trial (`--trial`): the trial's run, and the run's tags
// `study` (the study's name) and `trial` (the number), so Runs and Compare can filter by them.
// Throws std::runtime_error when the study or trial does not exist.
void linkRunToTrial(tracking::Store &store, const tracking::RunRecord &run, const std::string &trialRef);

}  // namespace tw::cli
