#include "ui/launch/run_launcher.h"

#include <QCoreApplication>
#include <QDir>
#include <QProcess>
#include <QRegularExpression>

namespace tw::ui {

RunLauncher::RunLauncher(QObject *parent) : QObject(parent), m_cliPath(defaultCliPath()) {}

QString RunLauncher::defaultCliPath() {
  return QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("torchwright"));
}

bool RunLauncher::launch(const QString &runFile, const QString &workspace, int processes) {
  if (m_process) return false;
  m_process = new QProcess(this);
  connect(m_process, &QProcess::finished, this, [this](int exitCode, QProcess::ExitStatus) { onFinished(exitCode); });
  connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
    if (error != QProcess::FailedToStart) return;
    const QString message = tr("Cannot start %1: %2").arg(m_cliPath, m_process->errorString());
    m_process->deleteLater();
    m_process = nullptr;
    Q_EMIT failed(message);
  });
  m_process->start(m_cliPath, {QStringLiteral("launch"), runFile, QStringLiteral("--workspace"), workspace,
                               QStringLiteral("--nproc-per-node"), QString::number(processes),
                               QStringLiteral("--detach")});
  return true;
}

void RunLauncher::onFinished(int exitCode) {
  // --detach returns once the run is recorded and its launcher is in the background.
  const QString out = QString::fromUtf8(m_process->readAllStandardOutput());
  const QString err = QString::fromUtf8(m_process->readAllStandardError()).trimmed();
  m_process->deleteLater();
  m_process = nullptr;
  const auto match = QRegularExpression(QStringLiteral("^run ([0-9a-f]{32})"), QRegularExpression::MultilineOption).match(out);
  if (exitCode == 0 && match.hasMatch()) {
    Q_EMIT launched(match.captured(1));
    return;
  }
  Q_EMIT failed(err.isEmpty() ? tr("torchwright launch exited with code %1").arg(exitCode) : err);
}

}  // namespace tw::ui
