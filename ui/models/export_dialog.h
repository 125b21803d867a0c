#pragma once
// "Export..." for a run (Runs page context menu, the Sweeps page's best trial): format, opset,
// checkpoint, int8 and preprocessing, then `torchwright export` through CliCommand, so the UI
// thread never waits; the check's result (or the refusal) is shown when it is done.

#include <QDialog>
#include <QString>

#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace tw::ui {

class CliCommand;

class ExportDialog : public QDialog {
  Q_OBJECT

 public:
  // `runRef`: the run's id; `runName` names it to the user and the default file.
  ExportDialog(const QString &workspace, const QString &runRef, const QString &runName, QWidget *parent = nullptr);

  void setCliPath(const QString &path);
  void setOutputFile(const QString &path);
  void setFormat(const QString &format);  // "torchscript" | "onnx"
  void setInt8(bool on);
  // The epochs whose checkpoints the run kept (train.keep_epochs): offered after Best and Last.
  void setKeptEpochs(const std::vector<int64_t> &epochs);
  // After a successful export, also register the file as the next version of this model (empty:
  // do not register).
  void setRegisterAs(const QString &model);
  QString outputFile() const;
  // The CLI's arguments for the current choices (without the CLI itself).
  QStringList arguments() const;
  QString resultText() const;
  bool succeeded() const { return m_succeeded; }

 public Q_SLOTS:
  void startExport();

 Q_SIGNALS:
  void exported(const QString &file);  // the file is written, checked and recorded
  void registered(const QString &model);  // ... and registered, when asked
  void exportFailed(const QString &message);

 private:
  void updateFields();
  void onFinished(int exitCode, const QString &out, const QString &err);

  QString m_workspace, m_runRef, m_runName;
  QComboBox *m_format;
  QSpinBox *m_opset;
  QComboBox *m_checkpoint;
  QCheckBox *m_int8;
  QCheckBox *m_preprocessing;
  QCheckBox *m_register;
  QLineEdit *m_model;
  QLineEdit *m_file;
  QPushButton *m_export;
  QLabel *m_status;
  QPlainTextEdit *m_result;
  CliCommand *m_command, *m_registerCommand;
  bool m_succeeded = false;
};

}  // namespace tw::ui
