#include "ui/sweeps/sweep_launcher.h"

#include <QRegularExpression>

namespace tw::ui {

SweepLauncher::SweepLauncher(QObject *parent) : QObject(parent), m_command(new CliCommand(this)) {
  connect(m_command, &CliCommand::finished, this, &SweepLauncher::onFinished);
  connect(m_command, &CliCommand::failedToStart, this, &SweepLauncher::failed);
}

bool SweepLauncher::start(const QString &sweepFile, const QString &workspace) {
  return m_command->run(
      {QStringLiteral("sweep"), sweepFile, QStringLiteral("--workspace"), workspace, QStringLiteral("--detach")});
}

bool SweepLauncher::resume(const QString &study, const QString &workspace) {
  return m_command->run({QStringLiteral("sweep"), QStringLiteral("--resume"), study, QStringLiteral("--workspace"),
                         workspace, QStringLiteral("--detach")});
}

void SweepLauncher::onFinished(int exitCode, const QString &rawOut, const QString &err) {
  // --detach returns once the study is recorded and its driver is in the background.
  const QString out = rawOut.trimmed();
  if (exitCode == 0) {
    const auto match = QRegularExpression(QStringLiteral("\\b([0-9a-f]{32})\\b")).match(out);
    Q_EMIT started(match.hasMatch() ? match.captured(1) : QString(), err.isEmpty() ? out : err);
    return;
  }
  Q_EMIT failed(err.isEmpty() ? tr("torchwright sweep exited with code %1").arg(exitCode) : err);
}

}  // namespace tw::ui
