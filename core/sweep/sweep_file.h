#pragma once
// A sweep file: what to search (the space), over which run (the base), for what (objectives),
// how (sampler, pruner) and how long (budget), with how many trials at once (parallel).
//
//   base: fashion_mlp.run.yaml          # a run file (relative to this file) or an inline run map
//   objective: {metric: val/accuracy, direction: maximize}   # or a list of two
//   space:
//     train.lr: {type: float, low: 1.0e-4, high: 0.3, log: true}
//     train.optimizer: {type: categorical, choices: [sgd, adam]}   # or just [sgd, adam]
//     train.momentum: {type: float, low: 0.0, high: 0.95, when: {train.optimizer: sgd}}
//     model.h1.width: {type: int, low: 32, high: 512, step: 32}
//   sampler: {type: tpe, seed: 1}        # catalog options (core/search/catalog.h); default: the
//                                        # catalog's defaultSamplerName() (tpe, multivariate), seed 0
//   pruner: {type: median}               # default none
//   budget: {trials: 24, minutes: 30}   # at least one; the first reached ends the sweep
//   parallel: 2                          # or auto; default 1
//   retries: 0                           # a FAILED trial is asked again this many times
//   executor: {type: slurm, partition: gpu, cpus: 4, gpus: 1, memory: 16G, time: "02:00:00"}
//                                        # default local: trials as processes on this machine;
//                                        # or {type: kubernetes, image: ..., workspace_claim: ...}
//   study: lr-search                     # the study's name (default: the file's stem, less `.sweep`)
//
// Every space key is checked against the config table (run-file keys: kind, range, choices) or
// the base model (model.<node id>.<field>, a node's registry field or a block instance's
// parameter; see model_fields.h) before the first trial, and every problem names the file, line
// and key. An objective's metric is a validation metric the base's task records (val/loss,
// val/accuracy, ...), its direction by default the one metric_direction.h gives it; absent, the
// objective is the base's train.monitor. Beside another metric, an objective may be `params`,
// the model's parameter count (spec::analyze counts it), smaller being better by default.
// Without a base (`requireBase` false, for `study create`) the objective is an external
// program's: its metric is any name, and so is every space key.

#include "core/config/run_config.h"
#include "core/search/catalog.h"
#include "core/search/space.h"
#include "core/search/trial.h"
#include "core/spec/diagnostic.h"

#include <optional>
#include <string>
#include <vector>

namespace tw::sweep {

struct Objective {
  std::string metric = "val/accuracy";  // a metric the base run's task records
  search::Direction direction = search::Direction::Maximize;
};

struct Budget {
  int trials = 0;        // 0 = no limit on the count
  double minutes = 0.0;  // 0 = no limit on the time
};

// Where the trials run. `local`: processes on this machine, each on its own cores (core_plan.h).
// `slurm`: each trial a batch job of the cluster's scheduler with this request; `kubernetes`: each
// trial a Job in the cluster kubectl reaches. `parallel` is then how many jobs the driver keeps
// queued or running at once.
struct Executor {
  std::string type = "local";  // local | slurm | kubernetes
  std::string partition;       // empty: the cluster's default partition
  std::string account;         // empty: the user's default account
  int cpus = 1;                // --cpus-per-task, per trial
  int gpus = 0;                // --gpus, per trial
  std::string memory;          // --mem, SLURM's form (4000, 500M, 16G); empty: the partition's default
  std::string time;            // --time, SLURM's form (30, 01:30:00, 2-00:00:00); empty: the partition's
  std::vector<std::string> sbatchOptions;  // further sbatch options, passed as written
  // Kubernetes: the container image with torchwright on its PATH, the namespace (empty: kubectl's
  // current one), the PersistentVolumeClaim holding the workspace (mounted at the workspace's own
  // path, which the recorded runs name), and a Secret whose key `url` is the store's URL.
  std::string image;
  std::string kubeNamespace;
  std::string workspaceClaim;
  std::string storeSecret;
  bool slurm() const { return type == "slurm"; }
  bool kubernetes() const { return type == "kubernetes"; }
  bool cluster() const { return slurm() || kubernetes(); }
};

struct SweepFile {
  std::string sourceFile;  // the sweep file, empty when parsed from text without a name
  std::string studyName;
  // The base run: the file it names (absolute) or empty when inline; the run file's text as the
  // trials start from it (an inline map serialised). Empty `baseYaml`: no base (`study create`).
  std::string baseFile;
  std::string baseYaml;
  std::vector<Objective> objectives;  // one, or two for a multi-objective study
  search::SearchSpace space;
  std::string sampler = search::defaultSamplerName();
  search::OptionValues samplerOptions;  // without "type" and "seed"
  uint64_t seed = 0;
  std::string pruner = "none";
  search::OptionValues prunerOptions;   // without "type"
  Budget budget;
  int parallel = 1;
  bool parallelAuto = false;
  int retries = 0;
  Executor executor;
  std::string text;  // the sweep file as read, recorded with the study
};

// Parses and checks the file completely (syntax, the space against the config table and the base
// model, sampler and pruner against the catalog, budget, objectives); throws config::ConfigError
// whose message lists every problem, each with file:line:column and the key. `overrides` are
// dotted `key=value` settings applied to the sweep file itself (`budget.trials=10`).
SweepFile loadSweepFile(const std::string &path, const std::vector<std::string> &overrides = {},
                        bool requireBase = true);
SweepFile parseSweepFile(const std::string &yamlText, const std::string &fileName,
                         const std::vector<std::string> &overrides = {}, bool requireBase = true);

// Whether `sweep --resume --set KEY=VALUE` may change a key: how much more to run and how
// (budget, parallel, retries, sampler, pruner, executor), never what the trials are (the space, the base,
// the objectives), so the old trials and the new stay comparable.
bool changeableOnResume(const std::string &key);

// The run configuration of a trial: the base with `params` applied (run-file keys through the
// config table, model fields into the model). Throws config::ConfigError when a value does not
// apply. The result still needs validate::validateRun (the trial's model may not fit).
config::RunConfig trialConfig(const SweepFile &sweep, const search::Params &params);

// The base run's configuration hash, recorded with the study so that a resume can tell whether
// the base changed since.
std::string baseHash(const SweepFile &sweep);

}  // namespace tw::sweep
