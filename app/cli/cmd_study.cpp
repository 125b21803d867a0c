// `torchwright study list|show|create|ask|tell`: studies as the tracking database holds them,
// and Optuna's ask-and-tell from the command line, so any program can be a study's objective:
//
//   id=$(torchwright study create search.yaml)
//   torchwright study ask $id --json          # {"number": 0, "params": {"x": 1.25}}
//   torchwright study tell $id 0 0.031

#include "app/cli/commands.h"
#include "app/cli/json_text.h"
#include "app/cli/study_ref.h"
#include "app/cli/study_trials.h"
#include "app/cli/table_printer.h"
#include "app/cli/usage.h"

#include "core/config/workspace.h"
#include "core/sweep/trial_params.h"
#include "tracking/workspace_store.h"
#include "tracking/study_liveness.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace fs = std::filesystem;

namespace tw::cli {

namespace {

using Members = std::vector<std::pair<std::string, std::string>>;

std::unique_ptr<tracking::Store> openStore(const CliArgs &args) {
  return tracking::Store::open(tracking::workspaceStore(args.workspace()));
}

// Parameters as JSON, each value with the type its text has in YAML, so a categorical's numbers
// and bools print as such (`choices: [32, 64]` gives 64, not "64"). A value JSON cannot spell (.inf)
// stays its text rather than becoming null.
std::string jsonParams(const std::map<std::string, std::string> &params) {
  Members members;
  for (const auto &[key, text] : params) {
    const spec::ParamValue value = sweep::paramValue(text);
    std::string out = json::string(text);
    if (auto i = std::get_if<int64_t>(&value)) out = json::number(static_cast<long long>(*i));
    else if (auto d = std::get_if<double>(&value); d && std::isfinite(*d)) out = json::number(*d);
    else if (auto b = std::get_if<bool>(&value)) out = json::boolean(*b);
    members.push_back({key, out});
  }
  return json::object(members);
}

std::string jsonTrial(const tracking::TrialRecord &t, size_t objectives, const tracking::Store &store) {
  const bool complete = t.state == "COMPLETE" && t.values.size() == objectives;
  std::string value = "null";
  if (complete) {
    if (objectives == 1) {
      value = json::number(t.values.front());
    } else {
      std::vector<std::string> values;
      for (double v : t.values) values.push_back(json::number(v));
      value = json::array(values);
    }
  }
  std::string run = "null";
  if (t.runId != 0)
    if (auto record = store.run(t.runId)) run = json::string(record->uuid);
  Members members = {{"number", json::number(static_cast<long long>(t.number))},
                     {"state", json::string(t.state)},
                     {objectives == 1 ? "value" : "values", value},
                     {"params", jsonParams(t.params)},
                     {"run", run}};
  if (!t.message.empty()) members.push_back({"message", json::string(t.message)});
  return json::object(members);
}

std::string valuesText(const tracking::TrialRecord &t) {
  if (t.state != "COMPLETE" || t.values.empty()) return "-";
  std::string out;
  for (double v : t.values) out += (out.empty() ? "" : ", ") + formatMetric(v);
  return out;
}

std::string bestText(const tracking::StudyRecord &study, const std::vector<tracking::TrialRecord> &trials) {
  const auto directions = studyDirections(study);
  if (directions.size() == 1) {
    const auto best = bestTrial(trials, directions.front());
    return best ? formatMetric(best->values.front()) + " (#" + std::to_string(best->number) + ")" : "-";
  }
  return std::to_string(paretoFront(trials, directions).size()) + " on front";
}

// Every study, after those whose sweep died with its trials (a machine crash) have had their
// trials and runs failed: they read INTERRUPTED without anyone running `sweep --resume` first.
std::vector<tracking::StudyRecord> settledStudies(tracking::Store &store) {
  store.failSilentRuns();
  std::vector<tracking::StudyRecord> studies = store.listStudies();
  tracking::settleInterruptedStudies(store, studies);
  return studies;
}

int listStudies(const CliArgs &args) {
  const bool exists = tracking::storeMayExist(tracking::workspaceStore(args.workspace()));
  auto store = exists ? openStore(args) : nullptr;
  const auto studies = store ? settledStudies(*store) : std::vector<tracking::StudyRecord>{};
  const int64_t now = tracking::nowMs();
  if (args.hasFlag("--json")) {
    std::vector<std::string> rows;
    for (const auto &s : studies) {
      const auto trials = store->trials(s.id);
      std::map<std::string, long long> states;
      for (const auto &t : trials) ++states[t.state];
      Members stateMembers;
      for (const auto &[state, n] : states) stateMembers.push_back({state, json::number(n)});
      const auto directions = studyDirections(s);
      std::string best = "null";
      if (directions.size() == 1)
        if (auto b = bestTrial(trials, directions.front())) best = json::number(b->values.front());
      rows.push_back(json::object({{"id", json::string(s.uuid)},
                                   {"name", json::string(s.name)},
                                   {"experiment", json::string(s.experiment)},
                                   {"status", json::string(tracking::studyStatusNow(s, now))},
                                   {"metrics", json::string(s.metrics)},
                                   {"directions", json::string(s.directions)},
                                   {"trials", json::number(static_cast<long long>(trials.size()))},
                                   {"states", json::object(stateMembers)},
                                   {"best", best},
                                   {"created_ms", json::number(static_cast<long long>(s.createdMs))}}));
    }
    std::printf("%s\n", json::array(rows).c_str());
    return 0;
  }
  TablePrinter table({"ID", "NAME", "STATUS", "TRIALS", "OBJECTIVE", "BEST", "CREATED"},
                     {false, false, false, true, false, true, false});
  for (const auto &s : studies) {
    const auto trials = store->trials(s.id);
    table.addRow({s.uuid.substr(0, 8), s.name, tracking::studyStatusNow(s, now), std::to_string(trials.size()),
                  s.metrics + " (" + s.directions + ")", bestText(s, trials), formatTimestamp(s.createdMs)});
  }
  std::printf("%s%zu stud%s\n", table.str().c_str(), studies.size(), studies.size() == 1 ? "y" : "ies");
  return 0;
}

int showStudy(const CliArgs &args) {
  if (args.positionals.size() != 2) return usageError("study show");
  auto store = openExistingStore(args.workspace(), args.positionals[1]);
  if (!store) return 1;
  settledStudies(*store);
  const auto study = resolveStudy(*store, args.positionals[1]);
  if (!study) return 1;
  const auto trials = store->trials(study->id);
  const auto directions = studyDirections(*study);
  const auto front = directions.size() > 1 ? paretoFront(trials, directions) : std::vector<tracking::TrialRecord>{};
  const auto best = directions.size() == 1 ? bestTrial(trials, directions.front()) : std::nullopt;
  if (args.hasFlag("--json")) {
    std::vector<std::string> rows, frontRows;
    for (const auto &t : trials) rows.push_back(jsonTrial(t, directions.size(), *store));
    Members members = {{"status", json::string(tracking::studyStatusNow(*study, tracking::nowMs()))},
                       {"trials", json::array(rows)},
                       {"best", best ? jsonTrial(*best, 1, *store) : std::string("null")}};
    if (directions.size() > 1) {
      for (const auto &t : front) frontRows.push_back(jsonTrial(t, directions.size(), *store));
      members.push_back({"pareto_front", json::array(frontRows)});
    }
    std::printf("%s\n", json::object(members).c_str());
    return 0;
  }
  std::printf("study %s (%s), experiment '%s', %s\nobjective: %s (%s)\n\n", study->name.c_str(), study->uuid.c_str(),
              study->experiment.c_str(), tracking::studyStatusNow(*study, tracking::nowMs()).c_str(),
              study->metrics.c_str(), study->directions.c_str());
  TablePrinter table({"#", "STATE", "VALUE", "DURATION", "RUN", "PARAMETERS", "NOTE"},
                     {true, false, true, true, false, false, false});
  for (const auto &t : trials) {
    std::string run = "-";
    if (t.runId != 0)
      if (auto record = store->run(t.runId)) run = record->uuid.substr(0, 8);
    const int64_t duration = t.startMs > 0 ? (t.endMs ? t.endMs : tracking::nowMs()) - t.startMs : 0;
    std::string note = t.message.substr(0, t.message.find('\n'));
    if (t.retryOf >= 0) note = "retries #" + std::to_string(t.retryOf) + (note.empty() ? "" : "; " + note);
    table.addRow({std::to_string(t.number), t.state, valuesText(t), formatDuration(duration), run,
                  paramsLine(t.params), note.empty() ? "-" : note});
  }
  std::printf("%s", table.str().c_str());
  if (best) std::printf("\nbest: trial %d, %s %s (%s)\n", best->number, study->metrics.c_str(),
                        formatMetric(best->values.front()).c_str(), paramsLine(best->params).c_str());
  if (directions.size() > 1) {
    std::printf("\nPareto front (%s):\n", study->metrics.c_str());
    for (const auto &t : front) std::printf("  trial %d: %s\n", t.number, valuesText(t).c_str());
  }
  return 0;
}

int createStudy(const CliArgs &args) {
  if (args.positionals.size() != 2) return usageError("study create");
  sweep::SweepFile sweep;
  try {
    sweep = sweep::loadSweepFile(args.positionals[1], args.all("--set"), /*requireBase=*/false);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torchwright: %s\n", e.what());
    return 1;
  }
  config::ensureWorkspace(args.workspace());
  auto store = openStore(args);
  const tracking::StudyRecord study = store->createStudy(newStudy(sweep, args.all("--set")));
  std::printf("%s\n", study.uuid.c_str());
  return 0;
}

int askStudy(const CliArgs &args) {
  if (args.positionals.size() != 2) return usageError("study ask");
  auto store = openExistingStore(args.workspace(), args.positionals[1]);
  if (!store) return 1;
  const auto study = resolveStudy(*store, args.positionals[1]);
  if (!study) return 1;
  sweep::SweepFile sweep;
  try {
    sweep = recordedSweep(*study, /*requireBase=*/false);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torchwright: study %s: %s\n", study->name.c_str(), e.what());
    return 1;
  }
  const tracking::TrialRecord trial = askTrial(*store, *study, sweep);
  if (args.hasFlag("--json")) {
    std::printf("%s\n", json::object({{"number", json::number(static_cast<long long>(trial.number))},
                                      {"params", jsonParams(trial.params)}})
                            .c_str());
  } else {
    std::printf("trial %d: %s\n", trial.number, paramsLine(trial.params).c_str());
  }
  return 0;
}

int tellStudy(const CliArgs &args) {
  const bool pruned = args.hasFlag("--pruned"), failed = args.hasFlag("--failed");
  if (args.positionals.size() < 3 || (pruned && failed)) return usageError("study tell");
  const std::string &numberText = args.positionals[2];
  if (numberText.empty() || numberText.find_first_not_of("0123456789") != std::string::npos || numberText.size() > 9)
    throw UsageError("NUMBER must be a trial number (0, 1, ...), got '" + numberText + "'");
  const int number = std::stoi(numberText);
  std::vector<double> values;
  for (size_t i = 3; i < args.positionals.size(); ++i) {
    const std::string &text = args.positionals[i];
    char *end = nullptr;
    errno = 0;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(v))
      throw UsageError("VALUE must be a finite number, got '" + text + "'");
    values.push_back(v);
  }
  if ((pruned || failed) && !values.empty()) throw UsageError("--pruned and --failed take no VALUE");
  auto store = openExistingStore(args.workspace(), args.positionals[1]);
  if (!store) return 1;
  const auto study = resolveStudy(*store, args.positionals[1]);
  if (!study) return 1;
  const size_t objectives = studyDirections(*study).size();
  if (!pruned && !failed && values.size() != objectives)
    throw UsageError("study " + study->name + " has " + std::to_string(objectives) + " objective" +
                     (objectives == 1 ? "" : "s") + " (" + study->metrics + "): give " + std::to_string(objectives) +
                     " VALUE" + (objectives == 1 ? "" : "s") + ", or --pruned or --failed");
  const auto trial = store->trial(study->id, number);
  if (!trial) {
    std::fprintf(stderr, "torchwright: study %s has no trial %d\n", study->name.c_str(), number);
    return 1;
  }
  if (trial->state != "RUNNING" && trial->state != "WAITING") {
    std::fprintf(stderr, "torchwright: trial %d of study %s is %s already; a finished trial is never told twice\n",
                 number, study->name.c_str(), trial->state.c_str());
    return 1;
  }
  const std::string state = pruned ? "PRUNED" : failed ? "FAILED" : "COMPLETE";
  store->setTrialState(study->id, number, state, values, pruned || failed ? "told by `study tell`" : "");
  std::printf("trial %d of study %s: %s\n", number, study->name.c_str(), state.c_str());
  return 0;
}

}  // namespace

int runStudy(const CliArgs &args) {
  const std::string sub = args.positionals.empty() ? "list" : args.positionals.front();
  if (sub == "list") return listStudies(args);
  if (sub == "show") return showStudy(args);
  if (sub == "create") return createStudy(args);
  if (sub == "ask") return askStudy(args);
  return tellStudy(args);
}

}  // namespace tw::cli
