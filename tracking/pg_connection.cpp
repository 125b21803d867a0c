// The PostgreSQL backend of the store (libpq): the same statements as SQLite's, their `?`
// placeholders numbered for the server, prepared once per connection and kept for its life.
#include "tracking/sql.h"
#include "tracking/store.h"
#include "tracking/tracking_log.h"

#include <libpq-fe.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <thread>
#include <vector>

namespace tw::tracking::sql {

namespace {

// Any 64-bit number: the lock that every store transaction takes, as SQLite's one writer.
constexpr const char *kWriteLock = "SELECT pg_advisory_xact_lock(7463711240187)";
constexpr Oid kInt8 = 20, kFloat8 = 701, kText = 25;

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

// `?` and `?N` become `$N`; quoted text is left alone.
std::string numberedPlaceholders(const std::string &sql) {
  std::string out;
  out.reserve(sql.size() + 16);
  int next = 1;
  bool quoted = false;
  for (size_t i = 0; i < sql.size(); ++i) {
    const char c = sql[i];
    if (c == '\'') quoted = !quoted;
    if (quoted || c != '?') {
      out += c;
      continue;
    }
    size_t digits = i + 1;
    while (digits < sql.size() && sql[digits] >= '0' && sql[digits] <= '9') ++digits;
    if (digits > i + 1) {
      out += '$' + sql.substr(i + 1, digits - i - 1);
      i = digits - 1;
    } else {
      out += '$' + std::to_string(next++);
    }
  }
  return out;
}

// Failures worth another try: no server answered (down, restarting, unreachable), or one
// answered that it cannot take the session yet. Any other answer of the server (a refused login,
// a missing database or role) stays the same however often it is asked, and so does a URL libpq
// cannot read ("invalid connection option", "invalid URI query parameter").
bool worthRetrying(const std::string &message) {
  if (message.rfind("invalid ", 0) == 0 || message.find("missing \"=\"") != std::string::npos) return false;
  if (message.find("FATAL:") == std::string::npos) return true;
  for (const char *passing : {"is starting up", "is shutting down", "in recovery mode", "too many clients"})
    if (message.find(passing) != std::string::npos) return true;
  return false;
}

class PgConnection;

class PgCursor final : public Cursor {
 public:
  PgCursor(PgConnection *db, std::string sql, std::string operation)
      : m_db(db), m_sql(std::move(sql)), m_operation(std::move(operation)) {}
  ~PgCursor() override { PQclear(m_result); }

  void bindInt64(int index, int64_t value) override { bind(index, std::to_string(value), kInt8); }
  void bindDouble(int index, double value) override {
    char text[32];
    if (std::isinf(value))
      std::snprintf(text, sizeof text, "%s", value > 0 ? "Infinity" : "-Infinity");
    else
      std::snprintf(text, sizeof text, "%.17g", value);
    bind(index, text, kFloat8);
  }
  void bindText(int index, const std::string &value) override {
    if (value.find('\0') != std::string::npos)
      throw TrackingError(m_operation + ": PostgreSQL cannot store text with a NUL byte");
    bind(index, value, kText);
  }
  void bindNull(int index) override {
    slot(index);
    m_null[size_t(index - 1)] = true;
  }

  bool step() override;
  int64_t changes() const override { return m_changes; }
  void reset() override {
    PQclear(m_result);
    m_result = nullptr;
    m_row = -1;
  }
  void clearBindings() override {
    m_values.clear();
    m_types.clear();
    m_null.clear();
  }
  bool isNull(int column) const override { return PQgetisnull(m_result, m_row, column); }
  int64_t int64(int column) const override { return std::strtoll(PQgetvalue(m_result, m_row, column), nullptr, 10); }
  double real(int column) const override { return std::strtod(PQgetvalue(m_result, m_row, column), nullptr); }
  std::string text(int column) const override {
    return std::string(PQgetvalue(m_result, m_row, column), size_t(PQgetlength(m_result, m_row, column)));
  }

 private:
  void slot(int index) {
    const size_t at = size_t(index - 1);
    if (m_values.size() <= at) {
      m_values.resize(at + 1);
      m_types.resize(at + 1, 0);
      m_null.resize(at + 1, true);
    }
  }
  void bind(int index, std::string value, Oid type) {
    slot(index);
    const size_t at = size_t(index - 1);
    m_values[at] = std::move(value);
    m_types[at] = type;
    m_null[at] = false;
  }

  PgConnection *m_db;
  std::string m_sql;
  std::string m_operation;
  std::vector<std::string> m_values;
  std::vector<Oid> m_types;
  std::vector<bool> m_null;  // unbound parameters are NULL, as in SQLite
  PGresult *m_result = nullptr;
  int m_row = -1;
  int64_t m_changes = 0;
};

class PgConnection final : public Connection {
 public:
  PgConnection(std::string conninfo, std::string shown) : m_conninfo(std::move(conninfo)), m_shown(std::move(shown)) {}
  ~PgConnection() override { PQfinish(m_conn); }

  void connect() {
    const std::string operation = "connecting to the tracking store " + m_shown;
    constexpr int kAttempts = 5;
    for (int attempt = 0;; ++attempt) {
      PQfinish(m_conn);
      const char *keys[] = {"dbname", "fallback_application_name", nullptr};
      const char *values[] = {m_conninfo.c_str(), "torchwright", nullptr};
      m_conn = PQconnectdbParams(keys, values, 1);
      if (m_conn && PQstatus(m_conn) == CONNECTION_OK) break;
      const std::string message = m_conn ? trimmed(PQerrorMessage(m_conn)) : std::string("out of memory");
      if (!worthRetrying(message) || attempt + 1 == kAttempts)
        throw TrackingError(operation + ": " + message +
                            (attempt > 0 ? " (after " + std::to_string(attempt + 1) + " attempts)" : std::string()));
      const auto wait = std::chrono::milliseconds(250 << attempt);
      trackingLog()->warn("{}: {}; trying again in {} ms", operation, message, wait.count());
      std::this_thread::sleep_for(wait);
    }
    // Notices ("relation already exists, skipping") are no news to a user.
    PQsetNoticeProcessor(m_conn, [](void *, const char *) {}, nullptr);
    m_prepared.clear();
  }

  Dialect dialect() const override { return Dialect::Postgres; }
  const std::string &shownLocation() const override { return m_shown; }
  std::unique_ptr<Cursor> prepare(const std::string &sql, const std::string &operation) override {
    return std::make_unique<PgCursor>(this, numberedPlaceholders(sql), operation);
  }
  void exec(const std::string &sql, const std::string &operation) override {
    reconnectIfLost(operation);
    PGresult *result = PQexec(m_conn, sql.c_str());
    check(result, operation);
    PQclear(result);
  }
  void begin(const std::string &operation) override {
    exec("BEGIN", operation);
    m_inTransaction = true;
    exec(kWriteLock, operation);
  }
  void commit(const std::string &operation) override {
    m_inTransaction = false;
    exec("COMMIT", operation);
  }
  void rollback() noexcept override {
    m_inTransaction = false;
    if (PQstatus(m_conn) == CONNECTION_OK && PQtransactionStatus(m_conn) != PQTRANS_IDLE)
      PQclear(PQexec(m_conn, "ROLLBACK"));
  }
  // A query on the catalogue, not to_regclass(): that reads the server's catalogue cache, which an
  // advisory lock does not refresh, so a migration waiting on the write lock would not see the
  // tables the one before it created.
  bool tableExists(const std::string &table) override {
    Statement query(this, "SELECT 1 FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = ?",
                    "looking for table " + table);
    query.bindText(1, table);
    return query.step();
  }

  // Runs one statement with its parameters; the caller owns the result.
  PGresult *execute(const std::string &sql, const std::vector<std::string> &values, const std::vector<Oid> &types,
                    const std::vector<bool> &nulls, const std::string &operation) {
    reconnectIfLost(operation);
    std::string key = sql;
    for (Oid type : types) key += "|" + std::to_string(type);
    auto found = m_prepared.find(key);
    if (found == m_prepared.end()) {
      const std::string name = "tw" + std::to_string(m_prepared.size());
      PGresult *prepared = PQprepare(m_conn, name.c_str(), sql.c_str(), int(types.size()), types.data());
      check(prepared, operation);
      PQclear(prepared);
      found = m_prepared.emplace(key, name).first;
    }
    std::vector<const char *> pointers(values.size());
    for (size_t i = 0; i < values.size(); ++i) pointers[i] = nulls[i] ? nullptr : values[i].c_str();
    PGresult *result =
        PQexecPrepared(m_conn, found->second.c_str(), int(values.size()), pointers.data(), nullptr, nullptr, 0);
    check(result, operation);
    return result;
  }

 private:
  // A connection that broke between transactions is opened again (with connect()'s retries);
  // one that broke inside a transaction is not: the transaction is lost and the caller hears so.
  void reconnectIfLost(const std::string &operation) {
    if (PQstatus(m_conn) == CONNECTION_OK) return;
    if (m_inTransaction)
      throw TrackingError(operation + ": the connection to " + m_shown + " was lost inside a transaction");
    trackingLog()->warn("{}: the connection to {} was lost; connecting again", operation, m_shown);
    connect();
  }

  // Throws (and frees the result) unless it succeeded.
  void check(PGresult *result, const std::string &operation) {
    const ExecStatusType status = result ? PQresultStatus(result) : PGRES_FATAL_ERROR;
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return;
    std::string message = result ? trimmed(PQresultErrorMessage(result)) : std::string();
    if (message.empty()) message = trimmed(PQerrorMessage(m_conn));
    PQclear(result);
    throw TrackingError(operation + ": " + message + " (" + m_shown + ")");
  }

  std::string m_conninfo;
  std::string m_shown;
  PGconn *m_conn = nullptr;
  std::map<std::string, std::string> m_prepared;  // statement text and parameter types -> name
  bool m_inTransaction = false;
};

bool PgCursor::step() {
  if (!m_result) {
    m_result = m_db->execute(m_sql, m_values, m_types, m_null, m_operation);
    m_row = -1;
    const char *changed = PQcmdTuples(m_result);
    m_changes = changed && *changed ? std::strtoll(changed, nullptr, 10) : 0;
  }
  if (m_row + 1 < PQntuples(m_result)) {
    ++m_row;
    return true;
  }
  return false;
}

}  // namespace

std::unique_ptr<Connection> openPostgres(const std::string &conninfo, const std::string &shown) {
  auto connection = std::make_unique<PgConnection>(conninfo, shown);
  connection->connect();
  return connection;
}

}  // namespace tw::tracking::sql
