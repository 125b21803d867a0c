#include "ui/charts/chart_export.h"

#include "ui/common/file_dialogs.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QImage>
#include <QLocale>
#include <QMessageBox>
#include <QPainter>
#include <QSaveFile>
#include <QSettings>
#include <QStandardPaths>
#include <QSvgGenerator>
#include <QWidget>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>
#include <memory>
#include <utility>

namespace tw::ui {

namespace {

const char *const kExportFolderKey = "charts/exportFolder";

QByteArray csvField(const QString &field) {
  QByteArray bytes = field.toUtf8();
  if (!bytes.contains(',') && !bytes.contains('"') && !bytes.contains('\n') && !bytes.contains('\r')) return bytes;
  bytes.replace("\"", "\"\"");
  return '"' + bytes + '"';
}

void appendRow(QByteArray *out, const QStringList &fields) {
  for (qsizetype i = 0; i < fields.size(); ++i) {
    if (i > 0) out->append(',');
    out->append(csvField(fields[i]));
  }
  out->append("\r\n");
}

// Written whole or not at all: a failed export never leaves half a file where an old one was.
bool writeFile(const QString &path, const QByteArray &bytes, QString *error) {
  QSaveFile file(path);
  if (file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size() && file.commit()) return true;
  if (error) *error = file.errorString();
  return false;
}

// A file name from the chart's name: "compareChart" -> "compareChart.png".
QString suggestedName(const QWidget *chart, const QString &suffix) {
  const QString name = chart->objectName().isEmpty() ? QStringLiteral("chart") : chart->objectName();
  return name + QLatin1Char('.') + suffix;
}

}  // namespace

QString csvNumber(double value) {
  if (std::isnan(value)) return {};
  return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

QByteArray csvText(const CsvTable &table) {
  QByteArray out;
  appendRow(&out, table.header);
  for (const QStringList &row : table.rows) appendRow(&out, row);
  return out;
}

ChartExport::ChartExport(QWidget *chart, CsvSnapshot snapshot)
    : QObject(chart), m_chart(chart), m_snapshot(std::move(snapshot)) {
  setObjectName(QStringLiteral("chartExport"));
}

ChartExport *ChartExport::install(QWidget *chart, CsvSnapshot snapshot) {
  auto *exporter = new ChartExport(chart, std::move(snapshot));
  const std::pair<QString, Format> items[] = {{tr("Export as PNG..."), Format::Png},
                                              {tr("Export as SVG..."), Format::Svg},
                                              {tr("Export data as CSV..."), Format::Csv}};
  for (const auto &[text, format] : items) {
    auto *action = new QAction(text, chart);
    connect(action, &QAction::triggered, exporter, [exporter, format = format] { exporter->askAndExport(format); });
    chart->addAction(action);
  }
  chart->setContextMenuPolicy(Qt::ActionsContextMenu);
  return exporter;
}

ChartExport *ChartExport::of(const QWidget *chart) {
  return chart->findChild<ChartExport *>(QStringLiteral("chartExport"), Qt::FindDirectChildrenOnly);
}

bool ChartExport::exportPng(const QString &path, QString *error) const {
  const qreal scale = 2.0;
  QImage image(m_chart->size() * scale, QImage::Format_ARGB32_Premultiplied);
  image.setDevicePixelRatio(scale);
  image.fill(m_chart->palette().color(QPalette::Window));
  {
    QPainter painter(&image);
    m_chart->render(&painter);
  }
  if (image.save(path, "PNG")) return true;
  if (error) *error = tr("the image could not be written");
  return false;
}

bool ChartExport::exportSvg(const QString &path, QString *error) const {
  // QSvgGenerator reports no error of its own: the folder is checked first.
  const QFileInfo folder(QFileInfo(path).absolutePath());
  if (!folder.isDir() || !folder.isWritable()) {
    if (error) *error = tr("the folder %1 is not writable").arg(folder.absoluteFilePath());
    return false;
  }
  QSvgGenerator svg;
  svg.setFileName(path);
  svg.setSize(m_chart->size());
  svg.setViewBox(m_chart->rect());
  svg.setTitle(m_chart->windowTitle().isEmpty() ? m_chart->objectName() : m_chart->windowTitle());
  svg.setDescription(tr("Exported from Torchwright Studio"));
  QPainter painter;
  if (!painter.begin(&svg)) {
    if (error) *error = tr("the file could not be opened");
    return false;
  }
  painter.fillRect(m_chart->rect(), m_chart->palette().color(QPalette::Window));
  m_chart->render(&painter);
  painter.end();
  if (QFileInfo(path).size() > 0) return true;
  if (error) *error = tr("nothing was written");
  return false;
}

CsvTable ChartExport::csvTable() const { return m_snapshot()(); }

void ChartExport::exportCsv(const QString &path) {
  auto *watcher = new QFutureWatcher<QString>(this);
  connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, path] {
    const QString error = watcher->result();
    watcher->deleteLater();
    Q_EMIT csvWritten(path, error);
  });
  watcher->setFuture(QtConcurrent::run([make = m_snapshot(), path] {
    QString error;
    writeFile(path, csvText(make()), &error);
    return error;
  }));
}

void ChartExport::askAndExport(Format format) {
  const QString suffix = format == Format::Png ? QStringLiteral("png") : format == Format::Svg ? QStringLiteral("svg")
                                                                                              : QStringLiteral("csv");
  const QString filter = format == Format::Png   ? tr("PNG images (*.png)")
                         : format == Format::Svg ? tr("SVG drawings (*.svg)")
                                                 : tr("CSV tables (*.csv)");
  QSettings settings;
  const QString folder = settings
                             .value(QLatin1String(kExportFolderKey),
                                    QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                             .toString();
  QString path = chooseSaveFile(m_chart, tr("Export Chart"),
                                folder + QLatin1Char('/') + suggestedName(m_chart, suffix), filter);
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().isEmpty()) path += QLatin1Char('.') + suffix;
  settings.setValue(QLatin1String(kExportFolderKey), QFileInfo(path).absolutePath());
  QString error;
  switch (format) {
    case Format::Png:
      if (!exportPng(path, &error)) reportFailure(path, error);
      return;
    case Format::Svg:
      if (!exportSvg(path, &error)) reportFailure(path, error);
      return;
    case Format::Csv: {
      // One report per request, then the connection goes.
      auto connection = std::make_shared<QMetaObject::Connection>();
      *connection = connect(this, &ChartExport::csvWritten, this,
                            [this, connection](const QString &written, const QString &failure) {
                              disconnect(*connection);
                              if (!failure.isEmpty()) reportFailure(written, failure);
                            });
      exportCsv(path);
      return;
    }
  }
}

void ChartExport::reportFailure(const QString &path, const QString &error) const {
  QMessageBox::warning(m_chart, tr("Export Failed"),
                       tr("Could not write %1: %2. Choose another folder or file name and export again.")
                           .arg(QDir::toNativeSeparators(path), error));
}

}  // namespace tw::ui
