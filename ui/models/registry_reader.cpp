#include "ui/models/registry_reader.h"

#include "app/common/model_file_state.h"
#include "tracking/store.h"

#include <filesystem>

namespace tw::ui {

namespace {

constexpr const char *kTorchScript = "torchscript";

// A TorchScript file of the same run for an entry in another format: a registered version whose
// file is there, else an export the run recorded whose file is there.
void findTorchScriptSibling(const tracking::Store &store, const std::vector<RegistryEntry> &entries, RegistryEntry &entry) {
  if (entry.version.format == kTorchScript || entry.version.runUuid.empty()) return;
  for (const RegistryEntry &other : entries) {
    if (other.version.runUuid != entry.version.runUuid || other.version.format != kTorchScript) continue;
    if (other.fileState == "missing") continue;
    entry.torchscriptSibling = other.version.path;
    entry.siblingName = other.version.model + " version " + std::to_string(other.version.version);
    return;
  }
  if (entry.runId == 0) return;
  namespace fs = std::filesystem;
  for (const tracking::Artifact &a : store.artifacts(entry.runId)) {
    if (a.kind != std::string("export:") + kTorchScript) continue;
    const fs::path path = fs::path(a.path).is_absolute() ? fs::path(a.path) : fs::path(entry.runDir) / a.path;
    std::error_code error;
    if (!fs::is_regular_file(path, error)) continue;  // a stat: here, on the pool's thread
    entry.torchscriptSibling = path.lexically_normal().string();
    entry.siblingName = path.filename().string();
    return;
  }
}

}  // namespace

RegistrySnapshot readRegistry(tracking::Store &store) {
  RegistrySnapshot snapshot;
  for (const auto &model : store.listModels()) {
    for (const auto &v : store.modelVersions(model.name)) {
      RegistryEntry entry;
      entry.version = v;
      entry.description = model.description;
      if (auto run = store.findRun(v.runUuid)) {
        entry.runId = run->id;
        entry.runDir = run->runDir;
        const auto params = store.params(run->id);
        if (auto found = params.find("data.dataset"); found != params.end()) entry.dataset = found->second;
        if (auto found = params.find("data.path"); found != params.end() && !found->second.empty())
          entry.dataset += " (" + found->second + ")";
      }
      entry.fileState = app::modelFileState(v);  // reads the file: here, off the UI thread
      snapshot.entries.push_back(std::move(entry));
    }
  }
  for (RegistryEntry &entry : snapshot.entries) findTorchScriptSibling(store, snapshot.entries, entry);
  return snapshot;
}

}  // namespace tw::ui
