#pragma once
// The store's view of a database: one connection (SQLite or PostgreSQL), statements that reset
// themselves, and transactions that roll back unless committed. Errors are TrackingErrors that
// name the operation and the database (with any password removed).
//
//   sql::Transaction tx(db, "writing metrics");
//   sql::Statement insert(db, "INSERT INTO t(a) VALUES(?)", "writing metrics");
//   insert.bindInt64(1, 42).run();
//   tx.commit();
//
// Statements are written once for both backends: `?` and `?N` placeholders, upserts as
// `ON CONFLICT ... DO`, new ids with `RETURNING id`, integers compared as integers (`flag <> 0`,
// never a bare integer where PostgreSQL wants a boolean). Where the dialects differ the caller
// asks dialect() (the scalar maximum, a prefix match).

#include <cstdint>
#include <memory>
#include <string>

namespace tw::tracking::sql {

enum class Dialect { Sqlite, Postgres };

// One prepared statement on the backend's side.
class Cursor {
 public:
  virtual ~Cursor() = default;
  virtual void bindInt64(int index, int64_t value) = 0;
  virtual void bindDouble(int index, double value) = 0;  // never NaN: Statement binds NULL for it
  virtual void bindText(int index, const std::string &value) = 0;
  virtual void bindNull(int index) = 0;
  virtual bool step() = 0;  // true while a row is available; executes on the first call
  virtual int64_t changes() const = 0;  // rows the last completed execution inserted, updated or deleted
  virtual void reset() = 0;             // the next step() executes again; bindings stay
  virtual void clearBindings() = 0;
  virtual bool isNull(int column) const = 0;
  virtual int64_t int64(int column) const = 0;
  virtual double real(int column) const = 0;
  virtual std::string text(int column) const = 0;
};

class Connection {
 public:
  virtual ~Connection() = default;
  virtual Dialect dialect() const = 0;
  // The database for messages: a file path, or a URL without its password.
  virtual const std::string &shownLocation() const = 0;
  virtual std::unique_ptr<Cursor> prepare(const std::string &sql, const std::string &operation) = 0;
  // Statements without parameters, several separated by ';' allowed.
  virtual void exec(const std::string &sql, const std::string &operation) = 0;
  // Takes the store's one write lock for the transaction (SQLite: BEGIN IMMEDIATE; PostgreSQL: a
  // transaction-scoped advisory lock), so that every write sees the same serial order on both.
  virtual void begin(const std::string &operation) = 0;
  virtual void commit(const std::string &operation) = 0;
  virtual void rollback() noexcept = 0;
  virtual bool tableExists(const std::string &table) = 0;
};

// SQLite's file, created 0600 when new, in WAL mode. sqlite_connection.cpp.
std::unique_ptr<Connection> openSqlite(const std::string &path);
// A libpq connection string or URL; `shown` is the same without its password. Unreachable
// servers are retried with backoff; a refused login is not. pg_connection.cpp.
std::unique_ptr<Connection> openPostgres(const std::string &conninfo, const std::string &shown);

class Statement {
 public:
  Statement(Connection *db, const std::string &sql, std::string operation);
  Statement(const Statement &) = delete;
  Statement &operator=(const Statement &) = delete;

  Statement &bindInt64(int index, int64_t value);
  Statement &bindDouble(int index, double value);  // NaN is stored as NULL on both backends
  Statement &bindText(int index, const std::string &value);
  bool step();  // true while a row is available
  void run();   // steps to completion and resets, keeping the bindings for the next row
  void reset(); // resets and clears the bindings
  int64_t changes() const { return m_changes; }  // rows the last run() changed

  int64_t int64(int column) const { return m_cursor->int64(column); }
  double real(int column) const;  // NULL reads as NaN
  std::string text(int column) const { return m_cursor->text(column); }

 private:
  std::unique_ptr<Cursor> m_cursor;
  int64_t m_changes = 0;
};

class Transaction {
 public:
  Transaction(Connection *db, std::string operation);
  ~Transaction();  // rolls back unless committed
  Transaction(const Transaction &) = delete;
  Transaction &operator=(const Transaction &) = delete;
  void commit();

 private:
  Connection *m_db;
  std::string m_operation;
  bool m_open = false;
};

// The largest of several integer expressions: SQLite's scalar MAX(a, b), PostgreSQL's GREATEST.
std::string greatest(const Connection *db, const std::string &commaSeparated);
// "<column> GLOB ?" on SQLite, whose GLOB with a literal prefix uses the column's index (its LIKE
// ignores case and does not), "<column> LIKE ?" on PostgreSQL; bind prefixPattern(db, prefix).
// The prefix must hold no wildcard of either (hex digits, say).
std::string prefixMatch(const Connection *db, const std::string &column);
std::string prefixPattern(const Connection *db, const std::string &prefix);
// A LIMIT value meaning "all rows" on both backends when `limit` is 0 or less.
int64_t limitOrAll(int limit);

}  // namespace tw::tracking::sql
