#include "ui/design/onnx_import_runner.h"

#include "ui/launch/cli_command.h"

#include <QProcess>

#include <csignal>
#include <unistd.h>

namespace tw::ui {

OnnxImportRunner::OnnxImportRunner(QObject *parent) : QObject(parent), m_cliPath(CliCommand::defaultCliPath()) {}

OnnxImportRunner::~OnnxImportRunner() {
  // Studio closing mid-import: the import is not left running without anyone to read its report.
  if (m_process) {
    m_process->disconnect(this);
    stopGroup();
    m_process->waitForFinished(2000);  // the group was killed; this only reaps it
  }
}

bool OnnxImportRunner::start(const QString &onnxFile, const QString &modelFile, const QString &inputShape) {
  if (m_process) return false;
  m_cancelling = false;
  m_process = new QProcess(this);
  // Its own process group, so that cancel() reaches the worker the CLI starts as well.
  m_process->setChildProcessModifier([] { ::setpgid(0, 0); });
  connect(m_process, &QProcess::finished, this, [this](int exitCode, QProcess::ExitStatus status) {
    const QString out = QString::fromUtf8(m_process->readAllStandardOutput());
    const QString err = QString::fromUtf8(m_process->readAllStandardError()).trimmed();
    m_process->deleteLater();
    m_process = nullptr;
    if (m_cancelling) {
      Q_EMIT cancelled();
      return;
    }
    if (status == QProcess::CrashExit) {
      Q_EMIT finished(-1, out, err.isEmpty() ? tr("torchwright import stopped unexpectedly.") : err);
      return;
    }
    Q_EMIT finished(exitCode, out, err);
  });
  connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
    if (error != QProcess::FailedToStart) return;
    const QString message = tr("Cannot start %1: %2").arg(m_cliPath, m_process->errorString());
    m_process->deleteLater();
    m_process = nullptr;
    Q_EMIT finished(-1, QString(), message);
  });
  QStringList arguments{QStringLiteral("import"), onnxFile, QStringLiteral("-o"), modelFile, QStringLiteral("--json")};
  if (!inputShape.isEmpty()) arguments << QStringLiteral("--input-shape") << inputShape;
  m_process->start(m_cliPath, arguments);
  return true;
}

void OnnxImportRunner::cancel() {
  if (!m_process || m_cancelling) return;
  m_cancelling = true;
  stopGroup();  // finished() follows, which reports cancelled()
}

void OnnxImportRunner::stopGroup() {
  const qint64 pid = m_process->processId();
  // Before the child has made its group, the group does not exist yet: the CLI alone is killed.
  if (pid <= 0 || ::kill(-static_cast<pid_t>(pid), SIGKILL) != 0) m_process->kill();
}

}  // namespace tw::ui
