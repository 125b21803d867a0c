#pragma once
// The tracking schema as numbered forward migrations. Version N is reached by applying
// scripts 1..N in order; the version lives in the one-row table schema_version.

struct sqlite3;

namespace tw::tracking::schema {

int currentVersion();
// 0 for a file without the schema_version table (new or empty).
int readVersion(sqlite3 *db);
// Brings the file to currentVersion() in one transaction; throws TrackingError for a file
// written by a newer Torchwright.
void migrate(sqlite3 *db);

}  // namespace tw::tracking::schema
