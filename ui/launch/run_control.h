#pragma once
// Asks a run to stop: sets its stop flag in the tracking database, which rank 0 polls; the run
// stops after the next step with a checkpoint and ends KILLED. The write happens on a worker
// thread: a busy database must never freeze the window.

#include <QObject>
#include <QString>

namespace tw::ui {

class RunControl : public QObject {
  Q_OBJECT

 public:
  explicit RunControl(QObject *parent = nullptr) : QObject(parent) {}
  void requestStop(const QString &databasePath, qint64 runId);

 Q_SIGNALS:
  void stopRequested(qint64 runId);
  void failed(const QString &message);
};

}  // namespace tw::ui
