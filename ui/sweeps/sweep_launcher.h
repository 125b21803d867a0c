#pragma once
// Starts and resumes sweeps from Studio the way a terminal would:
// `torchwright sweep FILE --workspace W --detach` and `torchwright sweep --resume STUDY
// --workspace W --detach`, as a QProcess the UI thread never waits on. The sweep runs on in the
// background when Studio closes; Studio follows it through the tracking database.

#include <QObject>
#include <QString>
#include <QStringList>

class QProcess;

namespace tw::ui {

class SweepLauncher : public QObject {
  Q_OBJECT

 public:
  explicit SweepLauncher(QObject *parent = nullptr);

  void setCliPath(const QString &path) { m_cliPath = path; }
  QString cliPath() const { return m_cliPath; }
  bool isBusy() const { return m_process != nullptr; }

  // Each answers with started() or failed(); false when a start is still under way.
  bool start(const QString &sweepFile, const QString &workspace);
  bool resume(const QString &study, const QString &workspace);

 Q_SIGNALS:
  // The study's uuid when the command printed one, and its own words about what it started.
  void started(const QString &studyUuid, const QString &message);
  void failed(const QString &message);

 private:
  bool run(const QStringList &arguments);
  void onFinished(int exitCode);

  QString m_cliPath;
  QProcess *m_process = nullptr;
};

}  // namespace tw::ui
