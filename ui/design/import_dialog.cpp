#include "ui/design/import_dialog.h"

#include "core/spec/model_files.h"

#include "ui/common/file_dialogs.h"
#include "ui/common/number_format.h"
#include "ui/common/visible_rows.h"
#include "ui/design/onnx_import_report.h"
#include "ui/design/onnx_import_runner.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace tw::ui {

namespace {

QWidget *withBrowse(QLineEdit *field, QPushButton *button, QWidget *parent) {
  auto *row = new QWidget(parent);
  auto *layout = new QHBoxLayout(row);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(field, 1);
  layout->addWidget(button);
  return row;
}

}  // namespace

ImportDialog::ImportDialog(const QString &modelsFolder, QWidget *parent)
    : QDialog(parent), m_modelsFolder(modelsFolder), m_runner(new OnnxImportRunner(this)), m_onnx(new QLineEdit(this)),
      m_model(new QLineEdit(this)), m_shape(new QLineEdit(this)), m_shapeLabel(new QLabel(tr("Input shape"), this)),
      m_message(new QLabel(this)), m_busy(new QProgressBar(this)), m_refusal(new QPlainTextEdit(this)),
      m_report(new QTableWidget(0, 4, this)), m_buttons(new QDialogButtonBox(QDialogButtonBox::Close, this)),
      m_import(m_buttons->addButton(tr("Import"), QDialogButtonBox::ApplyRole)),
      m_cancel(m_buttons->addButton(tr("Cancel Import"), QDialogButtonBox::ActionRole)) {
  setWindowTitle(tr("Import ONNX"));
  setObjectName(QStringLiteral("importOnnxDialog"));
  m_onnx->setObjectName(QStringLiteral("importOnnxFile"));
  m_model->setObjectName(QStringLiteral("importModelFile"));
  m_shape->setObjectName(QStringLiteral("importInputShape"));
  m_shape->setPlaceholderText(tr("C,H,W, e.g. 3,224,224"));
  m_shape->setToolTip(tr("One sample's shape, for a file that leaves its input size open"));
  auto *browseOnnx = new QPushButton(tr("Browse…"), this);
  auto *browseModel = new QPushButton(tr("Browse…"), this);
  auto *form = new QFormLayout;
  form->addRow(tr("ONNX file"), withBrowse(m_onnx, browseOnnx, this));
  form->addRow(tr("Model file to write"), withBrowse(m_model, browseModel, this));
  form->addRow(m_shapeLabel, m_shape);
  m_shapeLabel->hide();
  m_shape->hide();

  m_busy->setRange(0, 0);  // the CLI reports no progress: a busy bar while it runs
  m_busy->hide();
  m_message->setWordWrap(true);
  m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_refusal->setReadOnly(true);
  m_refusal->setObjectName(QStringLiteral("importRefusal"));
  m_refusal->hide();
  m_report->setObjectName(QStringLiteral("importReport"));
  m_report->setHorizontalHeaderLabels({tr("ONNX node"), tr("Op type"), tr("Became"), tr("Note")});
  m_report->horizontalHeader()->setStretchLastSection(true);
  m_report->verticalHeader()->hide();
  m_report->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_report->setSelectionBehavior(QAbstractItemView::SelectRows);
  keepRowsVisible(m_report);
  m_report->hide();
  m_cancel->setEnabled(false);
  m_import->setDefault(true);

  auto *layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(m_busy);
  layout->addWidget(m_message);
  layout->addWidget(m_refusal, 1);
  layout->addWidget(m_report, 1);
  layout->addWidget(m_buttons);
  resize(760, 420);

  connect(browseOnnx, &QPushButton::clicked, this, &ImportDialog::browseOnnx);
  connect(browseModel, &QPushButton::clicked, this, &ImportDialog::browseModel);
  connect(m_model, &QLineEdit::textEdited, this, [this] { m_modelChosen = true; });
  connect(m_import, &QPushButton::clicked, this, &ImportDialog::startImport);
  connect(m_cancel, &QPushButton::clicked, m_runner, &OnnxImportRunner::cancel);
  connect(m_buttons, &QDialogButtonBox::rejected, this, &ImportDialog::reject);
  connect(m_runner, &OnnxImportRunner::finished, this, &ImportDialog::onFinished);
  connect(m_runner, &OnnxImportRunner::cancelled, this, [this] {
    setBusy(false);
    // The worker writes the weights before the model file: stopped between the two, it leaves
    // weights that no model file names. Only a file this import made is removed.
    if (!m_weightsWereThere && !m_modelWasThere && !QFileInfo::exists(modelFile())) QFile::remove(m_weightsFile);
    m_message->setText(tr("Import cancelled; the open design is unchanged."));
    Q_EMIT importFinished(false);
  });
}

QString ImportDialog::defaultModelFile(const QString &onnxFile, const QString &modelsFolder) {
  const QFileInfo onnx(onnxFile);
  const QString folder = modelsFolder.isEmpty() ? onnx.absolutePath() : modelsFolder;
  return QDir(folder).filePath(onnx.completeBaseName() + QStringLiteral(".model.yaml"));
}

void ImportDialog::setOnnxFile(const QString &path) {
  m_onnx->setText(path);
  if (!m_modelChosen && !path.isEmpty()) m_model->setText(defaultModelFile(path, m_modelsFolder));
}

void ImportDialog::setModelFile(const QString &path) {
  m_model->setText(path);
  m_modelChosen = true;
}

void ImportDialog::setInputShape(const QString &shape) { m_shape->setText(shape); }
QString ImportDialog::modelFile() const { return m_model->text().trimmed(); }
QString ImportDialog::message() const { return m_message->text(); }
QString ImportDialog::refusal() const { return m_refusal->toPlainText(); }
bool ImportDialog::isImporting() const { return m_runner->isBusy(); }

void ImportDialog::browseOnnx() {
  const QString start = m_onnx->text().isEmpty() ? QDir::homePath() : QFileInfo(m_onnx->text()).absolutePath();
  const QString path = chooseOpenFile(this, tr("Import ONNX"), start, tr("ONNX files (*.onnx);;All files (*)"));
  if (!path.isEmpty()) setOnnxFile(path);
}

void ImportDialog::browseModel() {
  const QString path = chooseSaveFile(this, tr("Model File to Write"), modelFile(), tr("Model files (*.model.yaml *.yaml)"));
  if (!path.isEmpty()) setModelFile(path);
}

bool ImportDialog::startImport() {
  if (m_runner->isBusy()) return false;
  const QString onnx = m_onnx->text().trimmed(), model = modelFile();
  if (onnx.isEmpty() || model.isEmpty()) {
    m_message->setText(tr("Choose the ONNX file and the model file to write first."));
    return false;
  }
  m_refusal->hide();
  m_report->hide();
  m_refusal->clear();
  const QString shape = m_shape->text().trimmed();  // empty unless the file asked for it
  m_weightsFile = QString::fromStdString(spec::weightsFileFor(model.toStdString()));
  m_weightsWereThere = QFileInfo::exists(m_weightsFile);
  m_modelWasThere = QFileInfo::exists(model);
  if (!m_runner->start(onnx, model, shape)) return false;
  setBusy(true);
  m_message->setText(tr("Importing %1…").arg(QFileInfo(onnx).fileName()));
  return true;
}

void ImportDialog::setBusy(bool busy) {
  m_busy->setVisible(busy);
  m_cancel->setEnabled(busy);
  m_import->setEnabled(!busy);
  m_onnx->setEnabled(!busy);
  m_model->setEnabled(!busy);
  m_shape->setEnabled(!busy);
}

void ImportDialog::fail(const QString &message, const QString &details) {
  m_message->setText(message);
  m_refusal->setPlainText(details);
  m_refusal->setVisible(!details.isEmpty());
  Q_EMIT importFinished(false);
}

void ImportDialog::onFinished(int exitCode, const QString &out, const QString &err) {
  setBusy(false);
  if (exitCode == 2) return fail(tr("torchwright import refused its arguments; nothing was written."), err);
  if (exitCode != 0) {
    if (exitCode == 1 && OnnxImportText::asksForInputShape(err)) {
      m_shapeLabel->show();
      m_shape->show();
      m_shape->setFocus();
      return fail(tr("The file leaves its input size open. Give one sample's shape (C,H,W) and import again."), err);
    }
    return fail(exitCode == 1 ? tr("Not imported; the open design is unchanged.")
                              : tr("The import did not finish; the open design is unchanged."),
                err);
  }
  OnnxImportReport report;
  QString error;
  if (!OnnxImportText::parse(out, &report, &error)) return fail(error, out.left(4000));
  showReport(report);
  Q_EMIT imported(report.modelFile.isEmpty() ? modelFile() : report.modelFile);
}

void ImportDialog::modelOpened(const QString &error) {
  if (!error.isEmpty()) return fail(tr("The model file was written but does not open: %1").arg(error), QString());
  Q_EMIT importFinished(true);
}

void ImportDialog::showReport(const OnnxImportReport &report) {
  m_report->setRowCount(int(report.rows.size()));
  for (int r = 0; r < report.rows.size(); ++r) {
    const OnnxImportRow &row = report.rows[r];
    const QStringList cells{row.name, row.opType, OnnxImportText::became(row), row.note};
    for (int c = 0; c < cells.size(); ++c) m_report->setItem(r, c, new QTableWidgetItem(cells[c]));
  }
  m_report->resizeColumnsToContents();
  m_report->show();
  m_message->setText(tr("Imported %1 ONNX nodes (opset %2) as %3 model nodes with %4 parameters in %5 s; the weights "
                        "are in %6.")
                         .arg(report.rows.size())
                         .arg(report.opset)
                         .arg(report.modelNodes)
                         .arg(formatNumber(double(report.parameters)))
                         .arg(formatNumber(report.seconds, 2))
                         .arg(QDir::toNativeSeparators(report.weightsFile)));
}

void ImportDialog::reject() {
  // Closing while the CLI runs cancels it: nothing goes on writing a model nobody asked to see.
  if (m_runner->isBusy()) m_runner->cancel();
  QDialog::reject();
}

}  // namespace tw::ui
