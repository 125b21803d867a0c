#pragma once
// The tracking schema as numbered forward migrations. Version N is reached by applying
// scripts 1..N in order; the version lives in the one-row table schema_version. The scripts are
// written once, in SQLite's words; PostgreSQL runs the same scripts with its own column types.

namespace tw::tracking::sql {
class Connection;
}

namespace tw::tracking::schema {

int currentVersion();
// 0 for a database without the schema_version table (new or empty).
int readVersion(sql::Connection *db);
// Brings the database to currentVersion() in one transaction; throws TrackingError for a database
// written by a newer Torchwright.
void migrate(sql::Connection *db);

}  // namespace tw::tracking::schema
