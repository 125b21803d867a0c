#include "ui/launch/run_launcher.h"

#include <QRegularExpression>

namespace tw::ui {

RunLauncher::RunLauncher(QObject *parent) : QObject(parent), m_command(new CliCommand(this)) {
  connect(m_command, &CliCommand::finished, this, &RunLauncher::onFinished);
  connect(m_command, &CliCommand::failedToStart, this, &RunLauncher::failed);
}

bool RunLauncher::launch(const QString &runFile, const QString &workspace, int processes) {
  return m_command->run({QStringLiteral("launch"), runFile, QStringLiteral("--workspace"), workspace,
                         QStringLiteral("--nproc-per-node"), QString::number(processes), QStringLiteral("--detach")});
}

void RunLauncher::onFinished(int exitCode, const QString &out, const QString &err) {
  // --detach returns once the run is recorded and its launcher is in the background.
  const auto match = QRegularExpression(QStringLiteral("^run ([0-9a-f]{32})"), QRegularExpression::MultilineOption).match(out);
  if (exitCode == 0 && match.hasMatch()) {
    Q_EMIT launched(match.captured(1));
    return;
  }
  Q_EMIT failed(err.isEmpty() ? tr("torchwright launch exited with code %1").arg(exitCode) : err);
}

}  // namespace tw::ui
