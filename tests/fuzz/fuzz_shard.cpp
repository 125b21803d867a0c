// Shard sets: manifest.json (input starting with '{'), or a shard read through its sidecar index
// (anything else: first byte = the example count n below 8, then n little-endian uint64 offsets,
// then the tar shard). The harness writes a manifest whose size and SHA-256 match the shard, so
// the fuzzer gets past the checksum into the tar headers and members, and on into the members'
// .npy arrays, decoded by the reader training uses.
#include "core/config/sha256.h"
#include "core/data/data_sources.h"
#include "core/data/shard_set.h"
#include "tests/fuzz/fuzz_target.h"

#include <filesystem>
#include <fstream>

namespace {

void write(const std::string &path, const std::string &bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

}  // namespace

TW_FUZZ_TARGET(shard) {
  const std::string dir = tw::fuzz::scratchDir() + "/fuzz-shards";
  std::filesystem::create_directories(dir);
  const std::string input = tw::fuzz::bytes(data, size);
  if (!input.empty() && input[0] == '{') {
    write(dir + "/" + tw::data::kShardManifestName, input);
    tw::fuzz::expectRefusalOnly(tw::data::kShardManifestName, [&] { tw::data::readShardManifest(dir); });
    return 0;
  }
  const size_t examples = input.empty() ? 0 : static_cast<uint8_t>(input[0]) % 8;
  if (input.size() < 1 + 8 * examples) return 0;
  const std::string index = input.substr(1, 8 * examples);
  const std::string tar = input.substr(1 + 8 * examples);
  write(dir + "/train-000000.idx", index);
  write(dir + "/train-000000.tar", tar);

  tw::data::ShardManifest manifest;
  manifest.info.kind = "array";
  manifest.info.classes = 3;
  manifest.info.classNames = {"a", "b", "c"};
  manifest.info.featureShape = {2};
  manifest.info.dtype = "float32";
  tw::data::ShardSplit &split = manifest.splits["train"];
  split.examples = static_cast<int64_t>(examples);
  split.classCounts = {static_cast<int64_t>(examples), 0, 0};
  split.shards.push_back({"train-000000.tar", "train-000000.idx", static_cast<int64_t>(examples), tar.size(),
                          tw::config::sha256Hex(tar)});
  write(dir + "/" + tw::data::kShardManifestName, tw::data::manifestJson(manifest));

  tw::fuzz::expectRefusalOnly("train-000000", [&] {
    tw::data::verifyShard(dir, split.shards[0]);
    tw::data::ShardReader reader(dir, "train");
    for (int64_t i = 0; i < reader.size(); ++i) reader.read(i);
  });
  tw::fuzz::expectRefusalOnly("train-000000.tar", [&] { tw::data::listTar(dir + "/train-000000.tar"); });
  // The members decoded as training reads them: each example's .npy parsed and checked against
  // the manifest's shape and dtype, its class against the class count.
  tw::config::DataOptions options;
  options.dataset = "shards";
  options.path = dir;
  options.workers = 1;
  tw::fuzz::expectRefusalOnly(dir, [&] { tw::data::readShardSource(options, 1); });
  return 0;
}
