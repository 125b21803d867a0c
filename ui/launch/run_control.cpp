#include "ui/launch/run_control.h"

#include "tracking/store.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace tw::ui {

void RunControl::requestStop(const QString &databasePath, qint64 runId) {
  auto *watcher = new QFutureWatcher<QString>(this);
  connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, runId] {
    const QString error = watcher->result();
    watcher->deleteLater();
    if (error.isEmpty()) Q_EMIT stopRequested(runId);
    else Q_EMIT failed(error);
  });
  watcher->setFuture(QtConcurrent::run([path = databasePath.toStdString(), runId]() -> QString {
    try {
      tracking::Store::open(path)->requestStop(runId);
      return {};
    } catch (const std::exception &e) {
      return QString::fromUtf8(e.what());
    }
  }));
}

}  // namespace tw::ui
