// The SQLite backend of the store: one file per workspace, WAL, busy_timeout, BEGIN IMMEDIATE.
#include "tracking/sql.h"
#include "tracking/store.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
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

[[noreturn]] void fail(sqlite3 *db, int rc, const std::string &operation) {
  throw TrackingError(describe(db, rc, operation), rc & 0xff);
}

void check(sqlite3 *db, int rc, const std::string &operation) {
  if (rc != SQLITE_OK) fail(db, rc, operation);
}

class SqliteCursor final : public Cursor {
 public:
  SqliteCursor(sqlite3 *db, const std::string &sql, std::string operation) : m_db(db), m_operation(std::move(operation)) {
    check(m_db, sqlite3_prepare_v2(m_db, sql.c_str(), -1, &m_stmt, nullptr), m_operation);
  }
  ~SqliteCursor() override { sqlite3_finalize(m_stmt); }

  void bindInt64(int index, int64_t value) override { check(m_db, sqlite3_bind_int64(m_stmt, index, value), m_operation); }
  void bindDouble(int index, double value) override { check(m_db, sqlite3_bind_double(m_stmt, index, value), m_operation); }
  void bindText(int index, const std::string &value) override {
    check(m_db, sqlite3_bind_text(m_stmt, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT),
          m_operation);
  }
  void bindNull(int index) override { check(m_db, sqlite3_bind_null(m_stmt, index), m_operation); }

  bool step() override {
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) {
      m_changes = sqlite3_changes(m_db);
      return false;
    }
    // Read the message before the reset, which may replace it; the reset lets a caller that
    // catches the error run the statement again.
    std::string message = describe(m_db, rc, m_operation);
    sqlite3_reset(m_stmt);
    throw TrackingError(message, rc & 0xff);
  }
  int64_t changes() const override { return m_changes; }
  void reset() override { sqlite3_reset(m_stmt); }
  void clearBindings() override { sqlite3_clear_bindings(m_stmt); }
  bool isNull(int column) const override { return sqlite3_column_type(m_stmt, column) == SQLITE_NULL; }
  int64_t int64(int column) const override { return sqlite3_column_int64(m_stmt, column); }
  double real(int column) const override { return sqlite3_column_double(m_stmt, column); }
  std::string text(int column) const override {
    const auto *data = reinterpret_cast<const char *>(sqlite3_column_text(m_stmt, column));
    if (!data) return {};
    return std::string(data, static_cast<size_t>(sqlite3_column_bytes(m_stmt, column)));
  }

 private:
  sqlite3 *m_db;
  sqlite3_stmt *m_stmt = nullptr;
  std::string m_operation;
  int64_t m_changes = 0;
};

class SqliteConnection final : public Connection {
 public:
  explicit SqliteConnection(std::string path) : m_path(std::move(path)) {}
  ~SqliteConnection() override { sqlite3_close_v2(m_db); }

  void open() {
    const std::string operation = "opening the tracking database " + m_path;
    // A new database is its user's alone (SQLite would create it 0644 less the umask); its WAL
    // and shared-memory files take the database file's permissions.
    if (::access(m_path.c_str(), F_OK) != 0) {
      const int fd = ::open(m_path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
      if (fd >= 0) ::close(fd);
    }
    // The handle exists even when the open fails; the destructor closes it.
    check(m_db, sqlite3_open_v2(m_path.c_str(), &m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr),
          operation);
    sqlite3_extended_result_codes(m_db, 1);
    // Before anything that may wait on another process: the journal-mode switch needs a lock.
    check(m_db, sqlite3_busy_timeout(m_db, 10000), operation);
    // WAL lets the GUI read while a worker writes; it is persistent, so this is a no-op on
    // every open after the first. Two processes creating the same file at once can each hold a
    // shared lock while wanting an exclusive one; SQLite then answers BUSY at once instead of
    // waiting (it would deadlock), so the switch is retried here for as long as busy_timeout.
    std::string mode;
    const auto giveUp = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    for (int attempt = 0;; ++attempt) {
      mode.clear();
      char *error = nullptr;
      const int walRc = sqlite3_exec(
          m_db, "PRAGMA journal_mode = WAL",
          [](void *out, int, char **values, char **) {
            if (values[0]) *static_cast<std::string *>(out) = values[0];
            return 0;
          },
          &mode, &error);
      sqlite3_free(error);
      if ((walRc & 0xff) != SQLITE_BUSY && (walRc & 0xff) != SQLITE_LOCKED) {
        check(m_db, walRc, operation);
        break;
      }
      if (std::chrono::steady_clock::now() > giveUp) check(m_db, walRc, operation);
      std::this_thread::sleep_for(std::chrono::milliseconds(5 + 5 * std::min(attempt, 20)));
    }
    if (mode != "wal") {
      throw TrackingError(operation + ": the file system does not support SQLite's WAL mode (journal mode '" + mode +
                          "'); put the workspace on a local disk");
    }
    // NORMAL is durable across application crashes in WAL mode; only a power loss can drop the
    // last commits, and metrics are cheap to lose compared with an fsync per batch.
    exec("PRAGMA synchronous = NORMAL", operation);
    exec("PRAGMA foreign_keys = ON", operation);
  }

  Dialect dialect() const override { return Dialect::Sqlite; }
  const std::string &shownLocation() const override { return m_path; }
  std::unique_ptr<Cursor> prepare(const std::string &sql, const std::string &operation) override {
    return std::make_unique<SqliteCursor>(m_db, sql, operation);
  }
  void exec(const std::string &sql, const std::string &operation) override {
    check(m_db, sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, nullptr), operation);
  }
  // BEGIN IMMEDIATE takes the write lock up front, so a transaction never fails half-way on a
  // lock upgrade. busy_timeout already waits; the retries here cover the cases where SQLite
  // returns SQLITE_BUSY without calling the busy handler.
  void begin(const std::string &operation) override {
    constexpr int kAttempts = 5;
    for (int attempt = 0;; ++attempt) {
      const int rc = sqlite3_exec(m_db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr);
      if (rc == SQLITE_OK) return;
      const int primary = rc & 0xff;
      if ((primary != SQLITE_BUSY && primary != SQLITE_LOCKED) || attempt + 1 == kAttempts) fail(m_db, rc, operation);
      std::this_thread::sleep_for(std::chrono::milliseconds(10 << attempt));
    }
  }
  void commit(const std::string &operation) override { exec("COMMIT", operation); }
  void rollback() noexcept override {
    // After a failed statement SQLite may already have rolled back on its own.
    if (!sqlite3_get_autocommit(m_db)) sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  bool tableExists(const std::string &table) override {
    Statement query(this, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", "looking for table " + table);
    query.bindText(1, table);
    return query.step();
  }

 private:
  std::string m_path;
  sqlite3 *m_db = nullptr;
};

}  // namespace

std::unique_ptr<Connection> openSqlite(const std::string &path) {
  auto connection = std::make_unique<SqliteConnection>(path);
  connection->open();
  return connection;
}

}  // namespace tw::tracking::sql
