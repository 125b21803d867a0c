#pragma once
// Which tracking store a workspace uses, decided in one place for the CLI, the worker and Studio:
//   1. TW_STORE, when set (the CLI's `--store URL` sets it, so the processes it starts agree);
//   2. `store:` in <workspace>/workspace.yaml, the workspace's settings;
//   3. <workspace>/tracking.db.
// A password never lives in workspace.yaml: a URL with one is refused there, naming the file and
// line (it belongs in ~/.pgpass, PGPASSFILE or PGPASSWORD, which libpq reads).
//
//   auto store = tw::tracking::Store::open(tw::tracking::workspaceStore(workspace));

#include <string>

namespace tw::tracking {

std::string workspaceStore(const std::string &workspace);
std::string workspaceSettingsPath(const std::string &workspace);  // <workspace>/workspace.yaml
std::string defaultStorePath(const std::string &workspace);       // <workspace>/tracking.db
// `store:` as workspace.yaml says it, or empty for the default (throws TrackingError for a file
// that does not read, naming it and the line).
std::string configuredStore(const std::string &workspace);
// Sets `store:` in workspace.yaml (other settings kept, comments not; an empty location removes
// it, back to tracking.db). Refuses, before writing anything, a location that does not parse or holds a
// password. Written to a temporary file and renamed into place.
void setConfiguredStore(const std::string &workspace, const std::string &location);
// Whether the store holds anything yet, without creating it: the SQLite file exists, or the
// location is a server's (which is asked when opened).
bool storeMayExist(const std::string &location);

}  // namespace tw::tracking
