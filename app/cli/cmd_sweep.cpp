// `torchwright sweep SWEEP.yaml` and `sweep --resume STUDY`: check the sweep file completely,
// record the study (or find it again), take the study's driver lock and run it to its budget
// (app/cli/sweep_driver.cpp). `--detach` does the same in its own session, for Studio.

#include "app/cli/commands.h"
#include "app/cli/detach.h"
#include "app/cli/driver_lock.h"
#include "app/cli/launch_setup.h"
#include "app/cli/cluster_trial.h"
#include "app/cli/study_ref.h"
#include "app/cli/study_trials.h"
#include "app/cli/sweep_driver.h"
#include "app/cli/usage.h"

#include "core/config/workspace.h"
#include "core/spec/analysis.h"
#include "core/spec/model_spec.h"
#include "core/validate/validate_run.h"
#include "tracking/workspace_store.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace tw::cli {

namespace {

// The base run as a run file checks it: a base that cannot train makes every trial fail.
bool checkBase(const sweep::SweepFile &sweep) {
  const std::string where = sweep.baseFile.empty() ? sweep.sourceFile + " (base)" : sweep.baseFile;
  try {
    const config::RunConfig base = config::parseRunConfig(sweep.baseYaml, where);
    const spec::Analysis analysis = spec::analyze(spec::parseModelYaml(base.modelYaml, base.modelFile));
    if (!analysis.ok()) {
      printDiagnostics(analysis.diagnostics);
      return false;
    }
    const validate::RunCheck check = validate::validateRun(base, analysis);
    if (!check.ok()) {
      std::fprintf(stderr, "%s\n", spec::formatDiagnostics(check.diagnostics).c_str());
      return false;
    }
  } catch (const spec::SpecError &e) {
    printDiagnostics(e.diagnostics());
    return false;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torchwright: %s\n", e.what());
    return false;
  }
  return true;
}

// A cluster executor's request, put to the scheduler or the API server before the study is
// recorded or any job is submitted: a partition that does not exist, a missing sbatch or kubectl,
// a request no node can meet.
bool checkExecutor(const sweep::SweepFile &sweep, const std::string &workspace) {
  if (!sweep.executor.cluster()) return true;
  const std::string problem = clusterRequestProblem(sweep.executor, workspace);
  if (problem.empty()) return true;
  const std::string where = sweep.sourceFile.empty() ? std::string("the study's sweep") : sweep.sourceFile;
  std::fprintf(stderr, "torchwright: %s: executor: %s\nNo job was submitted.\n", where.c_str(), problem.c_str());
  return false;
}

std::string baseAsRun(const sweep::SweepFile &sweep) {
  return config::toYaml(config::parseRunConfig(sweep.baseYaml, sweep.baseFile));
}

void writeText(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
}

// What changed in the base since the study recorded it, key by key ("train.lr: 0.001 -> 0.01").
std::string baseChanges(const std::string &recordedBase, const sweep::SweepFile &sweep) {
  const config::RunConfig beforeRun = config::parseRunConfig(recordedBase, "the recorded base");
  const config::RunConfig afterRun = config::parseRunConfig(sweep.baseYaml, sweep.baseFile);
  const auto before = config::flattenConfig(beforeRun);
  const auto after = config::flattenConfig(afterRun);
  std::string out;
  // Model texts differ in form (the recorded one is re-emitted); their hashes in the same run do not.
  config::RunConfig withOldModel = afterRun;
  withOldModel.modelYaml = beforeRun.modelYaml;
  if (config::configHash(withOldModel) != config::configHash(afterRun))
    out += "\n  the model" + (afterRun.modelFile.empty() ? std::string() : " (" + afterRun.modelFile + ")") +
           " is not the one the study started with";
  for (const auto &[key, value] : after) {
    if (key == "model.file") continue;  // the recorded base has its model inlined; compared above
    auto old = before.find(key);
    const std::string was = old == before.end() ? "(unset)" : old->second;
    if (was != value) out += "\n  " + key + ": " + was + " -> " + value;
  }
  for (const auto &[key, value] : before)
    if (!after.count(key) && key != "model.file") out += "\n  " + key + ": " + value + " -> (unset)";
  return out;
}

// Leaves the terminal's session, as `launch --detach` does; the parent prints the study's id
// alone on stdout (Studio reads it) and returns false.
bool detach(const tracking::StudyRecord &study, const std::string &folder) {
  const pid_t pid = detachTo((fs::path(folder) / "driver.log").string());
  if (pid > 0) {
    std::printf("%s\n", study.uuid.c_str());
    std::fprintf(stderr, "study %s runs in the background (pid %d); follow it with `torchwright study show %s`\n",
                 study.name.c_str(), static_cast<int>(pid), study.uuid.substr(0, 8).c_str());
    return false;
  }
  return true;
}

// `newSets`: a resume's `--set` settings, recorded with the study once its lock is held, so that
// later resumes and `study ask` apply them too.
int drive(std::unique_ptr<tracking::Store> store, const tracking::StudyRecord &study, const sweep::SweepFile &sweep,
          const CliArgs &args, const std::string &selfPath, bool resume, const std::vector<std::string> &newSets = {}) {
  const std::string workspace = args.workspace();
  const std::string folder = studyFolder(workspace, study);
  fs::create_directories(folder);
  if (args.hasFlag("--detach")) {
    // SQLite connections must not cross a fork (see cmd_launch.cpp): close, reopen in the child.
    store.reset();
    if (!detach(study, folder)) return 0;
    store = tracking::Store::open(tracking::workspaceStore(workspace));
  }
  int holder = 0;
  DriverLock lock((fs::path(folder) / "driver.lock").string(), &holder);
  if (!lock.held()) {
    std::fprintf(stderr, "torchwright: study %s is being run by another sweep process (pid %d); stop it first\n",
                 study.name.c_str(), holder);
    return 1;
  }
  if (!newSets.empty()) {
    const auto current = store->study(study.id);
    store->setStudySweepYaml(study.id, app::sweepTextWithOverrides(current ? current->sweepYaml : study.sweepYaml, newSets));
  }
  DriverOptions options;
  options.workspace = fs::absolute(workspace).string();  // trial processes may not share our directory
  options.selfPath = selfPath;
  options.resume = resume;
  return driveStudy(*store, study, sweep, options);
}

// `sets`: --resume's settings; --continue gives none (the study recorded the file's when it started).
int resumeSweep(const CliArgs &args, const std::string &selfPath, const std::string &studyRef,
                const std::vector<std::string> &sets) {
  const std::string workspace = args.workspace();
  auto store = openExistingStore(workspace, studyRef);
  if (!store) return 1;
  const auto study = resolveStudy(*store, studyRef);
  if (!study) return 1;
  sweep::SweepFile sweep;
  try {
    sweep = recordedSweep(*study, /*requireBase=*/false, sets);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torchwright: study %s: %s\n", study->name.c_str(), e.what());
    return 1;
  }
  if (sweep.baseYaml.empty()) {
    std::fprintf(stderr, "torchwright: study %s has no base run; its trials come from `torchwright study ask` and "
                 "`study tell`\n", study->name.c_str());
    return 1;
  }
  if (sweep::baseHash(sweep) != study->baseHash) {
    const std::string base = sweep.baseFile.empty() ? std::string("the base run") : sweep.baseFile;
    std::string changes;
    std::ifstream recorded(fs::path(studyFolder(workspace, *study)) / "base.yaml");
    if (recorded) {
      std::stringstream text;
      text << recorded.rdbuf();
      try {
        changes = baseChanges(text.str(), sweep);
      } catch (const std::exception &) {
      }
    }
    if (changes.empty()) changes = " (its configuration hash differs from the one recorded)";
    else changes = ":" + changes;
    std::fprintf(stderr, "torchwright: %s changed since study %s started%s\nNew trials would not be comparable with "
                 "the old ones: restore it, or start a new study (`study: NAME` in the sweep file)\n",
                 base.c_str(), study->name.c_str(), changes.c_str());
    return 1;
  }
  if (!checkBase(sweep) || !checkExecutor(sweep, workspace)) return 1;
  std::printf("resuming study %s (%s)\n", study->name.c_str(), study->uuid.c_str());
  return drive(std::move(store), *study, sweep, args, selfPath, /*resume=*/true, sets);
}

}  // namespace

int runSweep(const CliArgs &args, const std::string &selfPath) {
  if (!args.option("--resume").empty()) {
    if (!args.positionals.empty())
      return usageError("sweep", "--resume continues a study with its recorded sweep; it takes no sweep file");
    for (const std::string &set : args.all("--set"))
      if (!sweep::changeableOnResume(set.substr(0, set.find('='))))
        return usageError("sweep", "--resume --set changes how much more to run and how (budget.*, parallel, "
                                   "retries, sampler.*, pruner.*), not what the trials are; got '" + set + "'");
    if (args.hasFlag("--continue")) return usageError("sweep", "--continue takes a sweep file; --resume takes a study");
    return resumeSweep(args, selfPath, args.option("--resume"), args.all("--set"));
  }
  if (args.positionals.size() != 1) return usageError("sweep");
  sweep::SweepFile sweep;
  try {
    sweep = sweep::loadSweepFile(args.positionals[0], args.all("--set"));
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torchwright: %s\n", e.what());
    return 1;
  }
  const std::string workspace = args.workspace();
  if (!checkBase(sweep) || !checkExecutor(sweep, workspace)) return 1;

  config::ensureWorkspace(workspace);
  auto store = tracking::Store::open(tracking::workspaceStore(workspace));
  if (auto existing = store->findStudy(sweep.studyName); existing && existing->name == sweep.studyName) {
    if (args.hasFlag("--continue")) {
      store.reset();
      return resumeSweep(args, selfPath, existing->uuid, {});
    }
    std::fprintf(stderr, "torchwright: a study named '%s' exists already (%s); continue it with `torchwright sweep "
                 "--resume %s`, or name a new one (`study: NAME` in the sweep file, or --set study=NAME)\n",
                 sweep.studyName.c_str(), existing->uuid.substr(0, 8).c_str(), sweep.studyName.c_str());
    return 1;
  }
  const tracking::StudyRecord study = store->createStudy(newStudy(sweep, args.all("--set")));
  const std::string folder = studyFolder(workspace, study);
  fs::create_directories(folder);
  writeText((fs::path(folder) / "base.yaml").string(), baseAsRun(sweep));  // what a resume compares with
  if (!args.hasFlag("--detach"))
    std::printf("study %s (%s) in experiment '%s'\n", study.name.c_str(), study.uuid.c_str(), study.experiment.c_str());
  return drive(std::move(store), study, sweep, args, selfPath, /*resume=*/false);
}

}  // namespace tw::cli
