#include "ui/models/registry_reader.h"

#include "app/common/model_file_state.h"
#include "tracking/store.h"

#include <QtConcurrent>


namespace tw::ui {

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
          entry.fileState = app::modelFileState(v);  // reads the file: here, off the UI thread
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
