#include "ui/models/export_dialog.h"

#include "core/config/checkpoint_choice.h"
#include "core/config/onnx_opsets.h"
#include "ui/common/file_dialogs.h"
#include "ui/launch/cli_command.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace tw::ui {

namespace {

QString safeFileName(QString name) {
  for (QChar &c : name)
    if (!c.isLetterOrNumber() && c != '-' && c != '_' && c != '.') c = '_';
  return name.isEmpty() ? QStringLiteral("model") : name;
}

}  // namespace

ExportDialog::ExportDialog(const QString &workspace, const QString &runRef, const QString &runName, QWidget *parent)
    : QDialog(parent),
      m_workspace(workspace),
      m_runRef(runRef),
      m_runName(runName),
      m_command(new CliCommand(this)),
      m_registerCommand(new CliCommand(this)) {
  setWindowTitle(tr("Export %1").arg(runName));
  m_format = new QComboBox(this);
  m_format->addItem(tr("TorchScript (.pt)"), QStringLiteral("torchscript"));
  m_format->addItem(tr("ONNX (.onnx)"), QStringLiteral("onnx"));
  m_opset = new QSpinBox(this);
  m_opset->setRange(config::kMinOnnxOpset, config::kMaxOnnxOpset);
  m_opset->setValue(config::kMaxOnnxOpset);
  m_checkpoint = new QComboBox(this);
  m_checkpoint->addItem(tr("Best"), QStringLiteral("best"));
  m_checkpoint->addItem(tr("Last"), QStringLiteral("last"));
  m_int8 = new QCheckBox(tr("int8 weights and activations (calibrated on training data)"), this);
  m_preprocessing = new QCheckBox(tr("Bake the run's preprocessing in (the model takes raw inputs)"), this);
  m_preprocessing->setChecked(true);
  m_register = new QCheckBox(tr("Register as a version of the model"), this);
  m_model = new QLineEdit(this);
  m_model->setPlaceholderText(tr("model name"));
  m_model->setEnabled(false);
  auto *registerRow = new QHBoxLayout;
  registerRow->addWidget(m_register);
  registerRow->addWidget(m_model, 1);
  connect(m_register, &QCheckBox::toggled, m_model, &QLineEdit::setEnabled);
  m_file = new QLineEdit(this);
  auto *browse = new QPushButton(tr("Browse..."), this);
  auto *fileRow = new QHBoxLayout;
  fileRow->addWidget(m_file, 1);
  fileRow->addWidget(browse);

  auto *form = new QFormLayout;
  form->addRow(tr("Format:"), m_format);
  form->addRow(tr("ONNX opset:"), m_opset);
  form->addRow(tr("Checkpoint:"), m_checkpoint);
  form->addRow(QString(), m_int8);
  form->addRow(QString(), m_preprocessing);
  form->addRow(tr("File:"), fileRow);
  form->addRow(QString(), registerRow);

  m_status = new QLabel(this);
  m_status->setWordWrap(true);
  m_result = new QPlainTextEdit(this);
  m_result->setReadOnly(true);
  m_result->setPlaceholderText(tr("The export's check appears here."));
  auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  m_export = buttons->addButton(tr("Export"), QDialogButtonBox::AcceptRole);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(m_export, &QPushButton::clicked, this, &ExportDialog::startExport);

  auto *layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(m_status);
  layout->addWidget(m_result, 1);
  layout->addWidget(buttons);
  resize(620, 420);

  connect(m_format, &QComboBox::currentIndexChanged, this, [this] {
    // The default file follows the format's extension.
    const QString file = m_file->text();
    const QString ext = m_format->currentData().toString() == QLatin1String("onnx") ? ".onnx" : ".pt";
    if (file.endsWith(QLatin1String(".pt")) || file.endsWith(QLatin1String(".onnx")))
      m_file->setText(file.left(file.lastIndexOf('.')) + ext);
    updateFields();
  });
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString file = chooseSaveFile(this, tr("Export to"), m_file->text());
    if (!file.isEmpty()) m_file->setText(file);
  });
  connect(m_command, &CliCommand::finished, this, &ExportDialog::onFinished);
  connect(m_command, &CliCommand::failedToStart, this, [this](const QString &message) {
    onFinished(127, QString(), message);
  });
  connect(m_registerCommand, &CliCommand::finished, this, [this](int code, const QString &out, const QString &err) {
    m_result->appendPlainText(code == 0 ? out.trimmed() : err);
    if (code == 0) {
      m_status->setText(tr("Exported to %1 and registered as %2.").arg(m_file->text(), m_model->text()));
      Q_EMIT registered(m_model->text());
    } else {
      m_status->setText(tr("Exported to %1, but not registered: %2").arg(m_file->text(), err));
      m_status->setStyleSheet(QStringLiteral("color: #b00020;"));
    }
  });
  m_file->setText(QDir(m_workspace).filePath(QStringLiteral("exports/") + safeFileName(runName) + ".pt"));
  updateFields();
}

void ExportDialog::setCliPath(const QString &path) {
  m_command->setCliPath(path);
  m_registerCommand->setCliPath(path);
}

void ExportDialog::setRegisterAs(const QString &model) {
  m_register->setChecked(!model.isEmpty());
  m_model->setText(model);
}
void ExportDialog::setOutputFile(const QString &path) { m_file->setText(path); }
QString ExportDialog::outputFile() const { return m_file->text(); }
QString ExportDialog::resultText() const { return m_result->toPlainText(); }

void ExportDialog::setFormat(const QString &format) {
  m_format->setCurrentIndex(std::max(0, m_format->findData(format)));
}

void ExportDialog::setKeptEpochs(const std::vector<int64_t> &epochs) {
  while (m_checkpoint->count() > 2) m_checkpoint->removeItem(2);
  for (const int64_t epoch : epochs)
    m_checkpoint->addItem(tr("End of epoch %1").arg(epoch), QString::fromStdString(config::epochCheckpointName(epoch)));
}

void ExportDialog::setInt8(bool on) { m_int8->setChecked(on); }

void ExportDialog::updateFields() {
  const bool onnx = m_format->currentData().toString() == QLatin1String("onnx");
  m_opset->setEnabled(onnx);
  m_int8->setEnabled(onnx);
  if (!onnx) m_int8->setChecked(false);
}

QStringList ExportDialog::arguments() const {
  const QString format = m_format->currentData().toString();
  QStringList args{"export", m_runRef, "--format", format, "--checkpoint", m_checkpoint->currentData().toString(),
                   "--out", m_file->text(), "--workspace", m_workspace};
  if (format == QLatin1String("onnx")) args << "--opset" << QString::number(m_opset->value());
  if (m_int8->isChecked()) args << "--int8";
  if (!m_preprocessing->isChecked()) args << "--no-preprocessing";
  return args;
}

void ExportDialog::startExport() {
  if (m_command->isBusy()) return;
  // The workspace's exports folder is Studio's default place; the CLI refuses a folder that does
  // not exist, so the default one is made here (a folder, not a file of size).
  if (QFileInfo(m_file->text()).dir().path() == QDir(m_workspace).filePath(QStringLiteral("exports")))
    QDir().mkpath(QDir(m_workspace).filePath(QStringLiteral("exports")));
  m_succeeded = false;
  m_export->setEnabled(false);
  m_status->setText(tr("Exporting and checking..."));
  m_status->setStyleSheet(QString());
  m_result->clear();
  m_command->run(arguments());
}

void ExportDialog::onFinished(int exitCode, const QString &out, const QString &err) {
  m_export->setEnabled(true);
  m_succeeded = exitCode == 0;
  m_result->setPlainText(out + (err.isEmpty() ? QString() : "\n" + err));
  if (m_succeeded) {
    m_status->setText(tr("Exported to %1; the check passed.").arg(m_file->text()));
    Q_EMIT exported(m_file->text());
    if (m_register->isChecked() && !m_model->text().trimmed().isEmpty()) {
      m_registerCommand->run({"models", "register", m_model->text().trimmed(), m_file->text(), "--workspace", m_workspace});
    }
  } else {
    m_status->setText(tr("The export failed: %1").arg(err.isEmpty() ? out.trimmed() : err));
    m_status->setStyleSheet(QStringLiteral("color: #b00020;"));
    Q_EMIT exportFailed(err);
  }
}

}  // namespace tw::ui
