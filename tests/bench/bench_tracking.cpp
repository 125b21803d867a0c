// Write throughput of the tracking store: 1M metric rows through Store::writeMetrics in 10k-row
// batches (one transaction each), logged step-major across 10 series the way a trainer logs
// them, then a full read of one series. Prints a summary and one JSON line.
//
//   bench_tracking [database-path]   (default: a fresh file in the temp folder, removed after)

#include "tracking/store.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void removeDatabase(const fs::path &path) {
  std::error_code ignored;
  for (const char *suffix : {"", "-wal", "-shm"}) fs::remove(path.string() + suffix, ignored);
}

}  // namespace

int main(int argc, char **argv) {
  constexpr int64_t kRows = 1000000;
  constexpr size_t kBatch = 10000;
  constexpr int kKeys = 10;
  const bool ownFile = argc < 2;
  const fs::path path = ownFile ? fs::temp_directory_path() / ("bench_tracking_" + std::to_string(::getpid()) + ".db")
                                : fs::path(argv[1]);
  if (ownFile) removeDatabase(path);

  try {
    auto store = tw::tracking::Store::open(path.string());
    tw::tracking::NewRun newRun;
    newRun.experiment = "bench";
    const int64_t runId = store->createRun(newRun).id;

    std::vector<std::string> keys;
    for (int k = 0; k < kKeys; ++k) keys.push_back("bench/metric_" + std::to_string(k));

    const auto start = Clock::now();
    std::vector<tw::tracking::MetricRow> batch;
    batch.reserve(kBatch);
    int64_t written = 0;
    int batches = 0;
    for (int64_t step = 0; written < kRows; ++step) {
      for (int k = 0; k < kKeys && written < kRows; ++k, ++written)
        batch.push_back({keys[size_t(k)], step, double(step) * 1e-3 + k, 0});
      if (batch.size() >= kBatch || written == kRows) {
        store->writeMetrics(runId, std::move(batch));
        batch.clear();
        batch.reserve(kBatch);
        ++batches;
      }
    }
    const double writeSeconds = secondsSince(start);

    const auto readStart = Clock::now();
    const auto points = store->metricPoints(runId, keys[0]);
    const double readSeconds = secondsSince(readStart);
    if (points.size() != size_t(kRows / kKeys)) {
      std::fprintf(stderr, "bench_tracking: read back %zu points of %s, expected %lld\n", points.size(),
                   keys[0].c_str(), (long long)(kRows / kKeys));
      return 1;
    }
    store.reset();
    const auto fileBytes = fs::file_size(path);

    const double rowsPerSec = double(kRows) / writeSeconds;
    const double readPerSec = double(points.size()) / readSeconds;
    std::printf("wrote %lld rows in %d batches of %zu in %.2f s: %.0f rows/s\n", (long long)kRows, batches, kBatch,
                writeSeconds, rowsPerSec);
    std::printf("read %zu points of one series in %.3f s: %.0f points/s; file %.1f MiB\n", points.size(),
                readSeconds, readPerSec, double(fileBytes) / (1024.0 * 1024.0));
    std::printf("{\"bench\":\"tracking_write_metrics\",\"rows\":%lld,\"batch\":%zu,\"keys\":%d,\"seconds\":%.3f,"
                "\"rows_per_sec\":%.0f,\"read_points_per_sec\":%.0f,\"sqlite\":\"%s\"}\n",
                (long long)kRows, kBatch, kKeys, writeSeconds, rowsPerSec, readPerSec,
                tw::tracking::Store::sqliteVersion().c_str());
  } catch (const std::exception &e) {
    std::fprintf(stderr, "bench_tracking: %s\n", e.what());
    if (ownFile) removeDatabase(path);
    return 1;
  }
  if (ownFile) removeDatabase(path);
  return 0;
}
