#pragma once
// File > Import ONNX…: the ONNX file, the model file to write (by default
// `<models folder>/<stem>.model.yaml`, or beside the ONNX file without a workspace), then
// `torchwright import --json` through OnnxImportRunner with a busy bar and Cancel. On success the
// page opens the model file (imported()) and the dialog lists every ONNX node and what it became;
// a refusal is shown as the CLI wrote it (every unmapped node named) and the open design stays.
// A file that leaves its input size open gets a C,H,W field and Import again.
//
//   auto *dialog = new ImportDialog(modelsFolder, this);
//   dialog->setOnnxFile(path);
//   dialog->startImport();   // what the Import button does

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace tw::ui {

class OnnxImportRunner;
struct OnnxImportReport;

class ImportDialog : public QDialog {
  Q_OBJECT

 public:
  // `modelsFolder`: where the model file goes by default; "" puts it beside the ONNX file.
  explicit ImportDialog(const QString &modelsFolder, QWidget *parent = nullptr);

  OnnxImportRunner *runner() const { return m_runner; }
  // Sets the ONNX file and, until the person has chosen one, the model file beside the default.
  void setOnnxFile(const QString &path);
  void setModelFile(const QString &path);
  void setInputShape(const QString &shape);
  QString modelFile() const;
  // The model file for an ONNX file: `<folder>/<stem>.model.yaml`.
  static QString defaultModelFile(const QString &onnxFile, const QString &modelsFolder);

  // The Import button: runs the CLI; false when the fields are incomplete or one is running.
  bool startImport();
  // The page answers imported(): the model file is open ("" ) or could not be opened (why).
  void modelOpened(const QString &error);

  // What the dialog shows, for tests and screen readers alike.
  QString message() const;
  QString refusal() const;
  QTableWidget *reportTable() const { return m_report; }
  QLineEdit *inputShapeField() const { return m_shape; }
  bool isImporting() const;

 Q_SIGNALS:
  // The CLI wrote the model file; the page opens it and calls modelOpened().
  void imported(const QString &modelFile);
  // Every import ends with this: `ok` when the model is written and open, else refused, failed or
  // cancelled (message() and refusal() say which).
  void importFinished(bool ok);

 protected:
  void reject() override;

 private:
  void onFinished(int exitCode, const QString &out, const QString &err);
  void showReport(const OnnxImportReport &report);
  void setBusy(bool busy);
  void fail(const QString &message, const QString &details);
  void browseOnnx();
  void browseModel();

  QString m_modelsFolder;
  OnnxImportRunner *m_runner;
  QLineEdit *m_onnx, *m_model, *m_shape;
  QLabel *m_shapeLabel, *m_message;
  QProgressBar *m_busy;
  QPlainTextEdit *m_refusal;
  QTableWidget *m_report;
  QDialogButtonBox *m_buttons;
  QPushButton *m_import, *m_cancel;
  bool m_modelChosen = false;  // the person named the model file: a new ONNX file keeps it
  QString m_weightsFile;       // the running import's, and whether it and the model file were
  bool m_weightsWereThere = false, m_modelWasThere = false;  // there before it started
};

}  // namespace tw::ui
