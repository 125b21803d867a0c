#pragma once
// Starts training from Studio the way a terminal would: `torchwright launch RUN.yaml --detach`
// (through CliCommand, which the UI thread never waits on). The launcher puts itself in its own
// session, so training goes on when Studio closes; Studio re-attaches through the tracking database.

#include "ui/launch/cli_command.h"

#include <QObject>
#include <QString>

namespace tw::ui {

class RunLauncher : public QObject {
  Q_OBJECT

 public:
  explicit RunLauncher(QObject *parent = nullptr);

  static QString defaultCliPath() { return CliCommand::defaultCliPath(); }
  void setCliPath(const QString &path) { m_command->setCliPath(path); }
  QString cliPath() const { return m_command->cliPath(); }
  bool isBusy() const { return m_command->isBusy(); }

  // Starts the launch; answers with launched() or failed(). False when one is still starting.
  bool launch(const QString &runFile, const QString &workspace, int processes);

 Q_SIGNALS:
  void launched(const QString &runUuid);
  void failed(const QString &message);

 private:
  void onFinished(int exitCode, const QString &out, const QString &err);

  CliCommand *m_command;
};

}  // namespace tw::ui
