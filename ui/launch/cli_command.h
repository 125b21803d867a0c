#pragma once
// One `torchwright ... --detach` command started from Studio as a QProcess the UI thread never
// waits on: the CLI records what it starts, puts the long work in its own session and returns.
// RunLauncher (launch) and SweepLauncher (sweep) read what it printed.

#include <QObject>
#include <QString>
#include <QStringList>

class QProcess;

namespace tw::ui {

class CliCommand : public QObject {
  Q_OBJECT

 public:
  explicit CliCommand(QObject *parent = nullptr);

  // The CLI beside Studio's executable; tests point it at the build's bin folder.
  static QString defaultCliPath();
  void setCliPath(const QString &path) { m_cliPath = path; }
  QString cliPath() const { return m_cliPath; }
  bool isBusy() const { return m_process != nullptr; }

  // Answers with finished() or, when the CLI cannot be started, failedToStart(); false while a
  // command is still running.
  bool run(const QStringList &arguments);

 Q_SIGNALS:
  void finished(int exitCode, const QString &out, const QString &err);
  void failedToStart(const QString &message);

 private:
  QString m_cliPath;
  QProcess *m_process = nullptr;
};

}  // namespace tw::ui
