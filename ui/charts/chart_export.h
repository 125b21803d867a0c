#pragma once
// Saving a chart: the picture as PNG or SVG, and the numbers behind it as CSV, from the chart's
// context menu ("Export as PNG...", "Export as SVG...", "Export data as CSV..."). Every chart
// of ui/charts installs it in its constructor, so Runs, Compare and Sweeps all have it.
//
// The CSV is made in two steps so that a long series never holds up the UI: the chart's snapshot
// runs on the UI thread and only copies what it draws (Qt's containers share their data, so that
// is cheap), and the maker it returns formats and writes the rows on a worker thread.
//
//   ChartExport::install(this, [this] {
//     return [points = m_points] { CsvTable t{{"step", "value"}, {}}; ...; return t; };
//   });
//   ChartExport::of(chart)->exportPng("/tmp/loss.png", &error);   // no dialog: tests, scripts

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>

class QWidget;

namespace tw::ui {

struct CsvTable {
  QStringList header;
  QList<QStringList> rows;
};

// Runs on a worker thread: it may read only what it captured.
using CsvMaker = std::function<CsvTable()>;
// Runs on the UI thread when the user exports: copies what the chart shows now.
using CsvSnapshot = std::function<CsvMaker()>;

// A number as CSV (and spreadsheets) read it: the shortest text that reads back exactly, a dot
// for the decimal point whatever the locale, empty for NaN.
QString csvNumber(double value);
// RFC 4180: fields with a comma, quote or line break are quoted, quotes doubled; CRLF ends rows.
QByteArray csvText(const CsvTable &table);

class ChartExport : public QObject {
  Q_OBJECT

 public:
  // Adds the three export actions to `chart`'s context menu (Qt::ActionsContextMenu; actions the
  // chart adds itself come first). The exporter is a child of the chart.
  static ChartExport *install(QWidget *chart, CsvSnapshot snapshot);
  // The exporter installed on `chart`, or null.
  static ChartExport *of(const QWidget *chart);

  // Without a dialog. PNG at twice the widget's size, for sharp prints; SVG as vectors.
  bool exportPng(const QString &path, QString *error = nullptr) const;
  bool exportSvg(const QString &path, QString *error = nullptr) const;
  // Formats and writes on a worker thread; csvWritten follows (error empty on success).
  void exportCsv(const QString &path);
  // The table now, made on the calling thread.
  CsvTable csvTable() const;

 Q_SIGNALS:
  void csvWritten(const QString &path, const QString &error);

 private:
  ChartExport(QWidget *chart, CsvSnapshot snapshot);
  enum class Format { Png, Svg, Csv };
  void askAndExport(Format format);
  void reportFailure(const QString &path, const QString &error) const;

  QWidget *m_chart;
  CsvSnapshot m_snapshot;
};

}  // namespace tw::ui
