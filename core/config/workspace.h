#pragma once
// Where a workspace keeps its files (see DESIGN.md, "Files on disk").
//
//   <workspace>/tracking.db (or the store tracking/workspace_store.h names), <workspace>/runs/<run-uuid>/{config.yaml, checkpoints/, artifacts/}

#include <string>

namespace tw::config {

// $XDG_DATA_HOME/torchwright, else $HOME/.local/share/torchwright.
std::string defaultWorkspaceDir();
std::string runsRoot(const std::string &workspace);  // <workspace>/runs
std::string runDir(const std::string &workspace, const std::string &runUuid);
// Creates the workspace folder (and runs/) when missing, its user's alone (0700); throws
// std::runtime_error naming the path.
void ensureWorkspace(const std::string &workspace);

}  // namespace tw::config
