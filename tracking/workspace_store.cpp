#include "tracking/workspace_store.h"

#include "tracking/store.h"
#include "tracking/store_location.h"

#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace tw::tracking {

std::string workspaceSettingsPath(const std::string &workspace) {
  return (fs::path(workspace) / "workspace.yaml").string();
}

std::string defaultStorePath(const std::string &workspace) { return (fs::path(workspace) / "tracking.db").string(); }

namespace {

// workspace.yaml as a node (a map, or null when the file is missing or empty); throws
// TrackingError naming the file and line.
YAML::Node loadSettings(const std::string &path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return {};
  YAML::Node settings;
  try {
    settings = YAML::LoadFile(path);
  } catch (const YAML::Exception &e) {
    throw TrackingError(path + ":" + std::to_string(e.mark.line + 1) + ": not valid YAML: " + e.msg);
  }
  if (!settings.IsNull() && !settings.IsMap())
    throw TrackingError(path + ":" + std::to_string(settings.Mark().line + 1) +
                        ": expected settings as `key: value` lines, such as store: postgresql://user@host/database");
  return settings;
}

// A password in the location is refused: the settings file is the workspace's, often shared.
void refusePassword(const StoreLocation &location, const std::string &where) {
  if (location.hasPassword())
    throw TrackingError(where + ": " + location.shown() +
                        " holds a password, which must not be stored in the workspace; put it in ~/.pgpass "
                        "(or the file PGPASSFILE names) or in PGPASSWORD");
}

// `store:` from the settings file as written, or empty.
std::string settingsValue(const std::string &workspace) {
  const std::string path = workspaceSettingsPath(workspace);
  const YAML::Node settings = loadSettings(path);
  if (!settings.IsMap()) return {};  // no file, or one without settings
  const YAML::Node store = settings["store"];
  if (!store) return {};
  int line = store.Mark().line;  // an empty value has none of its own: the key's line then
  for (const auto &entry : settings)
    if (entry.first.IsScalar() && entry.first.Scalar() == "store") line = entry.first.Mark().line;
  const std::string where = path + ":" + std::to_string(line + 1) + ": store";
  if (!store.IsScalar() || store.Scalar().empty())
    throw TrackingError(where + ": expected a store URL (sqlite:///path or postgresql://user@host/database)");
  StoreLocation location;
  try {
    location = StoreLocation::parse(store.Scalar());
  } catch (const TrackingError &e) {
    throw TrackingError(where + ": " + e.what());
  }
  refusePassword(location, where);
  return store.Scalar();
}

}  // namespace

std::string configuredStore(const std::string &workspace) { return settingsValue(workspace); }

void setConfiguredStore(const std::string &workspace, const std::string &location) {
  const std::string path = workspaceSettingsPath(workspace);
  if (!location.empty()) refusePassword(StoreLocation::parse(location), path + ": store");
  YAML::Node settings = loadSettings(path);
  if (!settings.IsMap()) settings = YAML::Node(YAML::NodeType::Map);
  if (location.empty())
    settings.remove("store");
  else
    settings["store"] = location;
  YAML::Emitter out;
  out << settings;
  const std::string temporary = path + ".tmp";
  {
    std::ofstream file(temporary, std::ios::trunc);
    file << "# Torchwright's settings for this workspace (the store: tracking/workspace_store.h)\n" << out.c_str()
         << "\n";
    if (!file.flush()) throw TrackingError("cannot write " + temporary);
  }
  std::error_code ec;
  fs::rename(temporary, path, ec);
  if (ec) throw TrackingError("cannot replace " + path + ": " + ec.message());
}

std::string workspaceStore(const std::string &workspace) {
  if (const char *chosen = std::getenv("TW_STORE"); chosen && *chosen) return chosen;
  const std::string configured = settingsValue(workspace);
  if (configured.empty()) return defaultStorePath(workspace);
  const StoreLocation location = StoreLocation::parse(configured);
  if (location.isSqlite() && fs::path(location.target()).is_relative())
    return (fs::path(workspace) / location.target()).string();  // relative to the workspace
  return configured;
}

bool storeMayExist(const std::string &location) {
  const StoreLocation where = StoreLocation::parse(location);
  std::error_code ec;
  return !where.isSqlite() || fs::exists(where.target(), ec);
}

}  // namespace tw::tracking
