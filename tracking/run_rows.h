#pragma once
// How a row of `runs` maps to RunRecord, shared by the store's write and read halves, and the
// uuid helpers that runs and studies share.

#include "tracking/run_record.h"

#include <string>

namespace tw::tracking {
namespace sql {
class Connection;
class Statement;
}

// "SELECT <columns> FROM runs r JOIN experiments e ..." in the order readRunRow expects.
extern const char *const kRunSelect;
RunRecord readRunRow(const sql::Statement &query);

// Bumps runs.updated_ms inside the caller's transaction; throws TrackingError when the run
// does not exist, so every write about a missing run fails the same way.
void touchRun(sql::Connection *db, int64_t runId, int64_t nowMs, const std::string &operation);

// The experiment's id, inserting it when new; runs inside the caller's transaction.
int64_t experimentIdFor(sql::Connection *db, const std::string &name, int64_t nowMs);

// Public ids of runs and studies: 32 random lowercase hex digits.
std::string randomUuid();
// Whether a reference may be a uuid prefix (hex digits only; case is ignored).
bool isHexText(const std::string &text);
std::string lowercase(std::string text);

}  // namespace tw::tracking
