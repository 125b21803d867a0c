#include "app/cli/run_ref.h"

#include "app/cli/table_printer.h"
#include "core/config/checkpoint_choice.h"
#include "core/config/workspace.h"

#include <cstdio>
#include <filesystem>

namespace tw::cli {

std::optional<tracking::RunRecord> resolveRun(const tracking::Store &store, const std::string &reference) {
  constexpr int kShown = 20;
  auto runs = store.findRuns(reference, kShown + 1);
  if (runs.size() == 1) return std::move(runs.front());
  if (runs.empty()) {
    std::fprintf(stderr, "torchwright: no run matches '%s' in %s (give a run name or a prefix of its id; "
                 "`torchwright runs list` shows them)\n", reference.c_str(), store.shownLocation().c_str());
    return std::nullopt;
  }
  TablePrinter table({"ID", "NAME", "EXPERIMENT", "STATUS", "STARTED"});
  for (size_t i = 0; i < runs.size() && i < size_t(kShown); ++i)
    table.addRow({runs[i].uuid, runs[i].name, runs[i].experiment, tracking::runStatusName(runs[i].status),
                  formatTimestamp(runs[i].startMs)});
  std::fprintf(stderr, "torchwright: '%s' is ambiguous: it matches %s runs; give more of the id:\n%s",
               reference.c_str(), runs.size() > size_t(kShown) ? "more than 20" : std::to_string(runs.size()).c_str(),
               table.str().c_str());
  return std::nullopt;
}

bool hasCheckpoint(const std::string &workspace, const tracking::RunRecord &run, const std::string &which) {
  const config::CheckpointChoice choice = config::parseCheckpointChoice(which);
  const std::filesystem::path folder = std::filesystem::path(runFolder(workspace, run)) / "checkpoints";
  std::string inside;
  try {
    inside = config::checkpointFile(runFolder(workspace, run), choice);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torchwright: run %s (%s): %s\n", run.uuid.substr(0, 8).c_str(), run.name.c_str(), e.what());
    return false;
  }
  const std::filesystem::path file = inside;
  std::error_code ec;
  if (std::filesystem::exists(file, ec)) return true;
  std::fprintf(stderr, "torchwright: run %s (%s) has no %s checkpoint: %s does not exist (%s)\n",
               run.uuid.substr(0, 8).c_str(), run.name.c_str(), which.c_str(), file.c_str(),
               config::missingCheckpointHint(folder.string(), choice).c_str());
  return false;
}

}  // namespace tw::cli
