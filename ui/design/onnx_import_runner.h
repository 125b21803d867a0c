#pragma once
// `torchwright import FILE.onnx -o OUT.model.yaml --json [--input-shape C,H,W]` as a child process
// the UI thread never waits on. The CLI runs the worker as its own child, so the command starts
// in a process group of its own and Cancel ends the whole group: nothing goes on writing files
// behind a cancelled import.
//
//   auto *runner = new OnnxImportRunner(this);
//   connect(runner, &OnnxImportRunner::finished, this, &Dialog::onFinished);
//   runner->start(onnx, out, {});

#include <QObject>
#include <QString>

class QProcess;

namespace tw::ui {

class OnnxImportRunner : public QObject {
  Q_OBJECT

 public:
  explicit OnnxImportRunner(QObject *parent = nullptr);
  ~OnnxImportRunner() override;

  // The CLI beside Studio's executable, as the Launch page finds it; tests point it elsewhere.
  void setCliPath(const QString &path) { m_cliPath = path; }
  QString cliPath() const { return m_cliPath; }
  bool isBusy() const { return m_process != nullptr; }

  // False while an import is running. `inputShape` ("3,224,224") only when the file leaves it open.
  bool start(const QString &onnxFile, const QString &modelFile, const QString &inputShape);
  // Ends the running import (the CLI and its worker); cancelled() follows.
  void cancel();

 Q_SIGNALS:
  // exitCode 0: `out` holds the JSON report. 1: `err` is the refusal (every unmapped node named);
  // 2: a usage problem. -1: the CLI could not be started or crashed (`err` says which).
  void finished(int exitCode, const QString &out, const QString &err);
  void cancelled();

 private:
  void stopGroup();

  QString m_cliPath;
  QProcess *m_process = nullptr;
  bool m_cancelling = false;
};

}  // namespace tw::ui
