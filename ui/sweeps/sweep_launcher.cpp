#include "ui/sweeps/sweep_launcher.h"

#include "ui/launch/run_launcher.h"

#include <QProcess>
#include <QRegularExpression>

namespace tw::ui {

SweepLauncher::SweepLauncher(QObject *parent) : QObject(parent), m_cliPath(RunLauncher::defaultCliPath()) {}

bool SweepLauncher::start(const QString &sweepFile, const QString &workspace) {
  return run({QStringLiteral("sweep"), sweepFile, QStringLiteral("--workspace"), workspace, QStringLiteral("--detach")});
}

bool SweepLauncher::resume(const QString &study, const QString &workspace) {
  return run({QStringLiteral("sweep"), QStringLiteral("--resume"), study, QStringLiteral("--workspace"), workspace,
              QStringLiteral("--detach")});
}

bool SweepLauncher::run(const QStringList &arguments) {
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
  m_process->start(m_cliPath, arguments);
  return true;
}

void SweepLauncher::onFinished(int exitCode) {
  // --detach returns once the study is recorded and its driver is in the background.
  const QString out = QString::fromUtf8(m_process->readAllStandardOutput()).trimmed();
  const QString err = QString::fromUtf8(m_process->readAllStandardError()).trimmed();
  m_process->deleteLater();
  m_process = nullptr;
  if (exitCode == 0) {
    const auto match = QRegularExpression(QStringLiteral("\\b([0-9a-f]{32})\\b")).match(out);
    Q_EMIT started(match.hasMatch() ? match.captured(1) : QString(), err.isEmpty() ? out : err);
    return;
  }
  Q_EMIT failed(err.isEmpty() ? tr("torchwright sweep exited with code %1").arg(exitCode) : err);
}

}  // namespace tw::ui
