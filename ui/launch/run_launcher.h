#pragma once
// Starts training from Studio the way a terminal would: `torchwright launch RUN.yaml --detach`,
// as a QProcess the UI thread never waits on. The launcher puts itself in its own session, so
// training goes on when Studio closes; Studio re-attaches through the tracking database.

#include <QObject>
#include <QString>
#include <QStringList>

class QProcess;

namespace tw::ui {

class RunLauncher : public QObject {
  Q_OBJECT

 public:
  explicit RunLauncher(QObject *parent = nullptr);

  // The CLI beside Studio's executable; tests point it at the build's bin folder.
  static QString defaultCliPath();
  void setCliPath(const QString &path) { m_cliPath = path; }
  QString cliPath() const { return m_cliPath; }
  bool isBusy() const { return m_process != nullptr; }

  // Starts the launch; answers with launched() or failed(). False when one is still starting.
  bool launch(const QString &runFile, const QString &workspace, int processes);

 Q_SIGNALS:
  void launched(const QString &runUuid);
  void failed(const QString &message);

 private:
  void onFinished(int exitCode);

  QString m_cliPath;
  QProcess *m_process = nullptr;
};

}  // namespace tw::ui
