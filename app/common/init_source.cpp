#include "app/common/init_source.h"

#include "app/common/run_recording.h"
#include "core/config/checkpoint_choice.h"
#include "core/config/init_from.h"

#include <filesystem>
#include <stdexcept>

namespace fs = std::filesystem;

namespace tw::app {

InitSource resolveInitSource(const tracking::Store &store, const std::string &workspace, const std::string &initFrom) {
  const config::InitFrom from = config::parseInitFrom(initFrom);
  if (!from.problem.empty()) throw std::runtime_error("train.init_from: " + from.problem);
  if (from.empty()) return {};
  if (!from.file.empty()) return {from.file, from.file};
  const std::vector<tracking::RunRecord> runs = store.findRuns(from.run, 6);
  if (runs.empty())
    throw std::runtime_error("train.init_from: no run matches '" + from.run + "' in " + store.shownLocation() +
                             " (give a run name or a prefix of its id; `torchwright runs list` shows them)");
  if (runs.size() > 1) {
    std::string list;
    for (size_t i = 0; i < runs.size() && i < 5; ++i) list += (i ? ", " : "") + runs[i].uuid.substr(0, 8) + " (" + runs[i].name + ")";
    throw std::runtime_error("train.init_from: '" + from.run + "' matches " +
                             (runs.size() > 5 ? std::string("more than 5") : std::to_string(runs.size())) +
                             " runs: " + list + "; give more of the id");
  }
  const tracking::RunRecord &run = runs.front();
  const config::CheckpointChoice choice = config::parseCheckpointChoice(from.checkpoint);
  const fs::path folder = fs::path(runFolder(workspace, run)) / "checkpoints";
  const fs::path file = config::checkpointFile(runFolder(workspace, run), choice);
  std::error_code ec;
  if (!fs::is_regular_file(file, ec))
    throw std::runtime_error("train.init_from: run " + run.uuid.substr(0, 8) + " (" + run.name + ") has no " +
                             choice.name + " checkpoint: " + file.string() + " does not exist (" +
                             config::missingCheckpointHint(folder.string(), choice) + ")");
  return {file.string(), "run " + run.uuid.substr(0, 8) + " (" + run.name + "), " + choice.name + " checkpoint"};
}

}  // namespace tw::app
