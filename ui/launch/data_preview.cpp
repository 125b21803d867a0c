#include "ui/launch/data_preview.h"


#include <QFutureWatcher>
#include <QImage>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QHeaderView>
#include <QPainter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>

namespace tw::ui {

DataPreview::DataPreview(QWidget *parent)
    : QWidget(parent), m_grid(new QLabel(this)), m_histogram(new QLabel(this)), m_splits(new QLabel(this)),
      m_table(new QTableWidget(this)) {
  m_table->setObjectName(QStringLiteral("csvPreviewTable"));
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->verticalHeader()->hide();
  m_table->setMaximumHeight(260);
  m_table->hide();
  m_grid->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  m_histogram->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  auto *pictures = new QHBoxLayout;
  pictures->addWidget(m_grid);
  pictures->addSpacing(24);
  pictures->addWidget(m_histogram);
  pictures->addStretch(1);
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_splits);
  layout->addWidget(m_table);
  layout->addLayout(pictures);
  layout->addStretch(1);
}

QString DataPreview::splitText() const { return m_splits->text(); }

void DataPreview::preview(const QString &dataset, const QString &path, int64_t trainLimit, double valFraction) {
  DataPreviewRequest request;
  request.dataset = dataset;
  request.path = path;
  request.trainLimit = trainLimit;
  request.valFraction = valFraction;
  preview(request);
}

void DataPreview::preview(const DataPreviewRequest &asked) {
  DataPreviewRequest request = asked;
  request.pixelRatio = devicePixelRatioF();
  m_request = request;
  const quint64 generation = ++m_generation;
  m_splits->setText(tr("Reading %1…").arg(request.dataset));
  auto *watcher = new QFutureWatcher<DataPreviewResult>(this);
  connect(watcher, &QFutureWatcher<DataPreviewResult>::finished, this, [this, watcher, generation] {
    const DataPreviewResult result = watcher->result();
    watcher->deleteLater();
    if (generation == m_generation) showResult(result);
  });
  watcher->setFuture(QtConcurrent::run([request] {
    try {
      return readDataPreview(request);
    } catch (const std::exception &e) {
      DataPreviewResult failed;
      failed.error = QString::fromUtf8(e.what());
      return failed;
    }
  }));
}

void DataPreview::clear() {
  ++m_generation;  // a read still running answers an older generation and is dropped
  m_result = DataPreviewResult();
  m_request = DataPreviewRequest();
  m_splits->clear();
  m_grid->clear();
  m_histogram->clear();
  m_table->clear();
  m_table->setRowCount(0);
  m_table->setColumnCount(0);
  m_table->hide();
}

void DataPreview::showResult(const DataPreviewResult &result) {
  m_result = result;
  if (m_request.target.isEmpty()) m_request.target = result.target;  // the column it took
  m_table->setVisible(!result.columns.isEmpty());
  m_table->clear();
  m_table->setColumnCount(static_cast<int>(result.columns.size()));
  m_table->setRowCount(static_cast<int>(result.rows.size()));
  m_table->setHorizontalHeaderLabels(result.columns);
  for (int r = 0; r < result.rows.size(); ++r)
    for (int c = 0; c < result.rows[r].size() && c < result.columns.size(); ++c)
      m_table->setItem(r, c, new QTableWidgetItem(result.rows[r][c]));
  if (!result.columns.isEmpty()) Q_EMIT columnsRead(result.columns);
  if (!result.error.isEmpty()) {
    m_splits->setText(result.error);
    m_grid->clear();
    m_histogram->clear();
    Q_EMIT previewed();
    return;
  }
  const QLocale locale;
  QString splits = tr("train %1 · validation %2 · test %3")
                       .arg(locale.toString(qint64(result.train)), locale.toString(qint64(result.validation)),
                            locale.toString(qint64(result.test)));
  if (!result.target.isEmpty()) splits += QStringLiteral(" · ") + tr("target: %1").arg(result.target);
  if (!result.targetSummary.isEmpty()) splits += QStringLiteral(" (") + result.targetSummary + QLatin1Char(')');
  m_splits->setText(splits);
  if (result.grid.isNull()) m_grid->clear();
  else m_grid->setPixmap(QPixmap::fromImage(result.grid));
  if (result.classCounts.empty()) {
    m_histogram->clear();
    Q_EMIT previewed();
    return;
  }
  // A bar per class, drawn: one row each, the name, the bar, the count.
  const int64_t most = result.classCounts.empty() ? 1 : *std::max_element(result.classCounts.begin(), result.classCounts.end());
  const int rowHeight = 18, nameWidth = 110, barWidth = 200;
  const qreal ratio = devicePixelRatioF();
  QImage bars(static_cast<int>((nameWidth + barWidth + 70) * ratio),
              static_cast<int>((rowHeight * static_cast<int>(result.classCounts.size()) + 22) * ratio), QImage::Format_ARGB32);
  bars.setDevicePixelRatio(ratio);  // painted in logical pixels, sharp on HiDPI screens
  bars.fill(Qt::transparent);
  QPainter painter(&bars);
  painter.setPen(palette().color(QPalette::WindowText));
  QFont bold = painter.font();
  bold.setBold(true);
  painter.setFont(bold);
  painter.drawText(QRect(0, 0, nameWidth + barWidth + 70, 18), Qt::AlignLeft | Qt::AlignVCenter, tr("Examples per class"));
  painter.setFont(font());
  for (size_t c = 0; c < result.classCounts.size(); ++c) {
    const int y = 22 + static_cast<int>(c) * rowHeight;
    const int width = static_cast<int>(double(barWidth) * double(result.classCounts[c]) / double(std::max<int64_t>(most, 1)));
    painter.drawText(QRect(0, y, nameWidth - 6, rowHeight), Qt::AlignRight | Qt::AlignVCenter,
                     c < size_t(result.classNames.size()) ? result.classNames[int(c)] : QString::number(c));
    painter.fillRect(QRect(nameWidth, y + 3, std::max(1, width), rowHeight - 6), QColor(0x00, 0x72, 0xb2));
    painter.drawText(QRect(nameWidth + width + 6, y, 70, rowHeight), Qt::AlignLeft | Qt::AlignVCenter,
                     locale.toString(qint64(result.classCounts[c])));
  }
  painter.end();
  m_histogram->setPixmap(QPixmap::fromImage(bars));
  Q_EMIT previewed();
}

}  // namespace tw::ui
