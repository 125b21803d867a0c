#include "ui/models/registry_reader.h"

#include "core/config/sha256.h"
#include "tracking/store.h"

#include <QtConcurrent>

#include <filesystem>
#include <fstream>

namespace tw::ui {

namespace {

// Whether the file still has the digest it was registered with (read on the pool's thread).
std::string fileState(const tracking::ModelVersionRecord &v) {
  std::ifstream in(v.path, std::ios::binary);
  if (!in) return "missing";
  config::Sha256 hash;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) hash.update(buffer, static_cast<size_t>(in.gcount()));
  return hash.hexDigest() == v.sha256 ? "unchanged" : "modified since registration";
}

}  // namespace

QFuture<RegistrySnapshot> readRegistry(const QString &dbPath) {
  return QtConcurrent::run([path = dbPath.toStdString()] {
    RegistrySnapshot snapshot;
    try {
      auto store = tracking::Store::open(path);
      for (const auto &model : store->listModels()) {
        for (const auto &v : store->modelVersions(model.name)) {
          RegistryEntry entry;
          entry.version = v;
          entry.description = model.description;
          if (auto run = store->findRun(v.runUuid)) {
            entry.runId = run->id;
            entry.runDir = run->runDir;
          }
          entry.fileState = fileState(v);
          snapshot.entries.push_back(std::move(entry));
        }
      }
    } catch (const std::exception &e) {
      snapshot.error = QString::fromStdString(e.what());
    }
    return snapshot;
  });
}

}  // namespace tw::ui
