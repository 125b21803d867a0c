#include "core/config/workspace.h"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace fs = std::filesystem;

namespace tw::config {

std::string defaultWorkspaceDir() {
  if (const char *xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg)
    return (fs::path(xdg) / "torchwright").string();
  const char *home = std::getenv("HOME");
  return (fs::path(home && *home ? home : ".") / ".local" / "share" / "torchwright").string();
}

std::string runsRoot(const std::string &workspace) {
  return (fs::path(workspace) / "runs").string();
}

std::string runDir(const std::string &workspace, const std::string &runUuid) {
  return (fs::path(runsRoot(workspace)) / runUuid).string();
}

void ensureWorkspace(const std::string &workspace) {
  std::error_code ec;
  const bool fresh = !fs::exists(workspace, ec);
  fs::create_directories(fs::path(workspace) / "runs", ec);
  if (ec)
    throw std::runtime_error("cannot create workspace '" + workspace + "': " + ec.message());
  // Runs hold data, configurations and weights: a workspace this creates is its user's alone (an
  // existing folder keeps the permissions its owner gave it).
  if (fresh) fs::permissions(workspace, fs::perms::owner_all, fs::perm_options::replace, ec);
}

}  // namespace tw::config
