// Write throughput of the tracking store on both backends in one run: 1M metric rows through
// Store::writeMetrics in 10k-row batches (one transaction each; on PostgreSQL one statement), logged step-major across 10 series the way a trainer logs them, then a full read of one
// series. SQLite is a fresh file in the temp folder; PostgreSQL a throwaway cluster with fsync on,
// as a real server runs (tests/tracking/pg_cluster.h), skipped with its reason when PostgreSQL is
// not installed. Prints a summary per backend and one JSON line.
//
//   bench_tracking [--rows N] [--store URL (instead of the throwaway cluster)]

#include "tests/tracking/pg_cluster.h"
#include "tracking/store.h"
#include "tracking/store_location.h"

#include <QCoreApplication>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

void removeDatabase(const fs::path &path) {
  std::error_code ignored;
  for (const char *suffix : {"", "-wal", "-shm", "-reserve"}) fs::remove(path.string() + suffix, ignored);
}

struct Figures {
  double rowsPerSec = 0;
  double readPerSec = 0;
  double seconds = 0;
};

Figures measure(const std::string &location, int64_t rows, const char *label) {
  constexpr size_t kBatch = 10000;
  constexpr int kKeys = 10;
  auto store = tw::tracking::Store::open(location);
  tw::tracking::NewRun newRun;
  newRun.experiment = "bench";
  const int64_t runId = store->createRun(newRun).id;
  std::vector<std::string> keys;
  for (int k = 0; k < kKeys; ++k) keys.push_back("bench/metric_" + std::to_string(k));

  const auto start = Clock::now();
  std::vector<tw::tracking::MetricRow> batch;
  int64_t written = 0;
  int batches = 0;
  for (int64_t step = 0; written < rows; ++step) {
    for (int k = 0; k < kKeys && written < rows; ++k, ++written)
      batch.push_back({keys[size_t(k)], step, double(step) * 1e-3 + k, 0});
    if (batch.size() >= kBatch || written == rows) {
      store->writeMetrics(runId, std::move(batch));
      batch.clear();
      ++batches;
    }
  }
  Figures figures;
  figures.seconds = secondsSince(start);
  const auto readStart = Clock::now();
  const auto points = store->metricPoints(runId, keys[0]);
  const double readSeconds = secondsSince(readStart);
  if (points.size() != size_t((rows + kKeys - 1) / kKeys))
    throw std::runtime_error("read back " + std::to_string(points.size()) + " points of " + keys[0]);
  figures.rowsPerSec = double(rows) / figures.seconds;
  figures.readPerSec = double(points.size()) / readSeconds;
  std::printf("%-10s wrote %lld rows in %d batches of %zu in %.2f s: %.0f rows/s; read %zu points of one series: "
              "%.0f points/s\n",
              label, (long long)rows, batches, kBatch, figures.seconds, figures.rowsPerSec, points.size(),
              figures.readPerSec);
  std::fflush(stdout);
  return figures;
}

}  // namespace

int main(int argc, char **argv) {
  QCoreApplication app(argc, argv);
  int64_t rows = 1000000;
  std::string server;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string option = argv[i];
    if (option == "--rows") rows = std::stoll(argv[i + 1]);
    else if (option == "--store") server = argv[i + 1];
  }
  const fs::path path = fs::temp_directory_path() / ("bench_tracking_" + std::to_string(::getpid()) + ".db");
  removeDatabase(path);
  try {
    const Figures sqlite = measure(path.string(), rows, "SQLite");
    removeDatabase(path);
    Figures postgres;
    std::string postgresNote;
    if (server.empty()) {
      auto *cluster = tw_test::PgCluster::shared(/*durable=*/true);
      if (cluster) server = cluster->createDatabase();
      else postgresNote = tw_test::PgCluster::unavailable().toStdString();
    }
    const int64_t serverRows = rows;
    if (!server.empty()) postgres = measure(server, serverRows, "PostgreSQL");
    else std::printf("PostgreSQL skipped: %s\n", postgresNote.c_str());
    std::printf("{\"bench\":\"tracking_write_metrics\",\"rows\":%lld,\"batch\":10000,\"keys\":10,"
                "\"sqlite_rows_per_sec\":%.0f,\"sqlite_read_points_per_sec\":%.0f,\"postgresql_rows\":%lld,"
                "\"postgresql_rows_per_sec\":%.0f,\"postgresql_read_points_per_sec\":%.0f,\"sqlite\":\"%s\"}\n",
                (long long)rows, sqlite.rowsPerSec, sqlite.readPerSec, (long long)serverRows, postgres.rowsPerSec,
                postgres.readPerSec, tw::tracking::Store::sqliteVersion().c_str());
  } catch (const std::exception &e) {
    std::fprintf(stderr, "bench_tracking: %s\n", e.what());
    removeDatabase(path);
    return 1;
  }
  return 0;
}
