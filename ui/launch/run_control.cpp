#include "ui/launch/run_control.h"

#include "tracking/store.h"

#include <QFutureWatcher>

#include <filesystem>
#include <QtConcurrent/QtConcurrentRun>

namespace tw::ui {

template <typename Write>
void RunControl::write(const QString &databasePath, qint64 runId, Write apply, void (RunControl::*done)(qint64)) {
  auto *watcher = new QFutureWatcher<QString>(this);
  connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, runId, done] {
    const QString error = watcher->result();
    watcher->deleteLater();
    if (error.isEmpty()) Q_EMIT(this->*done)(runId);
    else Q_EMIT failed(error);
  });
  watcher->setFuture(QtConcurrent::run([path = databasePath.toStdString(), runId, apply]() -> QString {
    try {
      apply(*tracking::Store::open(path), runId);
      return {};
    } catch (const std::exception &e) {
      return QString::fromUtf8(e.what());
    }
  }));
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
  auto *watcher = new QFutureWatcher<QString>(this);
  connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, runIds] {
    const QString error = watcher->result();
    watcher->deleteLater();
    if (error.isEmpty()) Q_EMIT tagsWritten(runIds);
    else Q_EMIT failed(error);
  });
  watcher->setFuture(QtConcurrent::run([path = databasePath.toStdString(), runIds, key = key.toStdString(),
                                        value = value ? std::optional(value->toStdString()) : std::nullopt]() -> QString {
    try {
      auto store = tracking::Store::open(path);
      for (qint64 runId : runIds) {
        if (value) store->setTag(runId, key, *value);
        else store->removeTag(runId, key);
      }
      return {};
    } catch (const std::exception &e) {
      return QString::fromUtf8(e.what());
    }
  }));
}

}  // namespace tw::ui
