#include "ui/launch/pack_dialog.h"

#include "ui/common/number_format.h"

#include "core/data/pack_dataset.h"

#include <QCoreApplication>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <chrono>
#include <stdexcept>

namespace tw::ui {

namespace {

// What the packing thread hands back.
struct PackOutcome {
  bool cancelled = false;
  QString error;
  qint64 examples = 0, shards = 0, bytes = 0;
};

struct Cancelled : std::runtime_error {
  Cancelled() : std::runtime_error("cancelled") {}
};

QWidget *withBrowse(QLineEdit *edit, const QList<QPushButton *> &buttons, QWidget *parent) {
  auto *row = new QWidget(parent);
  auto *layout = new QHBoxLayout(row);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(edit, 1);
  for (QPushButton *button : buttons) layout->addWidget(button);
  return row;
}

}  // namespace

PackDialog::PackDialog(QWidget *parent) : QDialog(parent) {
  setWindowTitle(tr("Pack Dataset"));
  setObjectName(QStringLiteral("packDialog"));
  auto *layout = new QVBoxLayout(this);
  auto *intro = new QLabel(tr("Writes a dataset as packed shards (WebDataset tar files with an index and a manifest) "
                              "that training streams from and Python's tarfile reads."),
                           this);
  intro->setWordWrap(true);
  layout->addWidget(intro);

  auto *form = new QFormLayout;
  m_source = new QLineEdit(this);
  m_source->setObjectName(QStringLiteral("packSource"));
  m_source->setPlaceholderText(tr("an image folder, an IDX folder, a CSV file or a run file"));
  auto *folder = new QPushButton(tr("Folder…"), this);
  auto *file = new QPushButton(tr("File…"), this);
  connect(folder, &QPushButton::clicked, this, [this] {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Dataset folder"), m_source->text());
    if (!dir.isEmpty()) m_source->setText(dir);
  });
  connect(file, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("CSV or run file"), m_source->text(),
                                                      tr("CSV and run files (*.csv *.yaml *.yml);;All files (*)"));
    if (!path.isEmpty()) m_source->setText(path);
  });
  form->addRow(tr("Source"), withBrowse(m_source, {folder, file}, this));
  m_target = new QLineEdit(this);
  m_target->setObjectName(QStringLiteral("packTarget"));
  m_target->setPlaceholderText(tr("CSV files only: the column to predict"));
  form->addRow(tr("Target column"), m_target);
  m_output = new QLineEdit(this);
  m_output->setObjectName(QStringLiteral("packOutput"));
  m_output->setPlaceholderText(tr("a new folder for the shards"));
  auto *outBrowse = new QPushButton(tr("Folder…"), this);
  connect(outBrowse, &QPushButton::clicked, this, [this] {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Where the shard set goes"), m_output->text());
    if (!dir.isEmpty()) m_output->setText(dir);
  });
  form->addRow(tr("Output folder"), withBrowse(m_output, {outBrowse}, this));
  m_shardMb = new QSpinBox(this);
  m_shardMb->setObjectName(QStringLiteral("packShardMb"));
  m_shardMb->setRange(1, 4096);
  m_shardMb->setValue(64);
  m_shardMb->setSuffix(tr(" MB"));
  form->addRow(tr("Shard size"), m_shardMb);
  m_decoded = new QCheckBox(tr("Store decoded pixels (image folders: larger shards, read without decoding)"), this);
  m_decoded->setObjectName(QStringLiteral("packDecoded"));
  form->addRow(QString(), m_decoded);
  layout->addLayout(form);

  m_progress = new QProgressBar(this);
  m_progress->setObjectName(QStringLiteral("packProgress"));
  m_progress->setRange(0, 100);
  m_progress->setValue(0);
  layout->addWidget(m_progress);
  m_status = new QLabel(this);
  m_status->setObjectName(QStringLiteral("packStatus"));
  m_status->setWordWrap(true);
  m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(m_status);

  auto *buttons = new QDialogButtonBox(this);
  m_pack = buttons->addButton(tr("Pack"), QDialogButtonBox::AcceptRole);
  m_pack->setObjectName(QStringLiteral("packButton"));
  m_cancel = buttons->addButton(tr("Cancel Packing"), QDialogButtonBox::ActionRole);
  m_cancel->setObjectName(QStringLiteral("packCancel"));
  m_cancel->setEnabled(false);
  m_use = buttons->addButton(tr("Use in Launch"), QDialogButtonBox::ActionRole);
  m_use->setObjectName(QStringLiteral("packUse"));
  m_use->setEnabled(false);
  QPushButton *close = buttons->addButton(QDialogButtonBox::Close);
  layout->addWidget(buttons);
  // Pack is an accept-role button: it starts packing, it does not close the dialog.
  disconnect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(m_pack, &QPushButton::clicked, this, &PackDialog::pack);
  connect(m_cancel, &QPushButton::clicked, this, &PackDialog::cancel);
  connect(m_use, &QPushButton::clicked, this, [this] {
    Q_EMIT useRequested(m_output->text().trimmed());
    accept();
  });
  connect(close, &QPushButton::clicked, this, &QDialog::reject);
}

PackDialog::~PackDialog() {
  if (m_stop) m_stop->store(true);  // a packing thread still running stops at its next example
}

void PackDialog::setState(State state, const QString &text) {
  m_state = state;
  const bool packing = state == State::Packing;
  m_pack->setEnabled(!packing);
  m_cancel->setEnabled(packing);
  m_use->setEnabled(state == State::Done);
  for (QWidget *w : std::initializer_list<QWidget *>{m_source, m_output, m_target, m_shardMb, m_decoded})
    w->setEnabled(!packing);
  m_status->setText(text);
  if (!packing) Q_EMIT finished(state);
}

void PackDialog::progressed(qint64 done, qint64 total) {
  if (m_state != State::Packing) return;
  m_progress->setValue(total > 0 ? static_cast<int>(100 * done / total) : 100);
  m_status->setText(tr("Packing: %1 of %2 examples").arg(done).arg(total));
}

void PackDialog::pack() {
  const QString source = m_source->text().trimmed(), output = m_output->text().trimmed();
  if (source.isEmpty() || output.isEmpty()) {
    setState(State::Failed, tr("Give a source and an output folder."));
    return;
  }
  std::vector<std::string> overrides;
  if (!m_target->text().trimmed().isEmpty()) overrides.push_back("data.target=" + m_target->text().trimmed().toStdString());
  data::PackOptions options;
  options.targetBytes = static_cast<uint64_t>(m_shardMb->value()) << 20;
  options.decoded = m_decoded->isChecked();
  options.createdBy = "torchwright-studio " + QCoreApplication::applicationVersion().toStdString();
  m_stop = std::make_shared<std::atomic<bool>>(false);
  m_progress->setValue(0);
  setState(State::Packing, tr("Reading %1…").arg(source));

  const std::shared_ptr<std::atomic<bool>> stop = m_stop;
  QPointer<PackDialog> self(this);
  auto *watcher = new QFutureWatcher<PackOutcome>(this);
  connect(watcher, &QFutureWatcher<PackOutcome>::finished, this, [this, watcher] {
    const PackOutcome outcome = watcher->result();
    watcher->deleteLater();
    if (outcome.cancelled) {
      setState(State::Cancelled, tr("Cancelled: the partial output was removed."));
    } else if (!outcome.error.isEmpty()) {
      setState(State::Failed, outcome.error);
    } else {
      m_progress->setValue(100);
      setState(State::Done, tr("Packed %1 examples into %2 shards (%3) in %4.")
                                .arg(formatNumber(double(outcome.examples)))
                                .arg(outcome.shards)
                                .arg(formatBytes(double(outcome.bytes)))
                                .arg(m_output->text().trimmed()));
    }
  });
  watcher->setFuture(QtConcurrent::run([source, output, overrides, options, stop, self]() mutable {
    PackOutcome outcome;
    auto lastShown = std::chrono::steady_clock::now();
    options.progress = [&](int64_t done, int64_t total) {
      if (stop->load()) throw Cancelled();
      // A queued call a few times a second, not one per example.
      const auto now = std::chrono::steady_clock::now();
      if (done != total && now - lastShown < std::chrono::milliseconds(100)) return;
      lastShown = now;
      QMetaObject::invokeMethod(
          qApp, [self, done, total] { if (self) self->progressed(done, total); }, Qt::QueuedConnection);
    };
    try {
      const data::ShardManifest manifest =
          data::packDataset(data::packSource(source.toStdString(), overrides), output.toStdString(), options);
      for (const auto &[name, split] : manifest.splits) {
        outcome.examples += split.examples;
        outcome.shards += static_cast<qint64>(split.shards.size());
        for (const auto &shard : split.shards) outcome.bytes += static_cast<qint64>(shard.bytes);
      }
    } catch (const Cancelled &) {
      outcome.cancelled = true;
    } catch (const std::exception &e) {
      outcome.error = QString::fromStdString(e.what());
    }
    return outcome;
  }));
}

void PackDialog::cancel() {
  if (m_stop) m_stop->store(true);
}

}  // namespace tw::ui
