// Exporting a chart: the picture as PNG and SVG, its data as CSV (written off the UI thread),
// from the context menu every chart of ui/charts carries. The export functions are called
// directly with a path: the menu's file dialog only asks for that path.

#include "ui/charts/band_chart.h"
#include "ui/charts/bar_chart.h"
#include "ui/charts/chart_export.h"
#include "ui/charts/confusion_heatmap.h"
#include "ui/charts/contour_plot.h"
#include "ui/charts/grid_heatmap.h"
#include "ui/charts/metric_chart.h"

#include <QAction>
#include <QApplication>
#include <QContextMenuEvent>
#include <QFile>
#include <QGraphicsView>
#include <QImage>
#include <QLocale>
#include <QMenu>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <cmath>
#include <limits>

namespace {

QStringList menuOf(const QWidget *chart) {
  QStringList texts;
  for (QAction *action : chart->actions()) texts << action->text();
  return texts;
}

// Writes the CSV on the worker thread and reads the lines back; empty on failure.
QStringList exportedCsv(tw::ui::ChartExport *exporter, const QString &path, QString *error = nullptr) {
  QSignalSpy written(exporter, &tw::ui::ChartExport::csvWritten);
  exporter->exportCsv(path);
  if (!written.wait(20000)) return {};
  if (error) *error = written.first().at(1).toString();
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  QStringList lines = QString::fromUtf8(file.readAll()).split(QStringLiteral("\r\n"));
  if (!lines.isEmpty() && lines.last().isEmpty()) lines.removeLast();
  return lines;
}

}  // namespace

class TestChartExport : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void csvText_data() {
    QTest::addColumn<QStringList>("row");
    QTest::addColumn<QByteArray>("line");
    QTest::newRow("plain") << QStringList{"r1", "4", "0.5"} << QByteArray("r1,4,0.5\r\n");
    QTest::newRow("comma") << QStringList{"lr = 0.1, adam", "1"} << QByteArray("\"lr = 0.1, adam\",1\r\n");
    QTest::newRow("quote") << QStringList{"the \"best\" run"} << QByteArray("\"the \"\"best\"\" run\"\r\n");
    QTest::newRow("line break") << QStringList{"two\nlines"} << QByteArray("\"two\nlines\"\r\n");
    QTest::newRow("empty field") << QStringList{"r", ""} << QByteArray("r,\r\n");
    QTest::newRow("unicode") << QStringList{"Größe"} << QString::fromUtf8("Größe\r\n").toUtf8();
  }

  void csvText() {
    QFETCH(QStringList, row);
    QFETCH(QByteArray, line);
    const tw::ui::CsvTable table{{QStringLiteral("a")}, {row}};
    QCOMPARE(tw::ui::csvText(table), QByteArray("a\r\n") + line);
  }

  void csvNumbersReadBackExactlyInAnyLocale() {
    const QLocale before;
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));  // a decimal comma
    QCOMPARE(tw::ui::csvNumber(0.1), QStringLiteral("0.1"));
    QCOMPARE(tw::ui::csvNumber(2.0), QStringLiteral("2"));
    QCOMPARE(tw::ui::csvNumber(1e-5), QStringLiteral("1e-05"));
    QCOMPARE(tw::ui::csvNumber(1.0 / 3.0).toDouble(), 1.0 / 3.0);
    QCOMPARE(tw::ui::csvNumber(std::numeric_limits<double>::quiet_NaN()), QString());
    QLocale::setDefault(before);
  }

  void metricChartExportsPictureAndEveryPoint() {
    tw::ui::MetricChart chart(QStringLiteral("Loss"));
    chart.setObjectName(QStringLiteral("lossChart"));
    chart.resize(640, 400);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    // Two series, 3000 and 2000 points: more than the chart draws (decimated to 4000), all exported.
    chart.addSeries("train/loss", QStringLiteral("train, smoothed?"));
    chart.addSeries("val/loss", QStringLiteral("validation"));
    std::vector<tw::tracking::MetricPoint> train, val;
    for (int64_t step = 1; step <= 3000; ++step) train.push_back({step, 1.0 / static_cast<double>(step), 0});
    for (int64_t step = 1; step <= 2000; ++step) val.push_back({step, 0.25 * static_cast<double>(step), 0});
    chart.appendPoints("train/loss", train);
    chart.appendPoints("val/loss", val);
    chart.setSmoothing(0.9);  // the drawing is smoothed; the export is the data

    QCOMPARE(menuOf(&chart), (QStringList{"Show All Steps", "Export as PNG...", "Export as SVG...",
                                          "Export data as CSV..."}));
    QCOMPARE(chart.contextMenuPolicy(), Qt::ActionsContextMenu);
    tw::ui::ChartExport *exporter = tw::ui::ChartExport::of(&chart);
    QVERIFY(exporter);

    QTemporaryDir out;
    QString error;
    const QString png = out.filePath("loss.png");
    QVERIFY2(exporter->exportPng(png, &error), qPrintable(error));
    const QImage image(png);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(1280, 800));  // twice the widget, for print
    const QString svg = out.filePath("loss.svg");
    QVERIFY2(exporter->exportSvg(svg, &error), qPrintable(error));
    QFile svgFile(svg);
    QVERIFY(svgFile.open(QIODevice::ReadOnly));
    const QByteArray svgText = svgFile.readAll();
    QVERIFY(svgText.contains("<svg"));
    QVERIFY(svgText.contains("Loss"));  // the title, as text

    const QStringList rows = exportedCsv(exporter, out.filePath("loss.csv"), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(rows.size(), 1 + 3000 + 2000);
    QCOMPARE(rows[0], QStringLiteral("series,step,value"));
    QCOMPARE(rows[1], QStringLiteral("\"train, smoothed?\",1,1"));
    QCOMPARE(rows[4], QStringLiteral("\"train, smoothed?\",4,0.25"));
    QCOMPARE(rows[3000], QStringLiteral("\"train, smoothed?\",3000,0.0003333333333333333"));
    QCOMPARE(rows[3001], QStringLiteral("validation,1,0.25"));
    QCOMPARE(rows.last(), QStringLiteral("validation,2000,500"));
  }

  // A right-click on the plot itself (the chart view inside the widget) opens the menu.
  void rightClickOnThePlotOpensTheMenu() {
    tw::ui::MetricChart chart(QStringLiteral("Loss"));
    chart.resize(500, 300);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    auto *view = chart.findChild<QGraphicsView *>();
    QVERIFY(view);
    QStringList shown;
    // The menu runs its own event loop: read it and close it from inside that loop.
    QTimer::singleShot(0, [&shown] {
      auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
      if (!menu) return;
      for (QAction *action : menu->actions()) shown << action->text();
      menu->close();
    });
    const QPoint at = view->viewport()->rect().center();
    QContextMenuEvent event(QContextMenuEvent::Mouse, at, view->viewport()->mapToGlobal(at));
    QApplication::sendEvent(view->viewport(), &event);
    QCOMPARE(shown, (QStringList{"Show All Steps", "Export as PNG...", "Export as SVG...", "Export data as CSV..."}));
  }

  void bandAndBarChartsExportTheirNumbers() {
    QTemporaryDir out;
    tw::ui::BandChart bands(QStringLiteral("groups"));
    tw::ui::BandChart::Band band;
    band.label = QStringLiteral("train.lr = 0.01 (2 runs)");
    band.mean = {{1, 0.5}, {2, 0.4}};
    band.lower = {{1, 0.25}, {2, 0.3}};
    band.upper = {{1, 0.75}, {2, 0.5}};
    band.counts = {2, 1};
    bands.setBands({band});
    QVERIFY(menuOf(&bands).contains(QStringLiteral("Export data as CSV...")));
    QCOMPARE(exportedCsv(tw::ui::ChartExport::of(&bands), out.filePath("bands.csv")),
             (QStringList{"group,step,mean,min,max,runs", "train.lr = 0.01 (2 runs),1,0.5,0.25,0.75,2",
                          "train.lr = 0.01 (2 runs),2,0.4,0.3,0.5,1"}));

    tw::ui::BarChart bars;
    bars.setBars({{QStringLiteral("data.batch_size"), 0.18}, {QStringLiteral("train.lr"), 0.71}},
                 QStringLiteral("Importance"));
    QCOMPARE(exportedCsv(tw::ui::ChartExport::of(&bars), out.filePath("bars.csv")),
             (QStringList{"name,Importance", "train.lr,0.71", "data.batch_size,0.18"}));
  }

  void confusionHeatmapExportsItsCounts() {
    QTemporaryDir out;
    tw::ui::ConfusionHeatmap heatmap;
    tw::ui::ConfusionMatrix matrix;
    matrix.classes = {QStringLiteral("cat"), QStringLiteral("dog, big")};
    matrix.counts = {3, 1, 0, 4};
    heatmap.setMatrix(matrix);
    heatmap.setRowNormalised(true);  // the picture shows shares; the file keeps the counts
    QCOMPARE(exportedCsv(tw::ui::ChartExport::of(&heatmap), out.filePath("confusion.csv")),
             (QStringList{"truth\\predicted,cat,\"dog, big\"", "cat,3,1", "\"dog, big\",0,4"}));
  }

  // The layer x epoch norms and a study's contour export their numbers too.
  void gridHeatmapAndContourExportTheirNumbers() {
    QTemporaryDir out;
    tw::ui::GridHeatmap grid;
    grid.setRowTitle(QStringLiteral("Layer"));
    grid.setColumnTitle(QStringLiteral("Epoch"));
    grid.setGrid({QStringLiteral("fc.weight"), QStringLiteral("fc.bias")}, {QStringLiteral("1"), QStringLiteral("2")},
                 {0.5, 0.25, 1.5, std::numeric_limits<double>::quiet_NaN()});
    QVERIFY(menuOf(&grid).contains(QStringLiteral("Export as SVG...")));
    QCOMPARE(exportedCsv(tw::ui::ChartExport::of(&grid), out.filePath("norms.csv")),
             (QStringList{"Layer\\Epoch,1,2", "fc.weight,0.5,0.25", "fc.bias,1.5,"}));

    tw::ui::ContourPlot contour;
    tw::ui::ContourPlot::Grid cells;
    cells.x.title = QStringLiteral("train.lr");
    cells.y.title = QStringLiteral("data.batch_size");
    cells.size = 2;
    cells.values = {0.1, 0.2, 0.3, 0.4};
    contour.setData(cells, {QPointF(0.25, 0.75)}, QStringLiteral("val/accuracy"));
    QCOMPARE(exportedCsv(tw::ui::ChartExport::of(&contour), out.filePath("contour.csv")),
             (QStringList{"kind,train.lr (unit),data.batch_size (unit),val/accuracy", "cell,0.25,0.25,0.1",
                          "cell,0.75,0.25,0.2", "cell,0.25,0.75,0.3", "cell,0.75,0.75,0.4", "trial,0.25,0.75,"}));
    contour.resize(300, 240);
    QVERIFY(tw::ui::ChartExport::of(&contour)->exportPng(out.filePath("contour.png")));
    QVERIFY(!QImage(out.filePath("contour.png")).isNull());
  }

  void aFailedExportSaysWhy() {
    tw::ui::BarChart bars;
    bars.resize(300, 200);
    tw::ui::ChartExport *exporter = tw::ui::ChartExport::of(&bars);
    const QString missing = QStringLiteral("/nonexistent-folder-of-tw-tests/chart");
    QString error;
    QVERIFY(!exporter->exportPng(missing + ".png", &error));
    QVERIFY(!error.isEmpty());
    error.clear();
    QVERIFY(!exporter->exportSvg(missing + ".svg", &error));
    QVERIFY(error.contains(QStringLiteral("nonexistent-folder-of-tw-tests")));
    error.clear();
    exportedCsv(exporter, missing + ".csv", &error);
    QVERIFY(!error.isEmpty());
    QVERIFY(!QFile::exists(missing + ".csv"));
  }
};

QTEST_MAIN(TestChartExport)
#include "test_chart_export.moc"
