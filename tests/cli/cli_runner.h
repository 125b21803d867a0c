#pragma once
// Runs the real `torchwright` executable from build/bin and captures what it says.

#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>

struct CliResult {
  int exitCode = -1;
  QString out;
  QString err;
  QString all() const { return out + err; }
};

inline CliResult runCli(const QStringList &arguments, int timeoutMs = 300000,
                        const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment()) {
  QProcess process;
  process.setProcessEnvironment(environment);
  process.setProgram(QStringLiteral(TW_BIN_DIR "/torchwright"));
  process.setArguments(arguments);
  process.start();
  CliResult result;
  if (!process.waitForStarted(10000)) {
    result.err = QStringLiteral("could not start torchwright: ") + process.errorString();
    return result;
  }
  process.waitForFinished(timeoutMs);
  result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
  result.out = QString::fromUtf8(process.readAllStandardOutput());
  result.err = QString::fromUtf8(process.readAllStandardError());
  return result;
}

// A text file the test writes (its path back, empty when it could not), and one it reads.
inline QString writeTextFile(const QString &path, const QString &text) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return {};
  file.write(text.toUtf8());
  return path;
}
inline QString readTextFile(const QString &path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}
