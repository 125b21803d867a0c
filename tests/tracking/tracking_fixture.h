#pragma once
// Shared by the tracking tests: a raw second connection to check what is really in the file,
// not what the store says, and small builders for runs and metric series.

#include "tracking/store.h"

#include <sqlite3.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace tracking_test {

using tw::tracking::MetricRow;
using tw::tracking::NewRun;

// A second connection per call, so that it sees only what was committed.
inline std::string queryText(const std::string &path, const std::string &sql) {
  sqlite3 *db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_stmt *stmt = nullptr;
  std::string result = "<error>";
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK) {
    const int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
      const unsigned char *text = sqlite3_column_text(stmt, 0);
      result = text ? reinterpret_cast<const char *>(text) : "";
    } else if (rc == SQLITE_DONE) {
      result = "<none>";
    }
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return result;
}

inline bool execRaw(const std::string &path, const std::string &sql) {
  sqlite3 *db = nullptr;
  sqlite3_open(path.c_str(), &db);
  const bool ok = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK;
  sqlite3_close(db);
  return ok;
}

inline NewRun newRun(const std::string &experiment, const std::string &name = {}) {
  NewRun run;
  run.experiment = experiment;
  run.name = name;
  return run;
}

inline std::vector<MetricRow> series(const std::string &key, int64_t first, int64_t last, double offset = 0.0) {
  std::vector<MetricRow> rows;
  for (int64_t step = first; step <= last; ++step) rows.push_back({key, step, offset + double(step), 0});
  return rows;
}

inline void sleepMs(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

}  // namespace tracking_test
