#include "app/cli/study_ref.h"

#include "core/config/workspace.h"
#include "tracking/workspace_store.h"

#include <cstdio>
#include <filesystem>
#include <stdexcept>

namespace tw::cli {

std::unique_ptr<tracking::Store> openExistingStore(const std::string &workspace, const std::string &reference) {
  const std::string path = tracking::workspaceStore(workspace);
  if (!tracking::storeMayExist(path)) {
    std::fprintf(stderr, "torchwright: no study '%s': the workspace %s has no tracking database yet\n",
                 reference.c_str(), workspace.c_str());
    return nullptr;
  }
  return tracking::Store::open(path);
}

std::optional<tracking::StudyRecord> resolveStudy(const tracking::Store &store, const std::string &reference) {
  if (auto study = store.findStudy(reference)) return study;
  std::vector<std::string> matches;
  for (const auto &s : store.listStudies())
    if (s.uuid.rfind(reference, 0) == 0 || s.name == reference) matches.push_back(s.uuid.substr(0, 8) + " " + s.name);
  if (matches.size() > 1) {
    std::fprintf(stderr, "torchwright: '%s' could mean %zu studies; give more of the id:\n", reference.c_str(),
                 matches.size());
    for (const auto &m : matches) std::fprintf(stderr, "  %s\n", m.c_str());
  } else {
    std::fprintf(stderr, "torchwright: no study '%s' in this workspace (`torchwright study list` shows them)\n",
                 reference.c_str());
  }
  return std::nullopt;
}

bool parseTrialRef(const std::string &text, std::string *study, int *number) {
  const size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 >= text.size()) return false;
  const std::string digits = text.substr(colon + 1);
  if (digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) return false;
  *study = text.substr(0, colon);
  *number = std::stoi(digits);
  return true;
}

tracking::TrialRecord findTrialRef(const tracking::Store &store, const std::string &trialRef,
                                   tracking::StudyRecord *study) {
  std::string reference;
  int number = 0;
  if (!parseTrialRef(trialRef, &reference, &number))
    throw std::runtime_error("--trial expects STUDY:NUMBER, got '" + trialRef + "'");
  auto found = store.findStudy(reference);
  if (!found) throw std::runtime_error("--trial: no study '" + reference + "'");
  auto trial = store.trial(found->id, number);
  if (!trial) throw std::runtime_error("--trial: study '" + found->name + "' has no trial " + std::to_string(number));
  if (study) *study = *found;
  return *trial;
}

void linkRunToTrial(tracking::Store &store, const tracking::RunRecord &run, const std::string &trialRef) {
  tracking::StudyRecord study;
  const tracking::TrialRecord trial = findTrialRef(store, trialRef, &study);
  store.linkTrialRun(study.id, trial.number, run.id);
  store.setTag(run.id, "study", study.name);
  store.setTag(run.id, "trial", std::to_string(trial.number));
}

}  // namespace tw::cli
