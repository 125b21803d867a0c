// `torchwright runs list|show|tag|untag|note|archive|unarchive`: what the tracking database knows, as
// terminal tables, and the labels, notes and archive marks Studio sets, from a script.

#include "app/cli/commands.h"
#include "app/cli/json_text.h"
#include "app/common/progress_line.h"
#include "app/cli/run_ref.h"
#include "app/cli/table_printer.h"
#include "app/cli/usage.h"
#include "app/common/model_graph.h"

#include "core/config/metric_keys.h"
#include "core/config/workspace.h"
#include "tracking/workspace_store.h"
#include "tracking/run_export.h"
#include "tracking/run_import.h"
#include "tracking/run_labels.h"
#include "tracking/store.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>

namespace tw::cli {

using app::ProgressLine;

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

// A run's record as JSON members; list and show add their own.
std::vector<std::pair<std::string, std::string>> jsonRun(const tracking::RunRecord &run,
                                                         const std::map<std::string, std::string> &tags) {
  auto optionalTime = [](int64_t ms) { return ms > 0 ? json::number(static_cast<long long>(ms)) : std::string("null"); };
  return {{"id", json::string(run.uuid)},
          {"name", json::string(run.name)},
          {"experiment", json::string(run.experiment)},
          {"status", json::string(tracking::runStatusName(run.status))},
          {"status_message", json::string(run.statusMessage)},
          {"start_ms", optionalTime(run.startMs)},
          {"end_ms", optionalTime(run.endMs)},
          {"duration_ms", json::number(static_cast<long long>(durationMs(run)))},
          {"labels", json::strings(tracking::labelsOf(tags))},
          {"archived", json::boolean(tracking::isArchived(tags))}};
}

std::string jsonMetrics(const std::vector<tracking::LatestMetric> &metrics) {
  std::vector<std::pair<std::string, std::string>> members;
  for (const auto &m : metrics)
    members.push_back({m.key, json::object({{"step", json::number(static_cast<long long>(m.step))},
                                            {"value", json::number(m.value)}})});
  return json::object(members);
}

std::string jsonMap(const std::map<std::string, std::string> &values) {
  std::vector<std::pair<std::string, std::string>> members;
  for (const auto &[key, value] : values) members.push_back({key, json::string(value)});
  return json::object(members);
}

int listRuns(tracking::Store &store, const CliArgs &args) {
  const int limit = static_cast<int>(integerOption(args, "--limit", 0, 0, 1000000000));
  const bool all = args.hasFlag("--all");
  if (args.hasFlag("--json")) {
    std::vector<std::string> rows;
    for (const auto &run : store.listRuns(limit)) {
      const auto tags = store.tags(run.id);
      if (tracking::isArchived(tags) && !all) continue;
      auto members = jsonRun(run, tags);
      members.push_back({"latest", jsonMetrics(store.latestMetrics(run.id))});
      rows.push_back(json::object(members));
    }
    std::printf("%s\n", json::array(rows).c_str());
    return 0;
  }
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

int showRunJson(tracking::Store &store, const tracking::RunRecord &run) {
  const auto tags = store.tags(run.id);
  std::vector<std::string> artifacts;
  for (const auto &a : store.artifacts(run.id))
    artifacts.push_back(json::object(
        {{"path", json::string(a.path)}, {"kind", json::string(a.kind)}, {"sha256", json::string(a.sha256)}}));
  auto members = jsonRun(run, tags);
  members.insert(members.end(), {{"seed", json::number(static_cast<long long>(run.seed))},
                                 {"config_hash", json::string(run.configHash)},
                                 {"data_fingerprint", json::string(run.dataFingerprint)},
                                 {"host", json::string(run.host)},
                                 {"hardware", json::string(run.hardware)},
                                 {"libraries", json::string(run.libraryVersions)},
                                 {"folder", json::string(run.runDir)},
                                 {"params", jsonMap(store.params(run.id))},
                                 {"tags", jsonMap(tags)},
                                 {"metrics", jsonMetrics(store.latestMetrics(run.id))},
                                 {"artifacts", json::array(artifacts)}});
  std::printf("%s\n", json::object(members).c_str());
  return 0;
}

int showRun(tracking::Store &store, const std::string &id, bool asJson) {
  auto run = resolveRun(store, id);
  if (!run) return 1;
  if (asJson) return showRunJson(store, *run);
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
  auto run = resolveRun(store, words[1]);
  if (!run) return 1;
  std::string text;
  for (size_t i = 2; i < words.size(); ++i) text += (text.empty() ? "" : " ") + words[i];
  if (sub == "tag" || sub == "untag") {
    const std::string label = tracking::normalizeLabel(text);
    if (label.empty()) return usageError("runs " + sub, "a label needs at least one letter or digit");
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

// export RUN... DIR --to tensorboard|mlflow: each run where its tool reads it.
int exportRuns(tracking::Store &store, const CliArgs &args) {
  const std::string to = args.option("--to");
  const tracking::ExportFormat format = to == "tensorboard" ? tracking::ExportFormat::TensorBoard : tracking::ExportFormat::MLflow;
  const std::string folder = args.positionals.back();
  std::vector<tracking::RunRecord> runs;
  for (size_t i = 1; i + 1 < args.positionals.size(); ++i) {
    auto run = resolveRun(store, args.positionals[i]);
    if (!run) return 1;
    runs.push_back(*run);
  }
  ProgressLine progress("exporting", "runs", static_cast<int64_t>(runs.size()));
  int64_t done = 0;
  for (const tracking::RunRecord &run : runs) {
    std::vector<tracking::GraphNode> graph;
    if (format == tracking::ExportFormat::TensorBoard) {
      try {
        graph = app::modelGraph(run.configYaml);
      } catch (const std::exception &e) {  // the scalars and params still go out
        progress.say("no model graph for " + run.name + ": " + e.what());
      }
    }
    try {
      const std::string where = tracking::exportRun(store, run, format, folder, args.hasFlag("--force"), graph);
      progress.update(++done);
      progress.say("exported " + run.name + " to " + where);
    } catch (const std::exception &e) {
      progress.finish();
      std::fprintf(stderr, "torchwright: exporting %s: %s\n", run.name.c_str(), e.what());
      return 1;
    }
  }
  return 0;
}

// import tensorboard|mlflow|csv PATH: runs from other tools, found again on a second import.
int importRuns(tracking::Store &store, const CliArgs &args) {
  const std::string &from = args.positionals[1];
  const tracking::ImportFormat format = from == "tensorboard" ? tracking::ImportFormat::TensorBoard
                                        : from == "mlflow"    ? tracking::ImportFormat::MLflow
                                                              : tracking::ImportFormat::Csv;
  tracking::ImportReport report;
  std::unique_ptr<ProgressLine> progress;  // made once the source is read and its runs counted
  try {
    report = tracking::importRuns(store, format, args.positionals[2], args.option("--experiment"),
                                  [&progress](size_t done, size_t total) {
                                    if (!progress) progress = std::make_unique<ProgressLine>("importing", "runs", int64_t(total));
                                    progress->update(int64_t(done));
                                  });
    if (progress) progress->finish();
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torchwright: importing %s: %s\n", args.positionals[2].c_str(), e.what());
    return 1;
  }
  for (const std::string &problem : report.problems) std::fprintf(stderr, "torchwright: warning: %s\n", problem.c_str());
  for (const tracking::ImportedRun &run : report.runs)
    std::printf("%s %s (%s, %lld metric points)\n", run.created ? "imported" : "found again", run.name.c_str(),
                run.uuid.substr(0, 8).c_str(), static_cast<long long>(run.points));
  return 0;
}

}  // namespace

int runRuns(const CliArgs &args) {
  const std::string sub = args.positionals.empty() ? "list" : args.positionals[0];
  // RUN, and a LABEL for tag and untag; note takes any number of words.
  const size_t words = args.positionals.size();
  const bool usageOk = sub == "list" ? words <= 1
                       : sub == "show" || sub == "archive" || sub == "unarchive" ? words == 2
                       : sub == "note" ? words >= 2
                                       : words >= 3;  // tag, untag; export RUN... DIR
  if (!usageOk) return usageError("runs " + sub);
  if (sub == "export" && args.option("--to") != "tensorboard" && args.option("--to") != "mlflow")
    return usageError("runs export", "--to takes tensorboard or mlflow");
  if (sub == "import" && (words != 3 || (args.positionals[1] != "tensorboard" && args.positionals[1] != "mlflow" &&
                                         args.positionals[1] != "csv")))
    return usageError("runs import", words != 3 ? std::string() : "imports from tensorboard, mlflow or csv");
  if (sub == "list") integerOption(args, "--limit", 0, 0, 1000000000);  // bad usage before a missing database
  if (sub == "import") config::ensureWorkspace(args.workspace());  // imported runs may be its first
  const std::string db = tracking::workspaceStore(args.workspace());
  if (sub != "import" && !tracking::storeMayExist(db)) {
    std::fprintf(stderr, "torchwright: no tracking database at %s (train a run first, or pass --workspace)\n",
                 db.c_str());
    return 1;
  }
  auto store = tracking::Store::open(db);
  // A run whose launcher died (SIGKILL, a crashed machine) would read RUNNING forever.
  store->failSilentRuns();
  if (sub == "list") return listRuns(*store, args);
  if (sub == "show") return showRun(*store, args.positionals[1], args.hasFlag("--json"));
  if (sub == "export") return exportRuns(*store, args);
  if (sub == "import") return importRuns(*store, args);
  return markRun(*store, sub, args.positionals);
}

}  // namespace tw::cli
