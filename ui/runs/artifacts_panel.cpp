#include "ui/runs/artifacts_panel.h"

#include "core/config/sha256.h"
#include "tracking/store.h"
#include "ui/common/store_call.h"
#include "ui/common/visible_rows.h"

#include <QClipboard>
#include <QDateTime>
#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTableWidget>
#include <QUrl>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <map>
#include <mutex>
#include <tuple>

namespace tw::ui {

namespace {

ArtifactList readArtifacts(tracking::Store &store, int64_t runId, const QString &runDir) {
  ArtifactList list;
  for (const auto &a : store.artifacts(runId)) {
    ArtifactRow row;
    row.recorded = QString::fromStdString(a.path);
    row.path = QDir::isAbsolutePath(row.recorded) ? row.recorded : QDir(runDir).filePath(row.recorded);
    row.kind = QString::fromStdString(a.kind);
    row.sha256 = QString::fromStdString(a.sha256);
    row.createdMs = a.createdMs;
    const QFileInfo info(row.path);  // a stat per file: here, on the pool's thread
    row.bytes = info.exists() ? info.size() : -1;
    list.rows.push_back(std::move(row));
  }
  return list;
}

// A file hashed once is not hashed again while its size and modification time stay the same:
// reopening the tab after every epoch would otherwise read a large checkpoint each time.
struct DigestCache {
  std::mutex mutex;
  std::map<QString, std::tuple<qint64, qint64, QString>> byPath;  // size, mtime, digest
};

DigestCache &digestCache() {
  static DigestCache cache;
  return cache;
}

ArtifactDigests computeDigests(quint64 generation, const QStringList &paths) {
  ArtifactDigests out;
  out.generation = generation;
  for (const QString &path : paths) {
    const QFileInfo info(path);
    const qint64 size = info.size(), mtime = info.lastModified().toMSecsSinceEpoch();
    {
      std::lock_guard lock(digestCache().mutex);
      auto found = digestCache().byPath.find(path);
      if (found != digestCache().byPath.end() && std::get<0>(found->second) == size &&
          std::get<1>(found->second) == mtime) {
        out.digests.emplace_back(path, std::get<2>(found->second));
        continue;
      }
    }
    const QString digest = QString::fromStdString(config::fileSha256Hex(path.toStdString()));
    if (digest.isEmpty()) continue;  // unreadable: the cell says so
    std::lock_guard lock(digestCache().mutex);
    digestCache().byPath[path] = {size, mtime, digest};
    out.digests.emplace_back(path, digest);
  }
  return out;
}

QTableWidgetItem *cell(const QString &text) {
  auto *item = new QTableWidgetItem(text);
  item->setFlags(item->flags() & ~Qt::ItemIsEditable);
  return item;
}

}  // namespace

ArtifactsPanel::ArtifactsPanel(QWidget *parent)
    : QWidget(parent),
      m_reader(new StoreCall(this)),
      m_digestWatcher(new QFutureWatcher<ArtifactDigests>(this)),
      m_table(new QTableWidget(0, ColumnCount, this)),
      m_openFolder(new QPushButton(tr("Open Folder"), this)),
      m_copyPath(new QPushButton(tr("Copy Path"), this)),
      m_copyDigest(new QPushButton(tr("Copy SHA-256"), this)),
      m_refresh(new QPushButton(tr("Refresh"), this)),
      m_status(new QLabel(this)) {
  m_table->setHorizontalHeaderLabels({tr("File"), tr("Kind"), tr("Size"), tr("SHA-256")});
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setSelectionMode(QAbstractItemView::SingleSelection);
  m_table->verticalHeader()->setVisible(false);
  m_table->horizontalHeader()->setSectionResizeMode(PathColumn, QHeaderView::Stretch);
  // The shortened digest whole, not cut again by the column.
  m_table->horizontalHeader()->setSectionResizeMode(ShaColumn, QHeaderView::ResizeToContents);
  // Rows as compact as the runs table's above, so both keep 8 rows on a 640-pixel-high screen.
  m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
  keepRowsVisible(m_table);
  m_openFolder->setToolTip(tr("Open the folder of the selected file (else the run's folder) in the file manager"));
  m_copyPath->setToolTip(tr("Copy the selected file's full path"));
  m_copyDigest->setObjectName(QStringLiteral("copyDigestButton"));
  m_copyDigest->setToolTip(tr("Copy the selected file's full SHA-256 digest"));
  auto *buttons = new QHBoxLayout;
  buttons->addWidget(m_openFolder);
  buttons->addWidget(m_copyPath);
  buttons->addWidget(m_copyDigest);
  buttons->addStretch(1);
  buttons->addWidget(m_status);
  buttons->addWidget(m_refresh);
  auto *layout = new QVBoxLayout(this);
  layout->addWidget(m_table, 1);
  layout->addLayout(buttons);

  connect(m_reader, &StoreCall::busyChanged, this, [this](bool busy) {
    if (busy && m_rows.empty()) m_status->setText(tr("Reading the artifacts…"));
  });
  connect(m_digestWatcher, &QFutureWatcher<ArtifactDigests>::finished, this, &ArtifactsPanel::onDigests);
  connect(m_refresh, &QPushButton::clicked, this, [this] { showRun(m_runId, m_runDir); });
  connect(m_table, &QTableWidget::itemSelectionChanged, this,
          [this] {
            m_copyPath->setEnabled(!selectedPath().isEmpty());
            m_copyDigest->setEnabled(!selectedDigest().isEmpty());
          });
  connect(m_copyDigest, &QPushButton::clicked, this, [this] {
    if (const QString digest = selectedDigest(); !digest.isEmpty()) QGuiApplication::clipboard()->setText(digest);
  });
  connect(m_copyPath, &QPushButton::clicked, this, [this] {
    if (const QString path = selectedPath(); !path.isEmpty()) QGuiApplication::clipboard()->setText(path);
  });
  connect(m_openFolder, &QPushButton::clicked, this, [this] {
    const QString path = selectedPath();
    const QString folder = path.isEmpty() ? m_runDir : QFileInfo(path).absolutePath();
    if (!folder.isEmpty()) QDesktopServices::openUrl(QUrl::fromLocalFile(folder));
  });
  clear();
}

ArtifactsPanel::~ArtifactsPanel() { m_digestWatcher->waitForFinished(); }

void ArtifactsPanel::clear() {
  m_reader->cancel();  // an answer on its way is for a run no longer shown
  ++m_generation;
  m_runId = 0;
  m_runDir.clear();
  m_rows.clear();
  m_table->setRowCount(0);
  m_openFolder->setEnabled(false);
  m_copyPath->setEnabled(false);
  m_copyDigest->setEnabled(false);
  m_status->clear();
}

void ArtifactsPanel::showRun(int64_t runId, const QString &runDir) {
  if (m_dbPath.isEmpty() || runId == 0) return;
  if (runId != m_runId) {
    clear();
    m_runId = runId;
    m_runDir = runDir;
  }
  m_openFolder->setEnabled(!m_runDir.isEmpty());
  m_reader->run<ArtifactList>(
      m_dbPath, [runId, runDir](tracking::Store &store) { return readArtifacts(store, runId, runDir); },
      [this](ArtifactList list) { onRead(list); },
      [this](const QString &error) {
        ArtifactList list;
        list.error = error;
        onRead(list);
      });
}

void ArtifactsPanel::onRead(const ArtifactList &list) {
  ++m_generation;  // digests still being computed are for the list this one replaces
  m_rows = list.rows;
  const QString selected = selectedPath();
  m_table->setRowCount(static_cast<int>(m_rows.size()));
  const QLocale locale;
  for (int row = 0; row < m_table->rowCount(); ++row) {
    const ArtifactRow &a = m_rows[static_cast<size_t>(row)];
    m_table->setItem(row, PathColumn, cell(a.recorded));
    m_table->item(row, PathColumn)->setToolTip(a.path);
    m_table->setItem(row, KindColumn, cell(a.kind));
    m_table->setItem(row, SizeColumn, cell(a.bytes < 0 ? tr("missing") : locale.formattedDataSize(a.bytes)));
    showDigest(row);
    if (a.path == selected) m_table->selectRow(row);
  }
  // Two strings rather than %n: without an English translation %n reads "3 artifact(s)".
  const QString count = m_rows.size() == 1 ? tr("1 artifact") : tr("%1 artifacts").arg(m_rows.size());
  m_status->setText(list.error.isEmpty() ? count : tr("Cannot read the artifacts: %1").arg(list.error));
  m_copyPath->setEnabled(!selectedPath().isEmpty());
  m_copyDigest->setEnabled(!selectedDigest().isEmpty());
  Q_EMIT loaded();
  // Files recorded without a digest are hashed now, off this thread; the list does not wait.
  QStringList unhashed;
  for (const ArtifactRow &a : m_rows)
    if (a.sha256.isEmpty() && a.bytes >= 0) unhashed << a.path;
  if (!unhashed.isEmpty()) m_digestWatcher->setFuture(QtConcurrent::run(computeDigests, m_generation, unhashed));
}

void ArtifactsPanel::showDigest(int row) {
  const ArtifactRow &a = m_rows[static_cast<size_t>(row)];
  QString text, tip;
  if (!a.sha256.isEmpty()) {
    text = a.sha256.left(12) + QChar(0x2026);
    tip = a.computed ? tr("SHA-256 %1\nof the file as it is now (none was recorded when it was written)").arg(a.sha256)
                     : tr("SHA-256 %1\nrecorded when the file was written").arg(a.sha256);
  } else if (a.bytes < 0) {
    tip = tr("The file is gone: no digest to compute");
  } else {
    text = tr("computing…");
    tip = tr("No digest was recorded for this file; it is being computed from the file");
  }
  auto *item = cell(text);
  item->setToolTip(tip);
  m_table->setItem(row, ShaColumn, item);
}

void ArtifactsPanel::onDigests() {
  const ArtifactDigests result = m_digestWatcher->result();
  if (result.generation != m_generation) return;  // the list was read again since
  for (const auto &[path, digest] : result.digests)
    for (size_t row = 0; row < m_rows.size(); ++row)
      if (m_rows[row].path == path && m_rows[row].sha256.isEmpty()) {
        m_rows[row].sha256 = digest;
        m_rows[row].computed = true;
        showDigest(static_cast<int>(row));
      }
  m_copyDigest->setEnabled(!selectedDigest().isEmpty());
  Q_EMIT digestsComputed();
}

int ArtifactsPanel::selectedRow() const {
  const auto rows = m_table->selectionModel()->selectedRows();
  if (rows.isEmpty()) return -1;
  const int row = rows.front().row();
  return row < static_cast<int>(m_rows.size()) ? row : -1;
}

QString ArtifactsPanel::selectedPath() const {
  const int row = selectedRow();
  return row < 0 ? QString() : m_rows[static_cast<size_t>(row)].path;
}

QString ArtifactsPanel::selectedDigest() const {
  const int row = selectedRow();
  return row < 0 ? QString() : m_rows[static_cast<size_t>(row)].sha256;
}

}  // namespace tw::ui
