#include "tracking/sql.h"

#include <cmath>
#include <limits>

namespace tw::tracking::sql {

Statement::Statement(Connection *db, const std::string &sql, std::string operation)
    : m_cursor(db->prepare(sql, operation)) {}

Statement &Statement::bindInt64(int index, int64_t value) {
  m_cursor->bindInt64(index, value);
  return *this;
}

Statement &Statement::bindDouble(int index, double value) {
  // SQLite has always stored a bound NaN as NULL; PostgreSQL would keep it, so both bind NULL
  // and the readers' "NULL reads as NaN" holds everywhere.
  if (std::isnan(value))
    m_cursor->bindNull(index);
  else
    m_cursor->bindDouble(index, value);
  return *this;
}

Statement &Statement::bindText(int index, const std::string &value) {
  m_cursor->bindText(index, value);
  return *this;
}

bool Statement::step() { return m_cursor->step(); }

void Statement::run() {
  while (m_cursor->step()) {
  }
  m_changes = m_cursor->changes();
  m_cursor->reset();
}

void Statement::reset() {
  m_cursor->reset();
  m_cursor->clearBindings();
}

double Statement::real(int column) const {
  if (m_cursor->isNull(column)) return std::numeric_limits<double>::quiet_NaN();
  return m_cursor->real(column);
}

Transaction::Transaction(Connection *db, std::string operation) : m_db(db), m_operation(std::move(operation)) {
  m_db->begin(m_operation);
  m_open = true;
}

Transaction::~Transaction() {
  if (m_open) m_db->rollback();
}

void Transaction::commit() {
  m_db->commit(m_operation);
  m_open = false;
}

std::string greatest(const Connection *db, const std::string &commaSeparated) {
  return (db->dialect() == Dialect::Postgres ? "GREATEST(" : "MAX(") + commaSeparated + ")";
}

std::string prefixMatch(const Connection *db, const std::string &column) {
  return column + (db->dialect() == Dialect::Postgres ? " LIKE ?" : " GLOB ?");
}

std::string prefixPattern(const Connection *db, const std::string &prefix) {
  return prefix + (db->dialect() == Dialect::Postgres ? "%" : "*");
}

int64_t limitOrAll(int limit) { return limit > 0 ? limit : std::numeric_limits<int64_t>::max(); }

}  // namespace tw::tracking::sql
