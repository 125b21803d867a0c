#pragma once
// Starts and resumes sweeps from Studio the way a terminal would:
// `torchwright sweep FILE --workspace W --detach` and `torchwright sweep --resume STUDY
// --workspace W --detach` (through CliCommand, which the UI thread never waits on). The sweep
// runs on in the background when Studio closes; Studio follows it through the tracking database.

#include "ui/launch/cli_command.h"

#include <QObject>
#include <QString>

namespace tw::ui {

class SweepLauncher : public QObject {
  Q_OBJECT

 public:
  explicit SweepLauncher(QObject *parent = nullptr);

  void setCliPath(const QString &path) { m_command->setCliPath(path); }
  QString cliPath() const { return m_command->cliPath(); }
  bool isBusy() const { return m_command->isBusy(); }

  // Each answers with started() or failed(); false when a start is still under way.
  bool start(const QString &sweepFile, const QString &workspace);
  bool resume(const QString &study, const QString &workspace);

 Q_SIGNALS:
  // The study's uuid when the command printed one, and its own words about what it started.
  void started(const QString &studyUuid, const QString &message);
  void failed(const QString &message);

 private:
  void onFinished(int exitCode, const QString &out, const QString &err);

  CliCommand *m_command;
};

}  // namespace tw::ui
