// `torchwright data bench RUN.yaml`: the input pipeline alone, at each worker count asked for, in
// examples per second, so `data.workers` can be sized before training. A source read whole
// (IDX, CSV within data.memory_mb, shards) is timed from reading to split and standardised; a
// streamed one (image folders, a CSV past data.memory_mb) is timed as an epoch of training reads
// it: opened, its statistics sampled, then every training example in a shuffled order, batch by
// batch through core/data's image_batch.h (decoded, standardised floats, no cache) or csv_rows.h.

#include "app/cli/commands.h"
#include "app/cli/usage.h"

#include "core/config/data_source_table.h"
#include "core/config/run_config.h"
#include "core/data/data_sources.h"
#include "core/data/data_splits.h"
#include "core/data/example_cache.h"
#include "core/data/image_batch.h"
#include "core/data/random.h"
#include "core/data/standardize.h"
#include "core/data/json_text.h"
#include "core/data/parallel_for.h"

#include <algorithm>
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
  double firstBatchSeconds = 0.0;  // streamed: from opening to the first batch ready
  bool streamed = false;
};

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

Pass measure(config::DataOptions data, int64_t seed, int64_t workers) {
  data.workers = workers;
  Pass pass;
  pass.requested = workers;
  pass.workers = data::decodeWorkers(workers);
  const auto start = std::chrono::steady_clock::now();
  const config::DataSourceInfo *source = config::findDataSource(data.dataset);
  data::ModelUse use;
  use.indexInputs = source && source->family == config::SourceFamily::TokenFile;  // ids, as its model takes them
  const data::DataSplits splits = data::loadDataSplits(data, seed, use);
  if (splits.tokens) {
    // Every training window once in a shuffled order, batch by batch, as an epoch reads them.
    const data::TokenWindows &train = splits.tokens->train;
    const int64_t n = train.windows(), width = train.seqLen() + 1;
    const std::vector<int64_t> order =
        data::permutation(n, data::mixSeed(data::mixSeed(static_cast<uint64_t>(seed), data::kShuffleStream), 1));
    std::vector<int64_t> ids(static_cast<size_t>(width));
    for (int64_t k = 0; k < n; ++k) {
      train.read(order[static_cast<size_t>(k)], ids.data());
      if (k + 1 == std::min(n, data.batchSize)) pass.firstBatchSeconds = secondsSince(start);
    }
    pass.streamed = true;
    pass.seconds = secondsSince(start);
    pass.examples = n;
    return pass;
  }
  if (splits.tableRows) {
    // A table past data.memory_mb: its training rows parsed from the file in a shuffled order,
    // batch by batch on the workers and standardised, as an epoch reads them (engine/dataset.cpp).
    const int64_t n = static_cast<int64_t>(splits.trainRows.size()), batch = std::max<int64_t>(1, data.batchSize);
    const std::vector<int64_t> order =
        data::permutation(n, data::mixSeed(data::mixSeed(static_cast<uint64_t>(seed), data::kShuffleStream), 1));
    data::Standardizer standardizer;
    standardizer.mean = splits.preprocessing.featureMean;
    standardizer.stddev = splits.preprocessing.featureStd;
    std::vector<float> out(static_cast<size_t>(batch * splits.tableRows->width()));
    std::vector<int64_t> rows;
    for (int64_t b = 0; b < n; b += batch) {
      rows.clear();
      for (int64_t k = b; k < std::min(n, b + batch); ++k)
        rows.push_back(splits.trainRows[static_cast<size_t>(order[static_cast<size_t>(k)])]);
      const int64_t count = static_cast<int64_t>(rows.size());
      splits.tableRows->read(rows.data(), count, out.data(), static_cast<int>(workers));
      if (!standardizer.mean.empty()) standardizer.apply(out.data(), count);
      if (b == 0) pass.firstBatchSeconds = secondsSince(start);
    }
    pass.streamed = true;
    pass.seconds = secondsSince(start);
    pass.examples = n;
    return pass;
  }
  if (!splits.store) {
    pass.seconds = secondsSince(start);
    pass.examples = splits.train.count + splits.val.count + splits.test.count;
    return pass;
  }
  pass.streamed = true;
  data::ExampleCache uncached(splits.store, 0);
  const data::Preprocessing &p = splits.preprocessing;
  const data::ByteTable table = data::standardisedBytes(p.standardization == "image", p.imageMean, p.imageStd);
  const int64_t n = static_cast<int64_t>(splits.trainRows.size()), batch = std::max<int64_t>(1, data.batchSize);
  const std::vector<int64_t> order =
      data::permutation(n, data::mixSeed(data::mixSeed(static_cast<uint64_t>(seed), data::kShuffleStream), 1));
  std::vector<float> out(static_cast<size_t>(batch * splits.store->exampleBytes()));
  std::vector<int64_t> rows;
  for (int64_t b = 0; b < n; b += batch) {
    rows.clear();
    for (int64_t k = b; k < std::min(n, b + batch); ++k) rows.push_back(splits.trainRows[static_cast<size_t>(order[static_cast<size_t>(k)])]);
    // Training's augmentation too, when the run has one: it is part of the pipeline's work.
    const data::BatchAugment augment{data::augmentOptions(data), data::mixSeed(static_cast<uint64_t>(seed), b)};
    data::readImageBatch(uncached, rows.data(), static_cast<int64_t>(rows.size()), table, static_cast<int>(workers),
                         data.onBad == "skip", out.data(), &augment);
    if (b == 0) pass.firstBatchSeconds = secondsSince(start);
  }
  pass.seconds = secondsSince(start);
  pass.examples = n;
  return pass;
}

}  // namespace

int runData(const CliArgs &args) {
  const std::string sub = args.positionals.empty() ? std::string() : args.positionals.front();
  if (sub != "bench" || args.positionals.size() != 2) return usageError("data bench");
  const config::RunConfig run = config::loadRunConfig(args.positionals[1], args.all("--set"), false);
  const config::DataSourceInfo *source = config::findDataSource(run.data.dataset);
  const bool tokenFile = source && source->family == config::SourceFamily::TokenFile;
  // A token file's windows are read on the training thread: one pass says all there is.
  const std::vector<int64_t> counts = tokenFile ? std::vector<int64_t>{1} : workerCounts(args.option("--workers", "1,2,auto"));
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
             ", \"streamed\": " + (passes[i].streamed ? "true" : "false") +
             ", \"first_batch_s\": " + std::to_string(passes[i].firstBatchSeconds) +
             ", \"examples_per_s\": " + std::to_string(passes[i].examples / passes[i].seconds) + "}";
    std::printf("%s]}\n", out.c_str());
    return 0;
  }
  if (tokenFile)
    std::printf("token windows of %lld: the training split read once in a shuffled order, one pread a window "
                "(data.workers does not apply)\n", static_cast<long long>(run.data.seqLen + 1));
  else if (passes.front().streamed)
    std::printf("streamed: the training split read once in a shuffled order, in batches of %lld, decoded and "
                "standardised, no cache\n", static_cast<long long>(run.data.batchSize));
  std::printf("%-10s %10s %9s %12s %8s %12s\n", "workers", "examples", "seconds", "examples/s", "speed-up",
              passes.front().streamed ? "first batch" : "");
  for (const Pass &pass : passes) {
    const std::string label = std::to_string(pass.workers) + (pass.requested == 0 ? " (auto)" : "");
    std::printf("%-10s %10lld %9.2f %12.0f %7.2fx", label.c_str(), static_cast<long long>(pass.examples), pass.seconds,
                pass.examples / pass.seconds, passes.front().seconds / pass.seconds);
    if (pass.streamed) std::printf(" %10.2f s", pass.firstBatchSeconds);
    std::printf("\n");
  }
  return 0;
}

}  // namespace tw::cli
