// The tracking database opener: a file that is not SQLite, a damaged one, one from another
// program or a newer schema. Opening either works and the runs read, or it is refused naming
// the file; SQLite's own reader is fuzzed upstream, this checks what we do with its answers.
#include "tracking/store.h"
#include "tests/fuzz/fuzz_target.h"

#include <filesystem>

TW_FUZZ_TARGET(store_open) {
  const std::string path = tw::fuzz::scratchDir() + "/fuzz-tracking.db";
  std::error_code ignored;
  std::filesystem::remove(path + "-wal", ignored);
  std::filesystem::remove(path + "-shm", ignored);
  tw::fuzz::inputFile(data, size, "fuzz-tracking.db");
  tw::fuzz::expectRefusalOnly(path, [&] {
    auto store = tw::tracking::Store::open(path);
    store->listRuns(5);
    store->listStudies();
  });
  return 0;
}
