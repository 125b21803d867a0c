#include "ui/launch/cli_command.h"

#include <QCoreApplication>
#include <QDir>
#include <QProcess>

namespace tw::ui {

CliCommand::CliCommand(QObject *parent) : QObject(parent), m_cliPath(defaultCliPath()) {}

QString CliCommand::defaultCliPath() {
  return QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("torchwright"));
}

bool CliCommand::run(const QStringList &arguments) {
  if (m_process) return false;
  m_process = new QProcess(this);
  connect(m_process, &QProcess::finished, this, [this](int exitCode, QProcess::ExitStatus) {
    const QString out = QString::fromUtf8(m_process->readAllStandardOutput());
    const QString err = QString::fromUtf8(m_process->readAllStandardError()).trimmed();
    m_process->deleteLater();
    m_process = nullptr;
    Q_EMIT finished(exitCode, out, err);
  });
  connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
    if (error != QProcess::FailedToStart) return;
    const QString message = tr("Cannot start %1: %2").arg(m_cliPath, m_process->errorString());
    m_process->deleteLater();
    m_process = nullptr;
    Q_EMIT failedToStart(message);
  });
  m_process->start(m_cliPath, arguments);
  return true;
}

}  // namespace tw::ui
