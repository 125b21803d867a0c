#include "ui/launch/launch_page.h"

#include "core/config/data_source_table.h"

#include "core/config/config_fields.h"
#include "core/config/run_config.h"
#include "ui/common/file_dialogs.h"
#include "ui/common/studio_icons.h"
#include "ui/design/model_document.h"
#include "ui/launch/collapsible_section.h"
#include "ui/launch/config_field_widget.h"
#include "ui/launch/config_sections.h"
#include "ui/launch/config_widgets.h"
#include "ui/launch/data_preview.h"
#include "ui/launch/dataset_choices.h"
#include "ui/launch/launch_settings.h"
#include "ui/launch/model_source.h"
#include "ui/launch/run_launcher.h"

#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <set>

namespace tw::ui {

namespace {

QString quoted(const QString &text) {
  QString escaped = text;
  escaped.replace(QLatin1Char('\''), QStringLiteral("''"));
  return QLatin1Char('\'') + escaped + QLatin1Char('\'');
}

// A widget the page lays out itself, made a field of `key` like the generated ones: tagged, the
// key's doc as tooltip, its current value remembered as the default.
template <typename W>
W *asConfigField(W *widget, const char *key) {
  widget->setProperty(kConfigKeyProperty, QString::fromLatin1(key));
  if (const config::ConfigField *field = config::findConfigField(key)) widget->setToolTip(configToolTip(*field));
  rememberConfigDefault(widget);
  return widget;
}

}  // namespace

LaunchPage::LaunchPage(ModelDocument *model, QWidget *parent)
    : QWidget(parent), m_model(model), m_launcher(new RunLauncher(this)),
      m_dataset(configComboBox("data.dataset", this)), m_dataPath(new QLineEdit(this)),
      m_trainLimit(configSpinBox("data.train_limit", this)), m_batchSize(configSpinBox("data.batch_size", this)),
      m_epochs(configSpinBox("train.epochs", this)), m_processes(configSpinBox("distributed.nproc_per_node", this)),
      m_optimizer(configComboBox("train.optimizer", this)), m_lr(configDoubleSpinBox("train.lr", 6, this)),
      m_device(new QLineEdit(QStringLiteral("cpu"), this)), m_experiment(new QLineEdit(QStringLiteral("studio"), this)),
      m_runName(new QLineEdit(this)), m_launch(new QPushButton(tr("Launch"), this)),
      m_previewButton(new QPushButton(tr("Preview Data"), this)), m_preview(new DataPreview(this)),
      m_status(new QLabel(this)), m_csvTask(configComboBox("data.task", this)),
      m_csvTarget(new QComboBox(this)), m_csvMissing(configComboBox("data.missing", this)),
      m_csvCategorical(new QLineEdit(this)),
      m_samples(configSpinBox("data.samples", this)), m_classes(configSpinBox("data.classes", this)),
      m_noise(configDoubleSpinBox("data.noise", 3, this)) {
  m_csvTarget->setEditable(true);
  asConfigField(m_dataPath, "data.path");
  asConfigField(m_device, "train.device");
  asConfigField(m_experiment, "tracking.experiment");
  asConfigField(m_runName, "tracking.run_name");
  asConfigField(m_csvTarget, "data.target");
  asConfigField(m_csvCategorical, "data.categorical");
  // Every other key of the config table, in its section (the table's `section` column).
  std::set<std::string> upFront;
  for (QWidget *widget : findChildren<QWidget *>())
    if (const QString key = widget->property(kConfigKeyProperty).toString(); !key.isEmpty()) upFront.insert(key.toStdString());
  m_sections = new ConfigSections(upFront, this);
  m_modelSource = new ModelSource(m_model, this);
  // Choices, ranges and defaults are the config table's; Studio only suggests a longer first run
  // with a decaying rate than a bare run file gets.
  m_epochs->setValue(10);
  schedule()->setCurrentText(QStringLiteral("cosine"));
  m_csvTarget->setToolTip(m_csvTarget->toolTip() + QLatin1Char('\n') +
                          tr("The column to predict; Preview Data lists the table's columns (default: the last)"));
  m_csvMissing->setToolTip(m_csvMissing->toolTip() + QLatin1Char('\n') +
                           tr("Empty fields, NA, NaN and ?: stop with the row's line, drop the row, or fill with "
                              "the column's mean (most frequent value) or zero"));
  m_csvCategorical->setPlaceholderText(tr("none"));
  m_csvCategorical->setToolTip(m_csvCategorical->toolTip() + QLatin1Char('\n') +
                               tr("Columns of text or codes, comma-separated: each becomes one 0/1 column per "
                                  "value; any other column must hold numbers"));
  m_noise->setSingleStep(0.05);
  m_lr->setSingleStep(1e-4);
  m_dataPath->setPlaceholderText(tr("the dataset's folder or file (CSV, image folder; empty: the system's copy)"));
  m_trainLimit->setSpecialValueText(tr("all"));
  checkpointEvery()->setSpecialValueText(tr("every epoch"));
  m_runName->setPlaceholderText(tr("generated"));
  m_status->setWordWrap(true);

  auto *data = new QGroupBox(tr("Data"), this);
  auto *dataForm = new QFormLayout(data);
  m_dataForm = dataForm;
  auto *pathRow = new QHBoxLayout;
  pathRow->setContentsMargins(0, 0, 0, 0);
  pathRow->addWidget(m_dataPath, 1);
  auto *browse = new QPushButton(tr("Browse…"), this);
  browse->setObjectName(QStringLiteral("browseDataButton"));
  pathRow->addWidget(browse);
  auto *pathBox = new QWidget(this);
  pathBox->setLayout(pathRow);
  dataForm->addRow(tr("Dataset"), m_dataset);
  // A dataset that is not on this machine says so and how to get it, before a run fails on it.
  markInstalledDatasets(m_dataset);
  m_datasetNote = new QLabel(this);
  m_datasetNote->setObjectName(QStringLiteral("datasetNote"));
  m_datasetNote->setWordWrap(true);
  m_datasetNote->setTextInteractionFlags(Qt::TextSelectableByMouse);  // the command, to copy
  dataForm->addRow(QString(), m_datasetNote);
  dataForm->addRow(tr("Path"), pathBox);
  dataForm->addRow(tr("Task"), m_csvTask);
  dataForm->addRow(tr("Target column"), m_csvTarget);
  dataForm->addRow(tr("Missing values"), m_csvMissing);
  dataForm->addRow(tr("Categorical columns"), m_csvCategorical);
  dataForm->addRow(tr("Samples"), m_samples);
  dataForm->addRow(tr("Classes"), m_classes);
  dataForm->addRow(tr("Noise"), m_noise);
  dataForm->addRow(tr("Training examples"), m_trainLimit);
  dataForm->addRow(tr("Batch size"), m_batchSize);
  connect(browse, &QPushButton::clicked, this, &LaunchPage::browseDataPath);
  connect(m_dataset, &QComboBox::currentTextChanged, this, &LaunchPage::showDatasetFields);
  connect(m_dataPath, &QLineEdit::textChanged, this, &LaunchPage::showDatasetFields);
  connect(m_preview, &DataPreview::columnsRead, this, [this](const QStringList &columns) {
    // The preview read the column it names as the target; filling the box with the table's
    // columns is no edit of what the preview shows, so it does not clear it.
    const QSignalBlocker quiet(m_csvTarget);
    const QString current = m_csvTarget->currentText();
    m_csvTarget->clear();
    m_csvTarget->addItems(columns);
    m_csvTarget->setCurrentText(current.isEmpty() || !columns.contains(current) ? columns.value(columns.size() - 1) : current);
  });
  showDatasetFields();

  // The common keys up front, in the order a first run is set up.
  auto *training = new QGroupBox(tr("Training"), this);
  auto *trainForm = new QFormLayout(training);
  trainForm->addRow(tr("Model"), m_modelSource);
  trainForm->addRow(tr("Optimizer"), m_optimizer);
  trainForm->addRow(tr("Learning rate"), m_lr);
  trainForm->addRow(tr("Epochs"), m_epochs);
  trainForm->addRow(tr("Device"), m_device);
  trainForm->addRow(tr("Processes"), m_processes);
  trainForm->addRow(tr("Experiment"), m_experiment);
  trainForm->addRow(tr("Run name"), m_runName);

  auto *more = new QScrollArea(this);
  more->setObjectName(QStringLiteral("moreOptions"));
  more->setWidgetResizable(true);
  more->setFrameShape(QFrame::NoFrame);
  more->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // the sections fold; they never need to scroll sideways
  more->setWidget(m_sections);

  auto *columns = new QHBoxLayout;
  columns->addWidget(data);
  columns->addWidget(training);
  columns->addWidget(more, 1);
  auto *buttons = new QHBoxLayout;
  buttons->addWidget(m_launch);
  buttons->addWidget(m_previewButton);
  createHeadOffer();
  buttons->addWidget(m_replaceHead);
  buttons->addWidget(m_status, 1);
  auto *layout = new QVBoxLayout(this);
  layout->addLayout(columns, 2);
  layout->addLayout(buttons);
  layout->addWidget(m_preview, 1);
  connect(m_previewButton, &QPushButton::clicked, this, [this] {
    m_preview->preview(previewRequest());
  });

  m_launch->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
  m_launch->setIcon(studioIcon("media-playback-start"));
  m_launch->setToolTip(tr("Train the Design page's model with these settings (Ctrl+Return)"));
  connect(m_launch, &QPushButton::clicked, this, &LaunchPage::launch);
  connect(m_launcher, &RunLauncher::launched, this, [this](const QString &uuid) {
    m_launch->setEnabled(true);
    m_launchedUuid = uuid;
    showLaunchedRunState();
    Q_EMIT runLaunched(uuid);
  });
  connect(m_launcher, &RunLauncher::failed, this, [this](const QString &message) {
    m_launch->setEnabled(true);
    setStatus(message, true);
  });
  watchFormEdits();
}

void LaunchPage::setWorkspace(const QString &dir) {
  m_workspace = dir;
  m_modelSource->setStartFolder(QDir(dir).filePath(QStringLiteral("models")));  // where Design saves models
}

QComboBox *LaunchPage::schedule() const { return qobject_cast<QComboBox *>(m_sections->field(QStringLiteral("train.schedule"))); }

QComboBox *LaunchPage::precision() const {
  return qobject_cast<QComboBox *>(m_sections->field(QStringLiteral("train.precision")));
}

QSpinBox *LaunchPage::checkpointEvery() const {
  return qobject_cast<QSpinBox *>(m_sections->field(QStringLiteral("train.checkpoint_every")));
}

QWidget *LaunchPage::configField(const QString &key) const {
  if (QWidget *field = m_sections->field(key)) return field;
  for (QWidget *widget : findChildren<QWidget *>())
    if (widget->property(kConfigKeyProperty).toString() == key) return widget;
  return nullptr;
}

QString LaunchPage::runYaml() const {
  QString yaml = QStringLiteral("# Written by Torchwright Studio; `torchwright launch` runs it too.\n");
  if (m_modelSource->usesFile()) {
    // The run names the file, as a hand-written run file would; `check` and `train` read it.
    yaml += QStringLiteral("model: %1\n").arg(quoted(m_modelSource->modelFile()));
  } else {
    yaml += QStringLiteral("model:\n");
    for (const QString &line : m_model->toYaml().split(QLatin1Char('\n'), Qt::SkipEmptyParts))
      yaml += QStringLiteral("  ") + line + QLatin1Char('\n');
  }
  yaml += QStringLiteral("data:\n  dataset: %1\n  train_limit: %2\n  batch_size: %3\n")
              .arg(m_dataset->currentText())
              .arg(m_trainLimit->value())
              .arg(m_batchSize->value());
  const QString dataset = m_dataset->currentText();
  const config::DataSourceInfo *kind = config::findDataSource(dataset.toStdString());
  const bool synthetic = kind && kind->family == config::SourceFamily::Synthetic;
  const bool readsFile = kind && *kind->path;
  if (readsFile && !m_dataPath->text().trimmed().isEmpty())
    yaml += QStringLiteral("  path: %1\n").arg(quoted(m_dataPath->text().trimmed()));
  if (dataset == QLatin1String("csv")) {
    yaml += QStringLiteral("  task: %1\n  missing: %2\n").arg(m_csvTask->currentText(), m_csvMissing->currentText());
    if (!m_csvTarget->currentText().trimmed().isEmpty())
      yaml += QStringLiteral("  target: %1\n").arg(quoted(m_csvTarget->currentText().trimmed()));
    const QStringList categorical = categoricalColumns();
    if (!categorical.isEmpty()) {
      QStringList items;
      for (const QString &column : categorical) items << quoted(column);
      yaml += QStringLiteral("  categorical: [%1]\n").arg(items.join(QStringLiteral(", ")));
    }
  } else if (synthetic) {
    yaml += QStringLiteral("  samples: %1\n  classes: %2\n  noise: %3\n")
                .arg(m_samples->value())
                .arg(m_classes->value())
                .arg(m_noise->value(), 0, 'g', 10);
  } else if (kind && kind->family == config::SourceFamily::Tokens) {
    yaml += QStringLiteral("  samples: %1\n  classes: %2\n").arg(m_samples->value()).arg(m_classes->value());
  }
  // The sections' keys only where the user changed them: the rest keep the table's defaults.
  yaml += m_sections->yamlLines(QStringLiteral("data"), dataset);
  yaml += QStringLiteral("train:\n  optimizer: %1\n  lr: %2\n  epochs: %3\n  device: %4\n")
              .arg(m_optimizer->currentText())
              .arg(m_lr->value(), 0, 'g', 10)
              .arg(m_epochs->value())
              .arg(quoted(m_device->text().trimmed()));
  yaml += m_sections->yamlLines(QStringLiteral("train"), dataset);
  if (const QString distributed = m_sections->yamlLines(QStringLiteral("distributed"), dataset); !distributed.isEmpty())
    yaml += QStringLiteral("distributed:\n") + distributed;
  yaml += QStringLiteral("tracking:\n  experiment: %1\n").arg(quoted(m_experiment->text().trimmed()));
  if (!m_runName->text().trimmed().isEmpty()) yaml += QStringLiteral("  run_name: %1\n").arg(quoted(m_runName->text().trimmed()));
  return m_extraSettings.empty() ? yaml : withSettings(yaml, m_extraSettings);
}

DataPreviewRequest LaunchPage::previewRequest() const {
  DataPreviewRequest request;
  request.dataset = m_dataset->currentText();
  request.path = m_dataPath->text().trimmed();
  request.trainLimit = m_trainLimit->value();
  request.task = m_csvTask->currentText();
  request.target = m_csvTarget->currentText().trimmed();
  request.missing = m_csvMissing->currentText();
  request.categorical = categoricalColumns();
  // The run's own seed and validation share: the preview splits as the run will.
  if (auto *seed = qobject_cast<QSpinBox *>(m_sections->field(QStringLiteral("train.seed")))) request.seed = seed->value();
  if (auto *val = qobject_cast<QDoubleSpinBox *>(m_sections->field(QStringLiteral("data.val_fraction"))))
    request.valFraction = val->value();
  if (auto *test = qobject_cast<QDoubleSpinBox *>(m_sections->field(QStringLiteral("data.test_fraction"))))
    request.testFraction = test->value();
  request.samples = m_samples->value();
  request.classes = m_classes->value();
  request.noise = m_noise->value();
  if (auto *seqLen = qobject_cast<QSpinBox *>(m_sections->field(QStringLiteral("data.seq_len")))) request.seqLen = seqLen->value();
  if (auto *vocab = qobject_cast<QSpinBox *>(m_sections->field(QStringLiteral("data.vocab_size"))))
    request.vocabSize = vocab->value();
  if (auto *dtype = qobject_cast<QComboBox *>(m_sections->field(QStringLiteral("data.token_dtype"))))
    request.tokenDtype = dtype->currentText();
  return request;
}

QStringList LaunchPage::categoricalColumns() const {
  QStringList columns;
  for (const QString &column : m_csvCategorical->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
    if (!column.trimmed().isEmpty()) columns << column.trimmed();
  return columns;
}

void LaunchPage::showDatasetFields() {
  const QString dataset = m_dataset->currentText();
  const bool switched = !m_shownDataset.isEmpty() && m_shownDataset != dataset;
  m_shownDataset = dataset;
  // Fields that mean nothing for this source are hidden, and reset so that nothing of the
  // previous source (a CSV table's target, a synthetic set's size) reaches the run file.
  for (int row = 0; row < m_dataForm->rowCount(); ++row) {
    QLayoutItem *item = m_dataForm->itemAt(row, QFormLayout::FieldRole);
    QWidget *field = item ? item->widget() : nullptr;
    const QString key = field ? field->property(kConfigKeyProperty).toString() : QString();
    if (key.isEmpty()) continue;
    const bool applies = config::appliesToSource(key.toStdString(), dataset.toStdString());
    if (!applies) resetConfigWidget(field);
    m_dataForm->setRowVisible(row, applies);
  }
  m_sections->showForSource(dataset);
  const config::DataSourceInfo *kind = config::findDataSource(dataset.toStdString());
  m_dataPath->setEnabled(kind && *kind->path);  // generated sources read no file
  if (switched) {
    // The old source's file and pictures describe other data.
    m_dataPath->clear();
    m_preview->clear();
  }
  // With a path of its own the dataset is read from there, installed or not.
  const QString missing = m_dataPath->text().trimmed().isEmpty() ? datasetMissingNote(dataset) : QString();
  m_datasetNote->setText(missing);
  m_dataForm->setRowVisible(m_datasetNote, !missing.isEmpty());
}

void LaunchPage::browseDataPath() {
  const QString dataset = m_dataset->currentText();
  const QString start = m_dataPath->text().trimmed().isEmpty() ? m_workspace : m_dataPath->text().trimmed();
  const QString chosen =
      dataset == QLatin1String("csv")
          ? chooseOpenFile(this, tr("CSV Table"), start, tr("CSV tables (*.csv);;All files (*)"))
          : chooseDirectory(this,
                            dataset == QLatin1String("image-folder") ? tr("Image Folder (one subfolder per class)")
                            : dataset == QLatin1String("shards")     ? tr("Packed Shard Set (torchwright pack's folder)")
                                                                     : tr("Folder with the IDX files"),
                            start);
  if (chosen.isEmpty()) return;
  m_dataPath->setText(QDir::toNativeSeparators(chosen));
  m_preview->preview(previewRequest());
}

}  // namespace tw::ui
