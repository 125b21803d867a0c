// `torchwright runs list|show|tag|untag|note|archive|unarchive`: what the tracking database knows, as
// terminal tables, and the labels, notes and archive marks Studio sets, from a script.

#include "app/cli/commands.h"
#include "app/cli/table_printer.h"

#include "core/config/metric_keys.h"
#include "core/config/workspace.h"
#include "tracking/run_labels.h"
#include "tracking/store.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace tw::cli {

namespace {

std::string latest(const std::vector<tracking::LatestMetric> &metrics, const std::string &key) {
  for (const auto &m : metrics)
    if (m.key == key) return formatMetric(m.value);
  return "-";
}

int64_t durationMs(const tracking::RunRecord &run) {
  if (run.startMs == 0) return 0;
  return (run.endMs ? run.endMs : tracking::nowMs()) - run.startMs;
}

int listRuns(tracking::Store &store, const CliArgs &args) {
  const int limit = std::stoi(args.option("--limit", "0"));
  const bool all = args.hasFlag("--all");
  TablePrinter table({"ID", "NAME", "EXPERIMENT", "STATUS", "STARTED", "DURATION", "VAL ACC", "TEST ACC", "TAGS"},
                     {false, false, false, false, false, true, true, true, false});
  size_t listed = 0, archived = 0;
  for (const auto &run : store.listRuns(limit)) {
    const auto tags = store.tags(run.id);
    if (tracking::isArchived(tags)) {
      ++archived;
      if (!all) continue;
    }
    std::string labels;
    for (const auto &label : tracking::labelsOf(tags)) labels += (labels.empty() ? "" : ",") + label;
    auto metrics = store.latestMetrics(run.id);
    table.addRow({run.uuid.substr(0, 8), run.name, run.experiment, tracking::runStatusName(run.status),
                  formatTimestamp(run.startMs), formatDuration(durationMs(run)), latest(metrics, config::metrics::kValAccuracy),
                  latest(metrics, config::metrics::kTestAccuracy), labels.empty() ? "-" : labels});
    ++listed;
  }
  std::printf("%s%zu run(s)", table.str().c_str(), listed);
  if (archived > 0 && !all) std::printf(", %zu archived not shown (--all shows them)", archived);
  std::printf("\n");
  return 0;
}

int showRun(tracking::Store &store, const std::string &id) {
  auto run = store.findRun(id);
  if (!run) {
    std::fprintf(stderr, "torchwright: no run matches '%s' (give a unique id prefix or a run name)\n", id.c_str());
    return 1;
  }
  std::printf("run         %s\n", run->uuid.c_str());
  std::printf("name        %s\n", run->name.c_str());
  std::printf("experiment  %s\n", run->experiment.c_str());
  std::printf("status      %s%s%s\n", tracking::runStatusName(run->status).c_str(),
              run->statusMessage.empty() ? "" : ": ", run->statusMessage.c_str());
  std::printf("started     %s\n", formatTimestamp(run->startMs).c_str());
  std::printf("duration    %s\n", formatDuration(durationMs(*run)).c_str());
  std::printf("seed        %lld\n", static_cast<long long>(run->seed));
  std::printf("config hash %s\n", run->configHash.c_str());
  std::printf("data        %s\n", run->dataFingerprint.empty() ? "-" : run->dataFingerprint.c_str());
  std::printf("host        %s\n", run->host.c_str());
  std::printf("hardware    %s\n", run->hardware.c_str());
  std::printf("libraries   %s\n", run->libraryVersions.c_str());
  std::printf("folder      %s\n", run->runDir.c_str());

  TablePrinter params({"PARAM", "VALUE"});
  for (const auto &[key, value] : store.params(run->id)) params.addRow({key, value});
  std::printf("\n%s", params.str().c_str());

  const auto tags = store.tags(run->id);
  if (!tags.empty()) {
    TablePrinter table({"TAG", "VALUE"});
    for (auto [key, value] : tags) {
      // Multi-line tags (the recorded environment) read better on one line in a table.
      std::replace(value.begin(), value.end(), '\n', ' ');
      table.addRow({key, value});
    }
    std::printf("\n%s", table.str().c_str());
  }

  TablePrinter metrics({"METRIC", "STEP", "LAST VALUE"}, {false, true, true});
  for (const auto &m : store.latestMetrics(run->id))
    metrics.addRow({m.key, std::to_string(m.step), formatMetric(m.value)});
  std::printf("\n%s", metrics.str().c_str());

  auto artifacts = store.artifacts(run->id);
  if (!artifacts.empty()) {
    TablePrinter table({"ARTIFACT", "KIND"});
    for (const auto &a : artifacts) table.addRow({a.path, a.kind});
    std::printf("\n%s", table.str().c_str());
  }
  return 0;
}

// tag/untag/note/archive/unarchive RUN [TEXT]: the same tags Studio's Runs page writes.
int markRun(tracking::Store &store, const std::string &sub, const std::vector<std::string> &words) {
  auto run = store.findRun(words[1]);
  if (!run) {
    std::fprintf(stderr, "torchwright: no run matches '%s' (give a unique id prefix or a run name)\n", words[1].c_str());
    return 1;
  }
  std::string text;
  for (size_t i = 2; i < words.size(); ++i) text += (text.empty() ? "" : " ") + words[i];
  if (sub == "tag" || sub == "untag") {
    const std::string label = tracking::normalizeLabel(text);
    if (label.empty()) {
      std::fprintf(stderr, "usage: torchwright runs %s RUN LABEL\n", sub.c_str());
      return 2;
    }
    if (sub == "tag") store.setTag(run->id, tracking::labelKey(label), "");
    else store.removeTag(run->id, tracking::labelKey(label));
  } else if (sub == "note") {
    if (text.empty()) store.removeTag(run->id, tracking::kNoteTag);
    else store.setTag(run->id, tracking::kNoteTag, text);
  } else if (sub == "archive") {
    store.setTag(run->id, tracking::kArchivedTag, "1");
  } else {
    store.removeTag(run->id, tracking::kArchivedTag);
  }
  std::printf("%s %s\n", sub.c_str(), run->name.c_str());
  return 0;
}

}  // namespace

int runRuns(const CliArgs &args) {
  const std::string sub = args.positionals.empty() ? "list" : args.positionals[0];
  const std::string db = config::trackingDbPath(args.workspace());
  if (!std::filesystem::exists(db)) {
    std::fprintf(stderr, "torchwright: no tracking database at %s (train a run first, or pass --workspace)\n",
                 db.c_str());
    return 1;
  }
  auto store = tracking::Store::open(db);
  // A run whose launcher died (SIGKILL, a crashed machine) would read RUNNING forever.
  store->failSilentRuns();
  if (sub == "list") return listRuns(*store, args);
  if (sub == "show" && args.positionals.size() == 2) return showRun(*store, args.positionals[1]);
  if ((sub == "tag" || sub == "untag" || sub == "note" || sub == "archive" || sub == "unarchive") &&
      args.positionals.size() >= 2)
    return markRun(*store, sub, args.positionals);
  std::fprintf(stderr, "usage: torchwright runs list [--limit N] [--all] | runs show RUN | runs tag|untag RUN LABEL |"
                       " runs note RUN [TEXT] | runs archive|unarchive RUN\n");
  return 2;
}

}  // namespace tw::cli
