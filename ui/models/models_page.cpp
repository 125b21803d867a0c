#include "ui/models/models_page.h"

#include "ui/common/number_format.h"

#include "ui/common/state_labels.h"
#include "ui/common/store_call.h"
#include "ui/common/studio_icons.h"
#include "ui/common/visible_rows.h"
#include "core/config/workspace.h"
#include "ui/launch/cli_command.h"
#include "ui/models/lineage_text.h"
#include "tracking/workspace_store.h"

#include <QDateTime>
#include <QFile>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTextBrowser>
#include <QPixmap>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QVBoxLayout>

namespace tw::ui {

namespace {

QTableWidgetItem *cell(const QString &text) {
  auto *item = new QTableWidgetItem(text);
  item->setFlags(item->flags() & ~Qt::ItemIsEditable);
  return item;
}

// Fields of one CSV line as predict writes them (quoted only when they hold a comma or quote).
QStringList csvFields(const QString &line) {
  QStringList fields;
  QString field;
  bool quoted = false;
  for (int i = 0; i < line.size(); ++i) {
    const QChar c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields << field;
      field.clear();
    } else {
      field += c;
    }
  }
  fields << field;
  return fields;
}

// An export format as its makers write it.
QString formatName(const std::string &format) {
  if (format == "onnx") return QStringLiteral("ONNX");
  if (format == "torchscript") return QStringLiteral("TorchScript");
  return QString::fromStdString(format);
}

}  // namespace

ModelsPage::ModelsPage(QWidget *parent)
    : QWidget(parent),
      m_reader(new StoreCall(this)),
      m_versions(new QTableWidget(0, ColumnCount, this)),
      m_lineage(new QTextBrowser(this)),
      m_tryNote(new QLabel(this)),
      m_staging(new QPushButton(tr("Promote to Staging"), this)),
      m_production(new QPushButton(tr("Promote to Production"), this)),
      m_archive(new QPushButton(tr("Archive"), this)),
      m_openRun(new QPushButton(tr("Open Run"), this)),
      m_refresh(new QPushButton(tr("Refresh"), this)),
      m_try(new QPushButton(tr("Try It"), this)),
      m_tryCount(new QSpinBox(this)),
      m_tryFirst(new QSpinBox(this)),
      m_predictions(new QTableWidget(0, 4, this)),
      m_status(new QLabel(this)),
      m_stageCommand(new CliCommand(this)),
      m_predictCommand(new CliCommand(this)),
      m_examplesWatcher(new QFutureWatcher<TryExamples>(this)) {
  m_versions->setHorizontalHeaderLabels(
      {tr("Model"), tr("Version"), tr("Stage"), tr("Format"), tr("Run"), tr("Registered"), tr("File")});
  m_versions->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_versions->setSelectionMode(QAbstractItemView::SingleSelection);
  m_versions->verticalHeader()->setVisible(false);
  m_versions->horizontalHeader()->setSectionResizeMode(FileColumn, QHeaderView::Stretch);
  m_lineage->setObjectName(QStringLiteral("lineage"));
  m_lineage->setPlaceholderText(tr("Register an export with `torchwright models register NAME FILE`; its versions "
                                   "and their lineage appear here."));
  m_predictions->setHorizontalHeaderLabels({tr("Example"), tr("Predicted"), tr("Label"), tr("Confidence")});
  m_predictions->verticalHeader()->setVisible(false);
  m_predictions->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  m_predictions->setIconSize(QSize(40, 40));  // an example's image beside its number
  m_tryNote->setObjectName(QStringLiteral("tryNote"));
  m_tryNote->setWordWrap(true);
  m_tryNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_tryCount->setRange(1, 1000);
  m_tryCount->setValue(20);
  m_tryCount->setToolTip(tr("How many of the run's test examples to predict"));
  m_tryFirst->setRange(0, 1000000);
  m_tryFirst->setToolTip(tr("The number of the first test example to predict (0 is the first)"));
  m_try->setToolTip(tr("Run the version's TorchScript file in the worker on the first test examples of its run's data"));
  m_status->setWordWrap(true);
  keepRowsVisible(m_versions);
  keepRowsVisible(m_predictions);
  m_refresh->setIcon(studioIcon("view-refresh"));
  m_try->setIcon(studioIcon("media-playback-start"));

  auto *actions = new QHBoxLayout;
  for (QPushButton *b : {m_staging, m_production, m_archive, m_openRun}) actions->addWidget(b);
  actions->addStretch(1);
  actions->addWidget(m_refresh);
  auto *tryRow = new QHBoxLayout;
  tryRow->addWidget(new QLabel(tr("Test examples:"), this));
  tryRow->addWidget(m_tryCount);
  tryRow->addWidget(new QLabel(tr("from number:"), this));
  tryRow->addWidget(m_tryFirst);
  tryRow->addWidget(m_try);
  tryRow->addStretch(1);
  auto *tryBox = new QGroupBox(tr("Try It"), this);
  auto *tryLayout = new QVBoxLayout(tryBox);
  tryLayout->addLayout(tryRow);
  tryLayout->addWidget(m_tryNote);
  tryLayout->addWidget(m_predictions, 1);

  // Versions beside their details: both tables keep 8 rows on a 640-pixel-high screen, which
  // one above the other would not.
  auto *details = new QSplitter(Qt::Vertical, this);
  details->addWidget(m_lineage);
  details->addWidget(tryBox);
  details->setStretchFactor(1, 2);
  auto *split = new QSplitter(Qt::Horizontal, this);
  split->setChildrenCollapsible(false);
  split->addWidget(m_versions);
  split->addWidget(details);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  auto *layout = new QVBoxLayout(this);
  layout->addLayout(actions);
  layout->addWidget(split, 1);
  layout->addWidget(m_status);

  connect(m_versions, &QTableWidget::itemSelectionChanged, this, &ModelsPage::showSelection);
  connect(m_refresh, &QPushButton::clicked, this, &ModelsPage::refresh);
  connect(m_staging, &QPushButton::clicked, this, [this] { moveStage(QStringLiteral("staging")); });
  connect(m_production, &QPushButton::clicked, this, [this] { moveStage(QStringLiteral("production")); });
  connect(m_archive, &QPushButton::clicked, this, [this] { moveStage(QStringLiteral("archived")); });
  connect(m_openRun, &QPushButton::clicked, this, [this] {
    if (const RegistryEntry *e = selectedEntry(); e && e->runId) Q_EMIT openRunRequested(e->runId);
  });
  connect(m_try, &QPushButton::clicked, this, &ModelsPage::tryIt);
  connect(m_stageCommand, &CliCommand::finished, this, [this](int code, const QString &out, const QString &err) {
    m_status->setText(code == 0 ? out.trimmed() : err);
    refresh();
  });
  connect(m_predictCommand, &CliCommand::finished, this, &ModelsPage::onPredicted);
  connect(m_examplesWatcher, &QFutureWatcher<TryExamples>::finished, this, &ModelsPage::onExamples);
  connect(m_predictCommand, &CliCommand::failedToStart, this, [this](const QString &message) { onPredicted(127, {}, message); });
  showSelection();
}

ModelsPage::~ModelsPage() { m_examplesWatcher->waitForFinished(); }

void ModelsPage::setWorkspace(const QString &dir) {
  m_workspace = dir;
  try {
    m_store = dir.isEmpty() ? QString() : QString::fromStdString(tracking::workspaceStore(dir.toStdString()));
  } catch (const std::exception &) {
    m_store.clear();  // the session said why when it refused the workspace
  }
  refresh();
}

void ModelsPage::setCliPath(const QString &path) {
  m_stageCommand->setCliPath(path);
  m_predictCommand->setCliPath(path);
}

void ModelsPage::showEvent(QShowEvent *event) {
  QWidget::showEvent(event);
  refresh();
}

void ModelsPage::refresh() {
  if (m_store.isEmpty()) return;
  m_reader->run<RegistrySnapshot>(m_store, readRegistry, [this](RegistrySnapshot snapshot) { onRead(std::move(snapshot)); },
                                  [this](const QString &error) {
                                    RegistrySnapshot snapshot;
                                    snapshot.error = error;
                                    onRead(std::move(snapshot));
                                  });
}

void ModelsPage::onRead(RegistrySnapshot snapshot) {
  const RegistryEntry *previous = selectedEntry();
  const QString keepModel = previous ? QString::fromStdString(previous->version.model) : QString();
  const int keepVersion = previous ? previous->version.version : 0;
  m_snapshot = std::move(snapshot);
  QSignalBlocker quiet(m_versions);
  m_versions->setRowCount(static_cast<int>(m_snapshot.entries.size()));
  for (int row = 0; row < m_versions->rowCount(); ++row) {
    const RegistryEntry &e = m_snapshot.entries[static_cast<size_t>(row)];
    const auto &v = e.version;
    m_versions->setItem(row, ModelColumn, cell(QString::fromStdString(v.model)));
    m_versions->setItem(row, VersionColumn, cell(QString::number(v.version)));
    m_versions->setItem(row, StageColumn, cell(modelStageText(QString::fromStdString(v.stage))));
    m_versions->setItem(row, FormatColumn, cell(QString::fromStdString(v.format)));
    m_versions->setItem(row, RunColumn, cell(QString::fromStdString(v.runName)));
    m_versions->setItem(row, RegisteredColumn,
                        cell(QDateTime::fromMSecsSinceEpoch(v.createdMs).toString(QStringLiteral("yyyy-MM-dd hh:mm"))));
    m_versions->setItem(row, FileColumn, cell(QString::fromStdString(v.path)));
  }
  if (!m_snapshot.error.isEmpty()) m_status->setText(tr("The registry could not be read: %1").arg(m_snapshot.error));
  if (!keepModel.isEmpty()) selectVersion(keepModel, keepVersion);
  else if (m_versions->rowCount() > 0) m_versions->selectRow(0);
  quiet.unblock();
  showSelection();
  Q_EMIT refreshed();
}

const RegistryEntry *ModelsPage::selectedEntry() const {
  const auto rows = m_versions->selectionModel()->selectedRows();
  if (rows.isEmpty()) return nullptr;
  const int row = rows.front().row();
  return row < static_cast<int>(m_snapshot.entries.size()) ? &m_snapshot.entries[static_cast<size_t>(row)] : nullptr;
}

void ModelsPage::selectVersion(const QString &model, int version) {
  for (int row = 0; row < static_cast<int>(m_snapshot.entries.size()); ++row) {
    const auto &v = m_snapshot.entries[static_cast<size_t>(row)].version;
    if (QString::fromStdString(v.model) == model && v.version == version) m_versions->selectRow(row);
  }
}

QString ModelsPage::tryFile(const RegistryEntry &entry) {
  if (entry.version.format == "torchscript") return entry.fileState == "missing" ? QString() : QString::fromStdString(entry.version.path);
  return QString::fromStdString(entry.torchscriptSibling);
}

QString ModelsPage::entryKey(const RegistryEntry *entry) {
  return entry ? QString::fromStdString(entry->version.model) + QLatin1Char('\n') + QString::number(entry->version.version)
               : QString();
}

void ModelsPage::showSelection() {
  const RegistryEntry *e = selectedEntry();
  for (QPushButton *b : {m_staging, m_production, m_archive}) b->setEnabled(e != nullptr && !m_stageCommand->isBusy());
  m_openRun->setEnabled(e && e->runId != 0);
  // Predictions are of one version: another version selected, they go (a late answer too).
  if (entryKey(e) != m_predictedFor && !m_predictedFor.isEmpty()) {
    m_predictions->setRowCount(0);
    m_predictedFor.clear();
    ++m_examplesGeneration;
    m_status->clear();  // its accuracy line was about those predictions
  }
  m_try->setEnabled(e && !tryFile(*e).isEmpty() && !m_predictCommand->isBusy());
  if (!e) {
    m_lineage->clear();
    m_tryNote->clear();
    return;
  }
  m_lineage->setHtml(lineageHtml(*e));
  const auto &v = e->version;
  if (v.format == "torchscript") {
    m_tryNote->setText(e->fileState == "missing" ? tr("The version's file is missing: there is nothing to run.") : QString());
  } else if (!e->torchscriptSibling.empty()) {
    m_tryNote->setText(tr("This version is %1; Try It runs TorchScript (torchwright predict), so it runs %2, the "
                          "TorchScript export of the same run.")
                           .arg(formatName(v.format), QString::fromStdString(e->siblingName)));
  } else {
    m_tryNote->setText(tr("This version is %1, and Try It runs TorchScript files (torchwright predict). Its run has "
                          "no TorchScript export: export the run as TorchScript (Runs page, Export...) to try it here.")
                           .arg(formatName(v.format)));
  }
  m_tryNote->setVisible(!m_tryNote->text().isEmpty());
}

void ModelsPage::moveStage(const QString &stage) {
  const RegistryEntry *e = selectedEntry();
  if (!e || m_stageCommand->isBusy()) return;
  const QString name = QString::fromStdString(e->version.model), version = QString::number(e->version.version);
  QStringList args = stage == QLatin1String("archived")
                         ? QStringList{"models", "archive", name, version}
                         : QStringList{"models", "promote", name, version, "--stage", stage};
  m_stageCommand->run(args << "--workspace" << m_workspace);
}

void ModelsPage::tryIt() {
  const RegistryEntry *e = selectedEntry();
  if (!e || m_predictCommand->isBusy()) return;
  m_tryDir = std::make_unique<QTemporaryDir>();
  const QString file = tryFile(*e);
  if (file.isEmpty()) return;
  m_tryingFor = entryKey(e);
  m_shownFirst = m_tryFirst->value();
  // The workspace's exports are the TorchScript predict loads without --trust-torchscript: the
  // version's file is one of them as long as its bytes are the ones recorded.
  QStringList args{"predict", file, "--out", m_tryDir->filePath("predictions.csv"),
                   "--set", "data.test_limit=" + QString::number(m_tryFirst->value() + m_tryCount->value()),
                   "--workspace", m_workspace};
  // The run's own data (its resolved configuration); without the run, the default data.
  if (!e->runDir.empty()) args << "--data" << QString::fromStdString(e->runDir) + "/config.yaml";
  m_status->setText(tr("Predicting with %1...").arg(file));
  m_try->setEnabled(false);
  m_predictCommand->run(args);
}

void ModelsPage::onPredicted(int exitCode, const QString &out, const QString &err) {
  m_predictions->setRowCount(0);
  ++m_examplesGeneration;
  // Selected away while predicting: the answer belongs to a version no longer shown.
  const RegistryEntry *e = selectedEntry();
  const bool current = entryKey(e) == m_tryingFor;
  m_predictedFor = current ? m_tryingFor : QString();
  showSelection();
  if (!current) {
    m_status->setText(exitCode == 0 ? QString() : tr("Try It failed: %1").arg(err));
    Q_EMIT predictionsShown();
    return;
  }
  if (exitCode != 0) {
    m_status->setText(tr("Try It failed: %1").arg(err));
    Q_EMIT predictionsShown();
    return;
  }
  m_status->setText(out.trimmed());
  // A small file: at most the 1,000 rows the spin box allows.
  QFile csv(m_tryDir->filePath("predictions.csv"));
  if (csv.open(QIODevice::ReadOnly)) {
    const QStringList lines = QString::fromUtf8(csv.readAll()).split('\n', Qt::SkipEmptyParts);
    const QStringList header = lines.isEmpty() ? QStringList() : csvFields(lines.front());
    const int labelColumn = static_cast<int>(header.indexOf(QStringLiteral("label")));
    const int firstProbability = labelColumn >= 0 ? 3 : 2;
    // predict ran on the first (from + count) examples; the rows before `from` are not shown.
    const int first = 1 + m_shownFirst;
    m_predictions->setRowCount(std::max(0, static_cast<int>(lines.size()) - first));
    for (int i = first; i < lines.size(); ++i) {
      const int row = i - first;
      const QStringList f = csvFields(lines[i]);
      double confidence = 0.0;
      for (int k = firstProbability; k < f.size(); ++k) confidence = std::max(confidence, f[k].toDouble());
      m_predictions->setItem(row, 0, cell(f.value(0)));
      m_predictions->setItem(row, 1, cell(f.value(1)));
      m_predictions->setItem(row, 2, cell(labelColumn >= 0 ? f.value(labelColumn) : QString()));
      m_predictions->setItem(row, 3, cell(formatPercent(confidence)));
      if (labelColumn >= 0 && f.value(1) != f.value(labelColumn))
        m_predictions->item(row, 1)->setForeground(QColor(0xb0, 0x00, 0x20));
    }
  }
  Q_EMIT predictionsShown();
  // The examples' images, read as predict read them, off this thread.
  if (!e->runDir.empty() && m_predictions->rowCount() > 0)
    m_examplesWatcher->setFuture(readTryExamples(m_examplesGeneration, QString::fromStdString(e->runDir) + "/config.yaml",
                                                 m_shownFirst, m_predictions->rowCount()));
}

void ModelsPage::onExamples() {
  const TryExamples examples = m_examplesWatcher->result();
  if (examples.generation != m_examplesGeneration) return;  // other predictions since
  const int rows = std::min(m_predictions->rowCount(), static_cast<int>(examples.images.size()));
  for (int row = 0; row < rows; ++row) {
    const QImage &image = examples.images[static_cast<size_t>(row)];
    const QSize size = m_predictions->iconSize();
    m_predictions->item(row, 0)->setIcon(QPixmap::fromImage(image.scaled(size, Qt::KeepAspectRatio, Qt::FastTransformation)));
    m_predictions->setRowHeight(row, size.height() + 4);
  }
  if (!examples.error.isEmpty()) m_status->setText(m_status->text() + QLatin1Char('\n') + tr("No images: %1").arg(examples.error));
  Q_EMIT examplesShown();
}

}  // namespace tw::ui
