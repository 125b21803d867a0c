#pragma once
// Thin RAII over the SQLite C API for the store: statements that finalize themselves,
// transactions that roll back unless committed, and errors that name the operation.
//
//   sql::Transaction tx(db, "writing metrics");
//   sql::Statement insert(db, "INSERT INTO t(a) VALUES(?)", "writing metrics");
//   insert.bindInt64(1, 42).run();
//   tx.commit();

#include <cstdint>
#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace tw::tracking::sql {

// Throws TrackingError "<operation>: <SQLite message> (<file>)".
[[noreturn]] void fail(sqlite3 *db, int rc, const std::string &operation);
void check(sqlite3 *db, int rc, const std::string &operation);  // throws unless SQLITE_OK
void exec(sqlite3 *db, const char *sql, const std::string &operation);

class Statement {
 public:
  Statement(sqlite3 *db, const char *sql, std::string operation);
  ~Statement();
  Statement(const Statement &) = delete;
  Statement &operator=(const Statement &) = delete;

  Statement &bindInt64(int index, int64_t value);
  Statement &bindDouble(int index, double value);
  Statement &bindText(int index, const std::string &value);
  bool step();  // true while a row is available
  void run();   // steps to completion and resets, keeping the bindings for the next row
  void reset(); // resets and clears the bindings

  int64_t int64(int column) const;
  double real(int column) const;  // NULL reads as NaN: SQLite stores a bound NaN as NULL
  std::string text(int column) const;

 private:
  sqlite3 *m_db;
  sqlite3_stmt *m_stmt = nullptr;
  std::string m_operation;
};

// BEGIN IMMEDIATE takes the write lock up front, so a transaction never fails half-way on a
// lock upgrade. busy_timeout already waits; the retries here cover the cases where SQLite
// returns SQLITE_BUSY without calling the busy handler.
class Transaction {
 public:
  Transaction(sqlite3 *db, std::string operation);
  ~Transaction();  // rolls back unless committed
  Transaction(const Transaction &) = delete;
  Transaction &operator=(const Transaction &) = delete;
  void commit();

 private:
  sqlite3 *m_db;
  std::string m_operation;
  bool m_open = false;
};

}  // namespace tw::tracking::sql
