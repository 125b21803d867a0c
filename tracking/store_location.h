#pragma once
// Where a tracking store lives, as a user names it: a SQLite file (a plain path or
// `sqlite:///absolute/path`) or a PostgreSQL database (`postgresql://user@host:port/db?...`,
// any libpq URL). Passwords come from the URL, libpq's password file (~/.pgpass, PGPASSFILE) or
// PGPASSWORD; shown() never contains one.
//
//   auto where = tw::tracking::StoreLocation::parse("postgresql://tw:secret@db/tracking");
//   where.shown();  // "postgresql://tw:***@db/tracking"

#include <string>

namespace tw::tracking {

class StoreLocation {
 public:
  enum class Backend { Sqlite, Postgres };
  // Throws TrackingError for a URL scheme that is neither, or an empty text.
  static StoreLocation parse(const std::string &text);

  Backend backend() const { return m_backend; }
  bool isSqlite() const { return m_backend == Backend::Sqlite; }
  // The SQLite file path, or the libpq connection URL as given (password included).
  const std::string &target() const { return m_target; }
  // For messages and listings: the password, in the user part or as a `password=` parameter,
  // replaced by ***.
  std::string shown() const;
  bool hasPassword() const;

 private:
  Backend m_backend = Backend::Sqlite;
  std::string m_target;
};

// A location as messages and logs show it: shown() where it parses, else the text with anything
// after "://" up to '@' hidden. Never throws.
std::string shownLocation(const std::string &location);

}  // namespace tw::tracking
