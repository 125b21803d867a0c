#include "tracking/workspace_store.h"

#include "tracking/store.h"
#include "tracking/store_location.h"

#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <filesystem>

namespace fs = std::filesystem;

namespace tw::tracking {

std::string workspaceSettingsPath(const std::string &workspace) {
  return (fs::path(workspace) / "workspace.yaml").string();
}

std::string defaultStorePath(const std::string &workspace) { return (fs::path(workspace) / "tracking.db").string(); }

namespace {

// `store:` from the settings file, or empty; throws TrackingError naming the file and line.
std::string settingsStore(const std::string &workspace) {
  const std::string path = workspaceSettingsPath(workspace);
  std::error_code ec;
  if (!fs::exists(path, ec)) return {};
  YAML::Node settings;
  try {
    settings = YAML::LoadFile(path);
  } catch (const YAML::Exception &e) {
    throw TrackingError(path + ":" + std::to_string(e.mark.line + 1) + ": not valid YAML: " + e.msg);
  }
  const YAML::Node store = settings.IsMap() ? settings["store"] : YAML::Node();
  if (!store) return {};
  const std::string where = path + ":" + std::to_string(store.Mark().line + 1) + ": store";
  if (!store.IsScalar() || store.Scalar().empty())
    throw TrackingError(where + ": expected a store URL (sqlite:///path or postgresql://user@host/database)");
  StoreLocation location;
  try {
    location = StoreLocation::parse(store.Scalar());
  } catch (const TrackingError &e) {
    throw TrackingError(where + ": " + e.what());
  }
  if (location.hasPassword())
    throw TrackingError(where + ": " + location.shown() +
                        " holds a password, which must not be stored in the workspace; put it in ~/.pgpass "
                        "(or the file PGPASSFILE names) or in PGPASSWORD");
  if (location.isSqlite() && fs::path(location.target()).is_relative())
    return (fs::path(workspace) / location.target()).string();  // relative to the workspace
  return store.Scalar();
}

}  // namespace

std::string workspaceStore(const std::string &workspace) {
  if (const char *chosen = std::getenv("TW_STORE"); chosen && *chosen) return chosen;
  const std::string configured = settingsStore(workspace);
  return configured.empty() ? defaultStorePath(workspace) : configured;
}

bool storeMayExist(const std::string &location) {
  const StoreLocation where = StoreLocation::parse(location);
  std::error_code ec;
  return !where.isSqlite() || fs::exists(where.target(), ec);
}

}  // namespace tw::tracking
