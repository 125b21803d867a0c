#pragma once
// Internal to core/sweep: the sections of a sweep file other than the space, each read with its
// problems located at the key. sweep_parser.cpp calls them in order.

#include "core/sweep/sweep_file.h"
#include "core/sweep/sweep_problems.h"

#include <optional>
#include <string>
#include <vector>

namespace tw::sweep::detail {

// `base`: a run file (relative to the sweep file) or an inline run map. Fills baseFile and
// baseYaml; returns the base's configuration when it loads and its model parses.
std::optional<config::RunConfig> readBase(const YAML::Node &node, SweepFile &sweep, Problems &problems);

// `objective`: {metric, direction}, a metric alone, or a list of two. Absent: the base's
// train.monitor. The metric must be one the base's task records (when there is a base).
std::vector<Objective> readObjectives(const YAML::Node &node, const YAML::Node &root, const config::RunConfig *base,
                                      Problems &problems);

// `sampler` and `pruner`: a name or {type, ...options} (the sampler also takes `seed`), checked
// against the catalog. The sampler is then checked against the objectives and the space.
void readSampler(const YAML::Node &node, SweepFile &sweep, Problems &problems);
void readPruner(const YAML::Node &node, SweepFile &sweep, Problems &problems);
void checkSamplerFits(const YAML::Node &node, const YAML::Node &root, const SweepFile &sweep, Problems &problems);

// `budget`, `parallel`, `retries`, `study`.
Budget readBudget(const YAML::Node &node, Problems &problems);
void readParallel(const YAML::Node &node, SweepFile &sweep, Problems &problems);
int readRetries(const YAML::Node &node, Problems &problems);
std::string readStudyName(const YAML::Node &node, const std::string &fileName, Problems &problems);

// `executor`: local (the default), {type: slurm, partition, account, cpus, gpus, memory, time,
// sbatch: [options]} or {type: kubernetes, image, namespace, workspace_claim, store_secret, cpus,
// gpus, memory, time}; forms are checked here, the request by the scheduler or the API server
// before the study is recorded (cmd_sweep.cpp).
Executor readExecutor(const YAML::Node &node, Problems &problems);

// Applies `key=value` settings to the sweep file's own scalar keys (`budget.trials=10`,
// `space.train.lr.high=0.1`); throws config::ConfigError naming the override.
void applyOverrides(YAML::Node &root, const std::vector<std::string> &overrides);

}  // namespace tw::sweep::detail
