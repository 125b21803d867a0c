#include "ui/launch/run_control.h"

#include "tracking/store.h"
#include "ui/common/store_call.h"

#include <filesystem>

namespace tw::ui {

RunControl::RunControl(QObject *parent) : QObject(parent), m_writes(new StoreCall(this, StoreCall::Delivery::Every)) {}

template <typename Write>
void RunControl::write(const QString &databasePath, qint64 runId, Write apply, void (RunControl::*done)(qint64)) {
  m_writes->run<bool>(
      databasePath,
      [runId, apply](tracking::Store &store) {
        apply(store, runId);
        return true;
      },
      [this, runId, done](bool) { Q_EMIT(this->*done)(runId); }, [this](const QString &error) { Q_EMIT failed(error); });
}

void RunControl::requestStop(const QString &databasePath, qint64 runId) {
  write(databasePath, runId, [](tracking::Store &store, qint64 id) { store.requestStop(id); }, &RunControl::stopRequested);
}

void RunControl::requestCheckpoint(const QString &databasePath, qint64 runId) {
  write(databasePath, runId, [](tracking::Store &store, qint64 id) { store.requestCheckpoint(id); },
        &RunControl::checkpointRequested);
}

void RunControl::deleteRuns(const QString &databasePath, const QList<QPair<qint64, QString>> &runsAndFolders) {
  for (const auto &[runId, folder] : runsAndFolders) {
    write(databasePath, runId,
          [folder = folder.toStdString()](tracking::Store &store, qint64 id) {
            store.deleteRun(id);
            // Only a run's own folder (named by its 32-hex uuid) is ever removed.
            const std::filesystem::path path(folder);
            if (!folder.empty() && path.filename().string().size() == 32) std::filesystem::remove_all(path);
          },
          &RunControl::runDeleted);
  }
}

void RunControl::setTag(const QString &databasePath, const QList<qint64> &runIds, const QString &key,
                        const QString &value) {
  writeTags(databasePath, runIds, key, value);
}

void RunControl::removeTag(const QString &databasePath, const QList<qint64> &runIds, const QString &key) {
  writeTags(databasePath, runIds, key, std::nullopt);
}

void RunControl::writeTags(const QString &databasePath, const QList<qint64> &runIds, const QString &key,
                           std::optional<QString> value) {
  m_writes->run<bool>(
      databasePath,
      [runIds, key = key.toStdString(),
       value = value ? std::optional(value->toStdString()) : std::nullopt](tracking::Store &store) {
        for (qint64 runId : runIds) {
          if (value) store.setTag(runId, key, *value);
          else store.removeTag(runId, key);
        }
        return true;
      },
      [this, runIds](bool) { Q_EMIT tagsWritten(runIds); }, [this](const QString &error) { Q_EMIT failed(error); });
}

}  // namespace tw::ui
