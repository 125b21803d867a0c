#pragma once
// Shared by the tracking tests: the store under test (a SQLite file, or a fresh database in a
// throwaway PostgreSQL cluster when CTest runs the program's `_postgresql` entry, which sets
// TW_TEST_STORE=postgresql), a raw second connection to check what is really stored, not what
// the store says, and small builders for runs and metric series.

#include "tests/tracking/pg_cluster.h"
#include "tracking/sql.h"
#include "tracking/store.h"

#include <QTemporaryDir>

#include <sqlite3.h>

#include <cstdlib>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace tracking_test {

using tw::tracking::MetricRow;
using tw::tracking::NewRun;

inline bool onPostgres() {
  const char *backend = std::getenv("TW_TEST_STORE");
  return backend && std::string(backend) == "postgresql";
}

// A new, empty store for one test: `<dir>/<file>` on SQLite, a new database on PostgreSQL.
// Empty when PostgreSQL is wanted and not available; skipReason() says why.
inline std::string freshStore(const QTemporaryDir &dir, const QString &file = "tracking.db") {
  if (!onPostgres()) return dir.filePath(file).toStdString();
  auto *cluster = tw_test::PgCluster::shared();
  return cluster ? cluster->createDatabase() : std::string();
}
inline QString skipReason() { return tw_test::PgCluster::unavailable(); }

// What a slot that is about SQLite's files says when it is skipped on PostgreSQL.
#define SQLITE_ONLY(why)                                        \
  do {                                                          \
    if (tracking_test::onPostgres()) QSKIP("SQLite only: " why); \
  } while (0)

inline bool isUrl(const std::string &location) { return location.rfind("postgresql://", 0) == 0; }

// Queries about the schema itself, which each backend answers from its own catalogue.
inline std::string countTablesSql(const std::string &table) {
  return onPostgres() ? "SELECT COUNT(*) FROM information_schema.tables WHERE table_name = '" + table + "'"
                      : "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = '" + table + "'";
}
inline std::string countColumnsSql(const std::string &table, const std::string &column) {
  return onPostgres() ? "SELECT COUNT(*) FROM information_schema.columns WHERE table_name = '" + table +
                            "' AND column_name = '" + column + "'"
                      : "SELECT COUNT(*) FROM pragma_table_info('" + table + "') WHERE name = '" + column + "'";
}

// A second connection per call, so that it sees only what was committed.
inline std::string queryText(const std::string &path, const std::string &sql) {
  if (isUrl(path)) {
    try {
      auto db = tw::tracking::sql::openPostgres(path, path);
      tw::tracking::sql::Statement query(db.get(), sql, "test query");
      return query.step() ? query.text(0) : std::string("<none>");
    } catch (const std::exception &) {
      return "<error>";
    }
  }
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
  if (isUrl(path)) {
    try {
      tw::tracking::sql::openPostgres(path, path)->exec(sql, "test statement");
      return true;
    } catch (const std::exception &) {
      return false;
    }
  }
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
