#pragma once
// Asks a run to stop or to checkpoint now: sets its stop (or checkpoint) flag in the tracking database, which rank 0 polls; the run
// stops after the next step with a checkpoint and ends KILLED. The write happens on a worker
// thread: a busy database must never freeze the window.

#include <QList>
#include <QObject>
#include <QPair>
#include <QString>

#include <optional>

namespace tw::ui {

class StoreCall;

class RunControl : public QObject {
  Q_OBJECT

 public:
  explicit RunControl(QObject *parent = nullptr);
  void requestStop(const QString &databasePath, qint64 runId);
  // "Checkpoint now": the run writes last.pt after its next step and trains on.
  void requestCheckpoint(const QString &databasePath, qint64 runId);
  // Deletes finished runs from the database and their folders (checkpoints, artifacts) from disk.
  void deleteRuns(const QString &databasePath, const QList<QPair<qint64, QString>> &runsAndFolders);
  // Sets a tag on every run (labels, the note, the archive mark), or removes it when value is
  // null; one database connection for all of them.
  void setTag(const QString &databasePath, const QList<qint64> &runIds, const QString &key, const QString &value);
  void removeTag(const QString &databasePath, const QList<qint64> &runIds, const QString &key);

 Q_SIGNALS:
  void stopRequested(qint64 runId);
  void checkpointRequested(qint64 runId);
  void runDeleted(qint64 runId);
  void tagsWritten(const QList<qint64> &runIds);
  void failed(const QString &message);

 private:
  void writeTags(const QString &databasePath, const QList<qint64> &runIds, const QString &key,
                 std::optional<QString> value);
  template <typename Write>
  void write(const QString &databasePath, qint64 runId, Write apply, void (RunControl::*done)(qint64));
  StoreCall *m_writes;  // every write reports back, in the order they finish
};

}  // namespace tw::ui
