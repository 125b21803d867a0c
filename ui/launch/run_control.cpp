#include "ui/launch/run_control.h"

#include "tracking/store.h"

#include <QFutureWatcher>
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

}  // namespace tw::ui
