// `torchwright data bench RUN.yaml`: the input pipeline alone. Reads the run's data source the way
// training does (core/data's readSource: list, read, decode) at each worker count asked for and
// prints examples per second, so `data.workers` can be sized before training.

#include "app/cli/commands.h"
#include "app/cli/usage.h"

#include "core/config/run_config.h"
#include "core/data/data_sources.h"
#include "core/data/json_text.h"
#include "core/data/parallel_for.h"

#include <chrono>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

namespace tw::cli {

namespace {

// "1,2,auto" -> {1, 2, 0}; 0 stands for auto (one per core).
std::vector<int64_t> workerCounts(const std::string &text) {
  std::vector<int64_t> counts;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item == "auto") {
      counts.push_back(0);
      continue;
    }
    try {
      size_t used = 0;
      const long long n = std::stoll(item, &used);
      if (used != item.size() || n < 1 || n > 256) throw std::invalid_argument(item);
      counts.push_back(n);
    } catch (const std::exception &) {
      throw UsageError("--workers: '" + item + "' is not a worker count (1 to 256 or auto)");
    }
  }
  if (counts.empty()) throw UsageError("--workers: give counts such as 1,2,auto");
  return counts;
}

struct Pass {
  int64_t requested = 0;
  int workers = 0;
  int64_t examples = 0;
  double seconds = 0.0;
};

Pass measure(config::DataOptions data, int64_t seed, int64_t workers) {
  data.workers = workers;
  const auto start = std::chrono::steady_clock::now();
  const data::SourceData read = data::readSource(data, seed);
  Pass pass;
  pass.requested = workers;
  pass.workers = data::decodeWorkers(workers);
  pass.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  pass.examples = read.examples.count + (read.hasOwnTest ? read.ownTest.count : 0);
  return pass;
}

}  // namespace

int runData(const CliArgs &args) {
  const std::string sub = args.positionals.empty() ? std::string() : args.positionals.front();
  if (sub != "bench" || args.positionals.size() != 2) return usageError("data bench");
  const config::RunConfig run = config::loadRunConfig(args.positionals[1], args.all("--set"), false);
  const std::vector<int64_t> counts = workerCounts(args.option("--workers", "1,2,auto"));
  const bool json = args.hasFlag("--json");

  // An untimed pass first, so every timed one reads from the page cache alike.
  if (!json) std::printf("warming the page cache: one untimed pass over %s\n", run.data.path.empty() ? run.data.dataset.c_str() : run.data.path.c_str());
  measure(run.data, run.train.seed, 0);
  std::vector<Pass> passes;
  for (int64_t count : counts) passes.push_back(measure(run.data, run.train.seed, count));

  if (json) {
    std::string out = "{\"dataset\": " + data::jsonString(run.data.dataset) + ", \"passes\": [";
    for (size_t i = 0; i < passes.size(); ++i)
      out += std::string(i ? ", " : "") + "{\"workers\": " + std::to_string(passes[i].workers) +
             ", \"auto\": " + (passes[i].requested == 0 ? "true" : "false") + ", \"examples\": " +
             std::to_string(passes[i].examples) + ", \"seconds\": " + std::to_string(passes[i].seconds) +
             ", \"examples_per_s\": " + std::to_string(passes[i].examples / passes[i].seconds) + "}";
    std::printf("%s]}\n", out.c_str());
    return 0;
  }
  std::printf("%-10s %10s %9s %12s %8s\n", "workers", "examples", "seconds", "examples/s", "speed-up");
  for (const Pass &pass : passes) {
    const std::string label = std::to_string(pass.workers) + (pass.requested == 0 ? " (auto)" : "");
    std::printf("%-10s %10lld %9.2f %12.0f %7.2fx\n", label.c_str(), static_cast<long long>(pass.examples), pass.seconds,
                pass.examples / pass.seconds, passes.front().seconds / pass.seconds);
  }
  return 0;
}

}  // namespace tw::cli
