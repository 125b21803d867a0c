#include "tracking/sqlite_util.h"

#include "tracking/store.h"

#include <sqlite3.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <thread>

namespace tw::tracking::sql {

namespace {
std::string describe(sqlite3 *db, int rc, const std::string &operation) {
  std::string message = operation + ": ";
  // sqlite3_errmsg describes the most recent call on the connection, which is the one that
  // failed here; errstr is the fallback when there is no connection yet.
  message += db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  if (db) {
    const char *file = sqlite3_db_filename(db, "main");
    if (file && *file) message += std::string(" (") + file + ")";
  }
  return message;
}
}  // namespace

void fail(sqlite3 *db, int rc, const std::string &operation) {
  throw TrackingError(describe(db, rc, operation), rc & 0xff);
}

void check(sqlite3 *db, int rc, const std::string &operation) {
  if (rc != SQLITE_OK) fail(db, rc, operation);
}

void exec(sqlite3 *db, const char *sql, const std::string &operation) {
  check(db, sqlite3_exec(db, sql, nullptr, nullptr, nullptr), operation);
}

Statement::Statement(sqlite3 *db, const char *sql, std::string operation)
    : m_db(db), m_operation(std::move(operation)) {
  check(m_db, sqlite3_prepare_v2(m_db, sql, -1, &m_stmt, nullptr), m_operation);
}

Statement::~Statement() { sqlite3_finalize(m_stmt); }

Statement &Statement::bindInt64(int index, int64_t value) {
  check(m_db, sqlite3_bind_int64(m_stmt, index, value), m_operation);
  return *this;
}

Statement &Statement::bindDouble(int index, double value) {
  check(m_db, sqlite3_bind_double(m_stmt, index, value), m_operation);
  return *this;
}

Statement &Statement::bindText(int index, const std::string &value) {
  check(m_db, sqlite3_bind_text(m_stmt, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT),
        m_operation);
  return *this;
}

bool Statement::step() {
  const int rc = sqlite3_step(m_stmt);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  // Read the message before the reset, which may replace it; the reset lets a caller that
  // catches the error run the statement again.
  std::string message = describe(m_db, rc, m_operation);
  sqlite3_reset(m_stmt);
  throw TrackingError(message);
}

void Statement::run() {
  while (step()) {
  }
  sqlite3_reset(m_stmt);
}

void Statement::reset() {
  sqlite3_reset(m_stmt);
  sqlite3_clear_bindings(m_stmt);
}

int64_t Statement::int64(int column) const { return sqlite3_column_int64(m_stmt, column); }

double Statement::real(int column) const {
  if (sqlite3_column_type(m_stmt, column) == SQLITE_NULL) return std::numeric_limits<double>::quiet_NaN();
  return sqlite3_column_double(m_stmt, column);
}

std::string Statement::text(int column) const {
  const auto *data = reinterpret_cast<const char *>(sqlite3_column_text(m_stmt, column));
  if (!data) return {};
  return std::string(data, static_cast<size_t>(sqlite3_column_bytes(m_stmt, column)));
}

Transaction::Transaction(sqlite3 *db, std::string operation) : m_db(db), m_operation(std::move(operation)) {
  constexpr int kAttempts = 5;
  for (int attempt = 0;; ++attempt) {
    const int rc = sqlite3_exec(m_db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr);
    if (rc == SQLITE_OK) break;
    const int primary = rc & 0xff;
    if ((primary != SQLITE_BUSY && primary != SQLITE_LOCKED) || attempt + 1 == kAttempts) fail(m_db, rc, m_operation);
    std::this_thread::sleep_for(std::chrono::milliseconds(10 << attempt));
  }
  m_open = true;
}

Transaction::~Transaction() {
  // After a failed statement SQLite may already have rolled back on its own.
  if (m_open && !sqlite3_get_autocommit(m_db)) sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
  exec(m_db, "COMMIT", m_operation);
  m_open = false;
}

}  // namespace tw::tracking::sql
