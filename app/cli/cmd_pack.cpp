// `torchwright pack SRC OUT`: a dataset written as packed shards (core/data/pack_dataset.h) that
// training and Python's webdataset both read. SRC is an image folder, an IDX folder, a CSV file, an
// IDX dataset's name (fashion-mnist, mnist) or a run file, whose data section says what to read.

#include "app/cli/commands.h"
#include "app/cli/usage.h"
#include "app/common/progress_line.h"
#include "app/common/value_text.h"

#include "core/config/number_text.h"
#include "core/config/run_config.h"
#include "core/data/idx.h"
#include "core/data/image_folder.h"
#include "core/data/json_text.h"
#include "core/data/pack_dataset.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

namespace tw::cli {

using app::ProgressLine;

namespace {

namespace fs = std::filesystem;


}  // namespace

int runPack(const CliArgs &args) {
  if (args.positionals.size() != 2) return usageError("pack");
  const std::string src = args.positionals[0], out = args.positionals[1];
  const long long shardMb = integerOption(args, "--shard-mb", 64, 1, 1 << 20);
  const config::DataOptions data = data::packSource(src, args.all("--set"));

  data::PackOptions options;
  options.targetBytes = static_cast<uint64_t>(shardMb) << 20;
  options.createdBy = std::string("torchwright ") + TW_VERSION;
  options.decoded = args.hasFlag("--decoded");
  const auto start = std::chrono::steady_clock::now();
  std::unique_ptr<ProgressLine> progress;  // the total is known once packing starts
  options.progress = [&](int64_t done, int64_t total) {
    if (!progress) progress = std::make_unique<ProgressLine>("packing", "examples", total, app::ProgressOptions{.enabled = !args.hasFlag("--json")});
    progress->update(done);
  };
  // The writer removes the shards of a pack that fails; the folder goes too when this pack made
  // it, so that a failed pack (a full disk, a bad example) leaves nothing behind.
  std::error_code ec;
  const bool outExisted = fs::exists(out, ec);
  data::ShardManifest manifest;
  try {
    manifest = data::packDataset(data, out, options);
  } catch (...) {
    if (!outExisted) fs::remove(out, ec);  // only when empty
    throw;
  }
  if (progress) progress->finish();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  if (args.hasFlag("--json")) {
    std::string json = "{\"out\": " + data::jsonString(out) + ", \"seconds\": " + std::to_string(seconds) + ", \"splits\": {";
    bool first = true;
    for (const auto &[name, split] : manifest.splits) {
      uint64_t bytes = 0;
      for (const auto &shard : split.shards) bytes += shard.bytes;
      json += std::string(first ? "" : ", ") + data::jsonString(name) + ": {\"examples\": " +
              std::to_string(split.examples) + ", \"shards\": " + std::to_string(split.shards.size()) +
              ", \"bytes\": " + std::to_string(bytes) + "}";
      first = false;
    }
    std::printf("%s}}\n", json.c_str());
    return 0;
  }
  std::printf("packed %s (%s) into %s in %s\n", manifest.info.source.c_str(), manifest.info.sourceKind.c_str(),
              out.c_str(), app::formatDuration(std::llround(seconds * 1000.0)).c_str());
  for (const auto &[name, split] : manifest.splits) {
    uint64_t bytes = 0;
    for (const auto &shard : split.shards) bytes += shard.bytes;
    std::printf("  %-6s %s examples in %zu shard%s, %s\n", name.c_str(), config::formatNumber(double(split.examples)).c_str(),
                split.shards.size(), split.shards.size() == 1 ? "" : "s", config::formatBytes(double(bytes)).c_str());
  }
  std::printf("manifest: %s/%s\n", out.c_str(), data::kShardManifestName);
  return 0;
}

}  // namespace tw::cli
