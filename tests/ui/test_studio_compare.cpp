// Compare through the real window: two runs recorded in a real tracking database are selected on
// the Runs page, Compare overlays their loss curves (read off the UI thread) and lists their
// configurations with the differing parameter highlighted; "Only differences" hides the rest.
// Then the pieces behind the other tabs: group bands, chunked reading, parallel coordinates
// with brushing and hover, the scatter, and 200 runs at once.

#include "studio_fixture.h"

#include "ui/charts/band_chart.h"
#include "ui/charts/chart_export.h"
#include "ui/charts/metric_chart.h"
#include "ui/charts/parallel_coordinates.h"
#include "ui/charts/scatter_chart.h"
#include "ui/charts/stream_decimator.h"
#include "ui/compare/compare_loader.h"
#include "ui/compare/compare_page.h"
#include "ui/compare/comparison.h"
#include "ui/compare/config_diff_view.h"
#include "ui/compare/curves_view.h"
#include "ui/compare/default_metric.h"
#include "ui/compare/empty_state.h"
#include "ui/compare/group_bands.h"
#include "ui/compare/parallel_view.h"
#include "ui/compare/scatter_view.h"
#include "ui/main_window.h"
#include "ui/runs/runs_page.h"
#include "ui/runs/runs_table_model.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QImage>
#include <QLabel>
#include <QMouseEvent>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QtTest>

#include <cmath>
#include <functional>


namespace {

using Series = std::vector<tw::ui::StepValue>;

// Six runs, two groups of train.lr. Each run's train/loss is linear in the step, and the runs
// log different steps, so that the bands below can be worked out by hand:
//   lr 0.001: r0 = 1*step (1..10), r1 = 2*step (1..10), r2 = 3*step (even steps 2..10)
//   lr 0.01:  r3 = 10-step (1..8), r4 = 0.5*step (1..10), r5 = 7 (1..10)
// val/loss at steps 2, 4, 6 is i+2, i+0.5, i+1 for run i: min i+0.5, final i+1, max i+2.
struct SixRuns {
  tw::test::Workspace ws;
  std::vector<int64_t> ids;
  std::vector<std::string> uuids;

  SixRuns() {
    const std::vector<std::function<double(int64_t)>> loss = {
        [](int64_t s) { return 1.0 * s; },  [](int64_t s) { return 2.0 * s; },  [](int64_t s) { return 3.0 * s; },
        [](int64_t s) { return 10.0 - s; }, [](int64_t s) { return 0.5 * s; }, [](int64_t) { return 7.0; }};
    const int64_t lastStep[] = {10, 10, 10, 8, 10, 10};
    for (int i = 0; i < 6; ++i) {
      auto run = ws.createRun("r" + std::to_string(i));
      ids.push_back(run.id);
      uuids.push_back(run.uuid);
      ws.setParams(run.id, {{"train.lr", i < 3 ? "0.001" : "0.01"},
                            {"train.optimizer", i % 2 == 0 ? "adam" : "sgd"},
                            {"train.seed", std::to_string(1 + i % 3)},
                            {"train.epochs", "5"},
                            {"data.batch_size", "128"}});
      std::vector<tw::tracking::MetricRow> rows;
      for (int64_t step = 1; step <= lastStep[i]; ++step) {
        if (i == 2 && step % 2 != 0) continue;
        rows.push_back({"train/loss", step, loss[static_cast<size_t>(i)](step), tw::tracking::nowMs()});
      }
      rows.push_back({"val/loss", 2, i + 2.0, tw::tracking::nowMs()});
      rows.push_back({"val/loss", 4, i + 0.5, tw::tracking::nowMs()});
      rows.push_back({"val/loss", 6, i + 1.0, tw::tracking::nowMs()});
      ws.store->writeMetrics(run.id, rows);
    }
  }
};

// A page on its own, loaded with `ids` in that order (the Runs page orders by its table). With a
// metric, the user chose it before pressing Compare; without, the page picks the runs' default.
std::unique_ptr<tw::ui::ComparePage> loadedPage(const tw::test::Workspace &ws, const std::vector<int64_t> &ids,
                                                const QString &metric = QString()) {
  auto page = std::make_unique<tw::ui::ComparePage>();
  page->resize(1300, 800);
  page->show();
  if (!metric.isEmpty()) page->metric()->setCurrentText(metric);
  QSignalSpy loaded(page.get(), &tw::ui::ComparePage::loaded);
  page->compareRuns(QString::fromStdString(ws.dbPath()), ids);
  if (!loaded.wait(20000)) return nullptr;
  return page;
}

// QTest::mouseMove carries no buttons: a drag needs its events built by hand.
void sendMouse(QWidget *widget, QEvent::Type type, QPointF at, Qt::MouseButtons buttons) {
  const Qt::MouseButton button = type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton;
  QMouseEvent event(type, at, widget->mapToGlobal(at), button, buttons, Qt::NoModifier);
  QApplication::sendEvent(widget, &event);
}

int bandIndex(const QList<QPointF> &points, double step) {
  for (int i = 0; i < points.size(); ++i)
    if (points[i].x() == step) return i;
  return -1;
}

// Exports `chart`'s data as CSV (written on a worker thread) and reads the lines back.
QStringList writtenCsv(QWidget *chart, const QString &path) {
  tw::ui::ChartExport *exporter = tw::ui::ChartExport::of(chart);
  if (!exporter) return {};
  QSignalSpy written(exporter, &tw::ui::ChartExport::csvWritten);
  exporter->exportCsv(path);
  if (!written.wait(10000) || !written.first().at(1).toString().isEmpty()) return {};
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  QStringList lines = QString::fromUtf8(file.readAll()).split(QStringLiteral("\r\n"));
  if (!lines.isEmpty() && lines.last().isEmpty()) lines.removeLast();
  return lines;
}

void saveShot(QWidget *widget, const QString &name) {
  tw::test::settleEvents();  // Qt Charts lays out titles and legends on the next turn of the event loop
  const QString dir = QStringLiteral(TW_BINARY_DIR "/screenshots");
  QDir().mkpath(dir);
  widget->grab().save(dir + QLatin1Char('/') + name);
}

}  // namespace

class TestStudioCompare : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir m_settings;

 private Q_SLOTS:
  void initTestCase() { tw::test::isolateSettings(m_settings.path()); }

  void compareTwoRuns() {
    tw::test::Workspace ws;
    auto a = ws.createRun("lr-small");
    auto b = ws.createRun("lr-large");
    // Names, experiments and paths differ too, but they say which run it is, not how it trained.
    ws.setParams(a.id, {{"train.lr", "0.001"}, {"train.epochs", "5"}, {"data.batch_size", "128"},
                        {"tracking.run_name", "lr-small"}, {"tracking.experiment", "one"}, {"data.path", "/a"}});
    ws.setParams(b.id, {{"train.lr", "0.01"}, {"train.epochs", "5"}, {"data.batch_size", "128"},
                        {"tracking.run_name", "lr-large"}, {"tracking.experiment", "two"}, {"data.path", "/b"}});
    ws.store->writeMetrics(a.id, tw::test::trainLossRows(1, 80));
    ws.store->writeMetrics(b.id, tw::test::trainLossRows(1, 120));

    tw::ui::MainWindow window;
    window.resize(1300, 850);
    window.show();
    QVERIFY(window.openWorkspace(ws.dir));
    tw::ui::RunsPage *runs = window.runsPage();
    QTRY_COMPARE(runs->model()->rowCount(), 2);
    QVERIFY(!runs->compareButton()->isEnabled());  // one run or none: nothing to compare
    runs->table()->selectAll();
    QTRY_VERIFY(runs->compareButton()->isEnabled());

    tw::ui::ComparePage *compare = window.comparePage();
    QSignalSpy loaded(compare, &tw::ui::ComparePage::loaded);
    QTest::mouseClick(runs->compareButton(), Qt::LeftButton);
    QCOMPARE(window.pages()->currentWidget(), static_cast<QWidget *>(compare));
    QVERIFY(loaded.wait(10000));

    QCOMPARE(compare->chart()->rawPointCount(a.uuid), 80);
    QCOMPARE(compare->chart()->rawPointCount(b.uuid), 120);
    QCOMPARE(compare->differingKeys(), QStringList{"train.lr"});
    QTableWidget *table = compare->configTable();
    QCOMPARE(table->columnCount(), 3);  // the parameter, then one column per run
    QCOMPARE(table->rowCount(), 6);
    int visible = 0;
    for (int row = 0; row < table->rowCount(); ++row) visible += table->isRowHidden(row) ? 0 : 1;
    QCOMPARE(visible, 1);
    compare->onlyDifferences()->setChecked(false);
    for (int row = 0; row < table->rowCount(); ++row) QVERIFY(!table->isRowHidden(row));

    const QString dir = QStringLiteral(TW_BINARY_DIR "/screenshots");
    QDir().mkpath(dir);
    window.grab().save(dir + QStringLiteral("/studio_compare.png"));
  }

  // The configuration table shows numbers as every table in Studio does: the digits that matter
  // in the locale, the value as recorded in the tooltip. Before: "0.002915586427666988".
  void configTableFormatsNumbersInTheLocale() {
    struct RestoreLocale {
      QLocale before;
      ~RestoreLocale() { QLocale::setDefault(before); }
    } restore;
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    tw::test::Workspace ws;
    auto a = ws.createRun("tuned");
    auto b = ws.createRun("default");
    ws.setParams(a.id, {{"train.lr", "0.002915586427666988"}, {"data.batch_size", "60000"}, {"train.optimizer", "adamw"}});
    ws.setParams(b.id, {{"train.lr", "0.001"}, {"data.batch_size", "128"}, {"train.optimizer", "adamw"}});
    ws.store->writeMetrics(a.id, tw::test::trainLossRows(1, 20));
    ws.store->writeMetrics(b.id, tw::test::trainLossRows(1, 20));

    tw::ui::MainWindow window;
    window.resize(1300, 850);
    window.show();
    QVERIFY(window.openWorkspace(ws.dir));
    tw::ui::RunsPage *runs = window.runsPage();
    QTRY_COMPARE(runs->model()->rowCount(), 2);
    runs->table()->selectAll();
    QTRY_VERIFY(runs->compareButton()->isEnabled());
    tw::ui::ComparePage *compare = window.comparePage();
    QSignalSpy loaded(compare, &tw::ui::ComparePage::loaded);
    QTest::mouseClick(runs->compareButton(), Qt::LeftButton);
    QVERIFY(loaded.wait(10000));
    QTableWidget *table = compare->configTable();
    QStringList cells;
    const QTableWidgetItem *lr = nullptr;
    for (int row = 0; row < table->rowCount(); ++row)
      for (int column = 1; column < table->columnCount(); ++column) {
        cells << table->item(row, column)->text();
        if (table->item(row, 0)->text() == "train.lr" && table->item(row, column)->text() == "0,002916")
          lr = table->item(row, column);
      }
    QVERIFY2(lr, qPrintable(cells.join(" | ")));
    QCOMPARE(lr->toolTip(), QStringLiteral("0.002915586427666988"));
    QVERIFY2(cells.contains("60.000") && cells.contains("0,001") && cells.contains("adamw"), qPrintable(cells.join(" | ")));
    saveShot(table, QStringLiteral("compare_config_german.png"));
  }

  // Two runs whose batch sizes differ by a factor two take 100 and 50 steps an epoch; on the
  // Curves tab's epoch axis their validation curves line up, read by the loader with the runs'
  // `epoch` rows; on wall time each point sits at its time since its own run's start.
  void curvesAgainstEpochsAndWallTime() {
    tw::test::Workspace ws;
    auto a = ws.createRun("batch-64");
    auto b = ws.createRun("batch-128");
    ws.setParams(a.id, {{"data.batch_size", "64"}});
    ws.setParams(b.id, {{"data.batch_size", "128"}});
    ws.store->setStatus(a.id, tw::tracking::RunStatus::Running);
    ws.store->setStatus(b.id, tw::tracking::RunStatus::Running);
    const int64_t startA = ws.store->run(a.id)->startMs, startB = ws.store->run(b.id)->startMs;
    std::vector<tw::tracking::MetricRow> rowsA, rowsB;
    for (int64_t e = 1; e <= 3; ++e) {
      rowsA.push_back({"epoch", 100 * e, static_cast<double>(e), startA + 2000 * e});
      rowsA.push_back({"val/loss", 100 * e, 1.0 / static_cast<double>(e), startA + 2000 * e});
      rowsB.push_back({"epoch", 50 * e, static_cast<double>(e), startB + 1000 * e});
      rowsB.push_back({"val/loss", 50 * e, 0.9 / static_cast<double>(e), startB + 1000 * e});
    }
    ws.store->writeMetrics(a.id, rowsA);
    ws.store->writeMetrics(b.id, rowsB);

    tw::ui::MainWindow window;
    window.resize(1300, 850);
    window.show();
    QVERIFY(window.openWorkspace(ws.dir));
    tw::ui::RunsPage *runs = window.runsPage();
    QTRY_COMPARE(runs->model()->rowCount(), 2);
    runs->table()->selectAll();
    QTRY_VERIFY(runs->compareButton()->isEnabled());
    tw::ui::ComparePage *compare = window.comparePage();
    QSignalSpy loaded(compare, &tw::ui::ComparePage::loaded);
    QTest::mouseClick(runs->compareButton(), Qt::LeftButton);
    QVERIFY(loaded.wait(10000));
    QCOMPARE(QString::fromStdString(compare->comparison()->data.metric), QStringLiteral("val/loss"));
    auto xs = [&](const std::string &key) {
      QList<double> out;
      for (const QPointF &p : compare->chart()->drawnPoints(key)) out << p.x();
      return out;
    };
    QCOMPARE(xs(a.uuid), (QList<double>{100, 200, 300}));
    QCOMPARE(xs(b.uuid), (QList<double>{50, 100, 150}));
    QComboBox *xAxis = compare->curves()->xAxisBox();
    xAxis->setCurrentIndex(xAxis->findData(static_cast<int>(tw::ui::XAxisKind::Epoch)));
    QCOMPARE(xs(a.uuid), (QList<double>{1, 2, 3}));
    QCOMPARE(xs(b.uuid), (QList<double>{1, 2, 3}));
    saveShot(compare, QStringLiteral("compare_curves_epochs.png"));
    xAxis->setCurrentIndex(xAxis->findData(static_cast<int>(tw::ui::XAxisKind::WallTime)));
    QCOMPARE(xs(a.uuid), (QList<double>{2, 4, 6}));
    QCOMPARE(xs(b.uuid), (QList<double>{1, 2, 3}));
    // The choice holds for the next comparison's fresh chart.
    QSignalSpy again(compare, &tw::ui::ComparePage::loaded);
    compare->metric()->setCurrentText(QStringLiteral("epoch"));
    QVERIFY(again.wait(10000));
    QCOMPARE(compare->chart()->xAxis(), tw::ui::XAxisKind::WallTime);
  }

  // --- the aggregation behind group by, alone ---

  void band_data() {
    QTest::addColumn<std::vector<Series>>("runs");
    QTest::addColumn<double>("step");
    QTest::addColumn<double>("mean");
    QTest::addColumn<double>("min");
    QTest::addColumn<double>("max");
    QTest::addColumn<int>("count");
    const std::vector<Series> three = {{{1, 1}, {2, 2}, {3, 3}}, {{1, 3}, {2, 6}, {3, 9}}, {{2, 0}, {3, -3}}};
    QTest::newRow("all three") << three << 2.0 << 8.0 / 3 << 0.0 << 6.0 << 3;
    QTest::newRow("negative") << three << 3.0 << 3.0 << -3.0 << 9.0 << 3;
    QTest::newRow("one missing") << three << 1.0 << 2.0 << 1.0 << 3.0 << 2;
    QTest::newRow("bin centres") << std::vector<Series>{{{50.5, 4}}, {{50.5, 8}, {150.5, 1}}} << 50.5 << 6.0 << 4.0
                                 << 8.0 << 2;
    QTest::newRow("only one run") << std::vector<Series>{{{50.5, 4}}, {{50.5, 8}, {150.5, 1}}} << 150.5 << 1.0 << 1.0
                                  << 1.0 << 1;
  }

  void band() {
    QFETCH(std::vector<Series>, runs);
    QFETCH(double, step);
    std::vector<const Series *> series;
    for (const Series &run : runs) series.push_back(&run);
    const auto band = tw::ui::bandOf(series);
    auto at = std::find_if(band.begin(), band.end(), [&](const auto &p) { return p.step == step; });
    QVERIFY(at != band.end());
    QTEST(at->mean, "mean");
    QTEST(at->min, "min");
    QTEST(at->max, "max");
    QTEST(at->runs, "count");
    QVERIFY(std::is_sorted(band.begin(), band.end(), [](const auto &a, const auto &b) { return a.step < b.step; }));
  }

  void groupsFollowTheColumn() {
    const std::map<std::string, std::string> a{{"lr", "0.01"}, {"opt", "sgd"}, {"epochs", "5"}};
    const std::map<std::string, std::string> b{{"lr", "1e-3"}, {"opt", "adam"}, {"epochs", "5"}};
    const std::map<std::string, std::string> c{{"lr", "0.01"}, {"epochs", "5"}};
    const auto columns = tw::ui::paramColumns({&a, &b, &c});
    QCOMPARE(columns.size(), size_t(3));  // epochs, lr, opt
    QVERIFY(!columns[0].differs);
    const tw::ui::ParamColumn &lr = columns[1];
    QVERIFY(lr.differs && lr.numeric);
    QCOMPARE(lr.categories, (std::vector<std::string>{"1e-3", "0.01"}));  // by number, not by text
    const auto groups = tw::ui::groupRuns(lr);
    QCOMPARE(groups.size(), size_t(2));
    QCOMPARE(groups[0].runs, std::vector<size_t>{1});
    QCOMPARE(groups[1].runs, (std::vector<size_t>{0, 2}));
    const tw::ui::ParamColumn &opt = columns[2];
    QVERIFY(!opt.numeric);
    QCOMPARE(opt.categories, (std::vector<std::string>{"adam", "sgd", tw::ui::kMissingParam}));
    QCOMPARE(opt.categoryOf, (std::vector<int>{1, 0, 2}));
  }

  void streamDecimatorKeepsExtremes() {
    tw::ui::StreamDecimator small(1, 50, 100);
    for (int64_t s = 1; s <= 50; ++s) small.add({s, std::sin(s * 0.3), 0});
    QCOMPARE(small.take().size(), size_t(50));  // under the budget: every point as it is

    tw::ui::StreamDecimator large(1, 100000, 400);
    for (int64_t s = 1; s <= 100000; ++s) large.add({s, s == 77777 ? 50.0 : (s == 12345 ? -50.0 : std::sin(s * 0.01)), 0});
    const auto kept = large.take();
    QVERIFY(kept.size() <= 400);
    QCOMPARE(kept.front().step, int64_t(1));
    QCOMPARE(kept.back().step, int64_t(100000));
    auto has = [&](int64_t step) { return std::any_of(kept.begin(), kept.end(), [&](auto &p) { return p.step == step; }); };
    QVERIFY(has(77777));
    QVERIFY(has(12345));
    QVERIFY(std::is_sorted(kept.begin(), kept.end(), [](auto &a, auto &b) { return a.step < b.step; }));
  }

  // --- the loader reads whole series in chunks ---

  void loaderReadsPastTheOldCap() {
    tw::test::Workspace ws;
    auto run = ws.createRun("long");
    auto other = ws.createRun("short");
    std::vector<tw::tracking::MetricRow> rows;
    for (int64_t s = 1; s <= 60000; ++s) {
      const double v = s == 33333 ? 1000.0 : (s == 47000 ? -500.0 : s / 1000.0);
      rows.push_back({"train/loss", s, v, 1});
    }
    ws.store->writeMetrics(run.id, rows);
    ws.store->writeMetrics(other.id, tw::test::trainLossRows(1, 100));

    tw::ui::CompareLoader loader;
    QSignalSpy loaded(&loader, &tw::ui::CompareLoader::loaded);
    tw::ui::CompareLoadOptions options;
    options.maxPoints = 500;
    options.maxBins = 100;
    options.chunkPoints = 7000;  // 9 chunks, the last one short
    loader.load(QString::fromStdString(ws.dbPath()), {run.id, other.id}, QStringLiteral("train/loss"), options);
    QVERIFY(loaded.wait(20000));
    const auto data = loaded.takeFirst().at(0).value<tw::ui::CompareData>();
    QVERIFY2(data.error.isEmpty(), qPrintable(data.error));
    QCOMPARE(data.runs.size(), size_t(2));
    const tw::ui::ComparedRun &longRun = data.runs[0];
    QCOMPARE(longRun.summary.count, int64_t(60000));  // the old loader stopped at 20000
    QCOMPARE(longRun.summary.lastStep, int64_t(60000));
    QCOMPARE(longRun.summary.last, 60.0);
    QCOMPARE(longRun.summary.max, 1000.0);
    QCOMPARE(longRun.summary.min, -500.0);
    QVERIFY(longRun.points.size() <= 500);
    QCOMPARE(longRun.points.back().step, int64_t(60000));
    auto kept = [&](int64_t step) {
      return std::any_of(longRun.points.begin(), longRun.points.end(), [&](auto &p) { return p.step == step; });
    };
    QVERIFY(kept(33333) && kept(47000));
    // The grid spans both runs (steps 1..60000) in 100 bins of 600 steps.
    QCOMPARE(data.grid.width, int64_t(600));
    QCOMPARE(data.grid.bins, 100);
    QCOMPARE(longRun.binned.size(), size_t(100));
    QCOMPARE(longRun.binned[0].step, 300.5);  // the centre of steps 1..600
    QVERIFY(std::abs(longRun.binned[0].value - 0.3005) < 1e-12);  // mean of 0.001..0.600
    // Bin 55 holds steps 33001..33600, the spike among them.
    const double spikeBin = 33.3005 + (1000.0 - 33.333) / 600.0;
    QVERIFY(std::abs(longRun.binned[55].value - spikeBin) < 1e-9);
    QCOMPARE(data.runs[1].points.size(), size_t(100));  // short: every point
    QCOMPARE(data.runs[1].binned.size(), size_t(1));    // all of it in the first bin
  }

  // --- the tabs, on six runs in two groups of train.lr ---

  void groupByDrawsBands() {
    SixRuns six;
    auto page = loadedPage(six.ws, six.ids, QStringLiteral("train/loss"));
    QVERIFY(page);
    QCOMPARE(page->tabs()->count(), 4);
    QCOMPARE(page->tabs()->tabText(0), QStringLiteral("Curves"));
    QCOMPARE(page->tabs()->tabText(1), QStringLiteral("Parallel coordinates"));
    QCOMPARE(page->tabs()->tabText(2), QStringLiteral("Scatter"));
    QCOMPARE(page->tabs()->tabText(3), QStringLiteral("Config"));
    QCOMPARE(page->chart()->rawPointCount(six.uuids[2]), 5);
    QCOMPARE(page->comparison()->data.metric, std::string("train/loss"));  // the user's choice
    QVERIFY(page->metric()->findText(QStringLiteral("val/loss")) >= 0);  // what the runs recorded

    // Only parameters that differ are offered; epochs and batch size are the same everywhere.
    QComboBox *groupBy = page->curves()->groupBy();
    QStringList offered;
    for (int i = 1; i < groupBy->count(); ++i) offered << groupBy->itemData(i).toString();
    QCOMPARE(offered, (QStringList{"train.lr", "train.optimizer", "train.seed"}));
    QVERIFY(!page->curves()->grouped());
    saveShot(page.get(), QStringLiteral("studio_compare_curves.png"));

    groupBy->setCurrentIndex(groupBy->findData(QStringLiteral("train.lr")));
    QVERIFY(page->curves()->grouped());
    tw::ui::BandChart *bands = page->curves()->bandChart();
    QVERIFY(bands->isVisible());
    QCOMPARE(bands->legendLabels(), (QStringList{"train.lr = 0.001 (3 runs)", "train.lr = 0.01 (3 runs)"}));
    struct Expected {
      int group;
      double step, mean, min, max;
    };
    // By hand from SixRuns' formulas; a missing step leaves the run out, not zero.
    const Expected expected[] = {{0, 4, 8, 4, 12},   {0, 5, 7.5, 5, 10},  {0, 10, 20, 10, 30},
                                 {1, 4, 5, 2, 7},    {1, 9, 5.75, 4.5, 7}, {1, 1, 5.5, 0.5, 9}};
    for (const Expected &e : expected) {
      const QList<QPointF> mean = bands->drawnMean(e.group);
      const int i = bandIndex(mean, e.step);
      QVERIFY2(i >= 0, qPrintable(QStringLiteral("group %1 step %2").arg(e.group).arg(e.step)));
      QVERIFY(qFuzzyCompare(mean[i].y(), e.mean));
      QCOMPARE(bands->drawnLower(e.group)[i], QPointF(e.step, e.min));
      QCOMPARE(bands->drawnUpper(e.group)[i], QPointF(e.step, e.max));
    }
    QCOMPARE(bands->bands()[0].counts[bandIndex(bands->drawnMean(0), 5)], 2);  // r2 logs even steps only
    saveShot(page.get(), QStringLiteral("studio_compare_groups.png"));

    groupBy->setCurrentIndex(0);
    QVERIFY(!page->curves()->grouped());
    QVERIFY(page->chart()->isVisible());
  }

  void parallelCoordinatesBrushAndHover() {
    SixRuns six;
    auto page = loadedPage(six.ws, six.ids, QStringLiteral("train/loss"));
    QVERIFY(page);
    page->tabs()->setCurrentWidget(page->parallel());
    tw::ui::ParallelCoordinates *plot = page->parallel()->plot();
    QCOMPARE(plot->axisCount(), 4);  // lr, optimizer, seed, then the metric
    QCOMPARE(plot->lineCount(), 6);
    QCOMPARE(plot->axis(0).title, QStringLiteral("train.lr"));
    QCOMPARE(plot->axis(1).categories, (QStringList{"adam", "sgd"}));
    QCOMPARE(plot->axis(1).values, (std::vector<double>{0, 1, 0, 1, 0, 1}));
    QCOMPARE(plot->axis(3).title, QStringLiteral("train/loss (final)"));
    QCOMPARE(plot->axis(3).values, (std::vector<double>{10, 20, 30, 2, 5, 7}));

    // Drag on the metric axis from 12 down to 4: r0 (10), r4 (5) and r5 (7) are inside.
    const double x = plot->axisX(3);
    sendMouse(plot, QEvent::MouseButtonPress, {x, plot->yOf(3, 12)}, Qt::LeftButton);
    sendMouse(plot, QEvent::MouseMove, {x, plot->yOf(3, 8)}, Qt::LeftButton);
    sendMouse(plot, QEvent::MouseMove, {x, plot->yOf(3, 4)}, Qt::LeftButton);
    sendMouse(plot, QEvent::MouseButtonRelease, {x, plot->yOf(3, 4)}, Qt::NoButton);
    QVERIFY(plot->brush(3).has_value());
    QCOMPARE(plot->selectedLines(), (std::vector<int>{0, 4, 5}));
    QVERIFY(page->parallel()->selectionLabel()->text().startsWith(QStringLiteral("3 of 6 runs selected: r0, r4, r5")));
    // A second brush intersects: adam among them is r0 and r4.
    plot->setBrush(1, -0.4, 0.4);
    QCOMPARE(plot->selectedLines(), (std::vector<int>{0, 4}));

    // Hovering r1's point on the metric axis picks r1.
    sendMouse(plot, QEvent::MouseMove, {x + 1, plot->yOf(3, 20)}, Qt::NoButton);
    QCOMPARE(plot->hoveredLine(), 1);
    QCOMPARE(plot->lineName(plot->hoveredLine()), QStringLiteral("r1"));
    saveShot(page.get(), QStringLiteral("studio_compare_parallel.png"));

    // A click on an axis clears its brush.
    sendMouse(plot, QEvent::MouseButtonPress, {x, plot->yOf(3, 20)}, Qt::LeftButton);
    sendMouse(plot, QEvent::MouseButtonRelease, {x, plot->yOf(3, 20)}, Qt::NoButton);
    QVERIFY(!plot->brush(3).has_value());
    QCOMPARE(plot->selectedLines(), (std::vector<int>{0, 2, 4}));  // the optimizer brush alone

    QComboBox *statistic = page->parallel()->statistic();
    statistic->setCurrentIndex(statistic->findData(static_cast<int>(tw::ui::Statistic::Min)));
    QCOMPARE(plot->axis(3).title, QStringLiteral("train/loss (min)"));
    QCOMPARE(plot->axis(3).values, (std::vector<double>{1, 2, 6, 2, 0.5, 7}));
    QCOMPARE(plot->selectedLines().size(), size_t(6));  // new values, no brushes
    // A loss's best is its minimum, by the core's rule of a metric's direction.
    statistic->setCurrentIndex(statistic->findData(static_cast<int>(tw::ui::Statistic::Best)));
    QCOMPARE(plot->axis(3).title, QStringLiteral("train/loss (best)"));
    QCOMPARE(plot->axis(3).values, (std::vector<double>{1, 2, 6, 2, 0.5, 7}));
  }

  void scatterPlacesEachRun() {
    SixRuns six;
    auto page = loadedPage(six.ws, six.ids);
    QVERIFY(page);
    page->tabs()->setCurrentWidget(page->scatter());
    tw::ui::ScatterView *view = page->scatter();
    QCOMPARE(view->xParam()->currentText(), QStringLiteral("train.lr"));  // the first that differs
    // No run recorded a monitor, so the page's metric is val/loss, which they all recorded.
    QCOMPARE(page->metric()->currentText(), QStringLiteral("val/loss"));
    QCOMPARE(view->yMetric()->currentText(), QStringLiteral("val/loss"));
    // val/loss ends at i + 1 for run i.
    const QList<QPointF> expected = {{0.001, 1}, {0.001, 2}, {0.001, 3}, {0.01, 4}, {0.01, 5}, {0.01, 6}};
    QCOMPARE(view->chart()->drawnPoints(), expected);
    QCOMPARE(view->chart()->drawnLabels(), (QStringList{"r0", "r1", "r2", "r3", "r4", "r5"}));
    // The tooltip names the run and its two values, formatted as every number in Studio.
    QCOMPARE(view->chart()->labelsAt({0.001, 2}), QStringList{"r1: train.lr = 0.001, val/loss (final) = 2"});

    // A categorical parameter: evenly spaced categories, x = the category's index.
    view->xParam()->setCurrentText(QStringLiteral("train.optimizer"));
    QCOMPARE(view->chart()->xAxis().categories, (QStringList{"adam", "sgd"}));
    QCOMPARE(view->chart()->drawnPoints(), (QList<QPointF>{{0, 1}, {1, 2}, {0, 3}, {1, 4}, {0, 5}, {1, 6}}));

    // Another metric's minimum needs its points: read off the UI thread, then drawn.
    QSignalSpy shown(page.get(), &tw::ui::ComparePage::summariesShown);
    view->yMetric()->setCurrentText(QStringLiteral("train/loss"));
    QCOMPARE(view->chart()->drawnPoints(), (QList<QPointF>{{0, 10}, {1, 20}, {0, 30}, {1, 2}, {0, 5}, {1, 7}}));  // final
    view->statistic()->setCurrentIndex(view->statistic()->findData(static_cast<int>(tw::ui::Statistic::Min)));
    QVERIFY(shown.wait(10000));
    QCOMPARE(view->chart()->drawnPoints(), (QList<QPointF>{{0, 1}, {1, 2}, {0, 6}, {1, 2}, {0, 0.5}, {1, 7}}));
    saveShot(page.get(), QStringLiteral("studio_compare_scatter.png"));

    page->tabs()->setCurrentWidget(page->config());
    QCOMPARE(page->differingKeys(), (QStringList{"train.lr", "train.optimizer", "train.seed"}));
    saveShot(page.get(), QStringLiteral("studio_compare_config.png"));
  }

  // --- defaults: the metric the runs monitored; the user's choice stays ---

  void defaultMetricIsTheRunsMonitor() {
    tw::test::Workspace ws;
    std::vector<int64_t> ids;
    for (int i = 0; i < 3; ++i) {
      auto run = ws.createRun("acc-" + std::to_string(i));
      ids.push_back(run.id);
      ws.setParams(run.id, {{"train.monitor", "val/accuracy"}, {"train.lr", i == 0 ? "0.01" : "0.1"}});
      ws.store->writeMetrics(run.id, tw::test::trainLossRows(1, 40));
      ws.store->writeMetrics(run.id, tw::test::validationRows(1, 40, 10));
    }
    auto page = loadedPage(ws, ids);
    QVERIFY(page);
    QCOMPARE(page->comparison()->data.metric, std::string("val/accuracy"));
    QCOMPARE(page->metric()->currentText(), QStringLiteral("val/accuracy"));
    QCOMPARE(page->chart()->rawPointCount(page->comparison()->data.runs[0].run.uuid), 4);  // steps 10..40
    QCOMPARE(page->parallel()->plot()->axis(1).title, QStringLiteral("val/accuracy (final)"));

    // The user's choice survives a reload, and a new comparison of the same runs.
    QSignalSpy loaded(page.get(), &tw::ui::ComparePage::loaded);
    page->metric()->setCurrentText(QStringLiteral("train/loss"));
    QVERIFY(loaded.wait(20000));
    QCOMPARE(page->comparison()->data.metric, std::string("train/loss"));
    page->compareRuns(QString::fromStdString(ws.dbPath()), ids);
    QVERIFY(loaded.wait(20000));
    QCOMPARE(page->comparison()->data.metric, std::string("train/loss"));
    QCOMPARE(page->metric()->currentText(), QStringLiteral("train/loss"));
  }

  void defaultMetric_data() {
    QTest::addColumn<QStringList>("monitors");  // one per run; empty: not recorded
    QTest::addColumn<QStringList>("recorded");
    QTest::addColumn<QString>("expected");
    QTest::newRow("the monitor") << QStringList{"val/accuracy", "val/accuracy"}
                                 << QStringList{"train/loss", "val/accuracy", "val/loss"} << "val/accuracy";
    QTest::newRow("most runs' monitor") << QStringList{"val/f1_macro", "val/accuracy", "val/accuracy"}
                                        << QStringList{"val/accuracy", "val/f1_macro", "val/loss"} << "val/accuracy";
    QTest::newRow("a monitor nobody recorded yet") << QStringList{"val/accuracy", "val/accuracy"}
                                                   << QStringList{"train/loss", "val/loss"} << "val/loss";
    QTest::newRow("no monitor: val/loss") << QStringList{"", ""} << QStringList{"train/loss", "val/loss"} << "val/loss";
    QTest::newRow("no validation: train/loss") << QStringList{"", ""} << QStringList{"train/loss"} << "train/loss";
  }

  void defaultMetric() {
    QFETCH(QStringList, monitors);
    QFETCH(QStringList, recorded);
    QFETCH(QString, expected);
    std::vector<std::map<std::string, std::string>> params;
    for (const QString &monitor : monitors) {
      params.push_back({{"train.lr", "0.1"}});
      if (!monitor.isEmpty()) params.back()["train.monitor"] = monitor.toStdString();
    }
    std::vector<const std::map<std::string, std::string> *> runs;
    for (const auto &p : params) runs.push_back(&p);
    std::vector<std::string> keys;
    for (const QString &key : recorded) keys.push_back(key.toStdString());
    QCOMPARE(QString::fromStdString(tw::ui::defaultMetric(runs, keys)), expected);
  }

  // --- Scatter, Parallel coordinates and Group by offer what applies to the runs' data source ---

  void onlyParametersOfTheRunsDataSource() {
    tw::test::Workspace ws;
    std::vector<int64_t> idx, csv;
    for (int i = 0; i < 4; ++i) {
      auto run = ws.createRun("idx-" + std::to_string(i));
      idx.push_back(run.id);
      // A CSV target left in the run file of a Fashion-MNIST run: recorded, and meaningless.
      ws.setParams(run.id, {{"data.dataset", "fashion-mnist"}, {"data.target", i % 2 ? "price" : "label"},
                            {"data.flip", i % 2 ? "0.5" : "0"}, {"train.lr", i < 2 ? "0.01" : "0.1"}});
      ws.store->writeMetrics(run.id, tw::test::trainLossRows(1, 20));
    }
    for (int i = 0; i < 2; ++i) {
      auto run = ws.createRun("csv-" + std::to_string(i), "houses");
      csv.push_back(run.id);
      ws.setParams(run.id, {{"data.dataset", "csv"}, {"data.target", i ? "price" : "rooms"},
                            {"data.flip", i ? "0.5" : "0"}, {"train.lr", "0.01"}});
      ws.store->writeMetrics(run.id, tw::test::trainLossRows(1, 20));
    }
    auto offeredOn = [](tw::ui::ComparePage *page) {
      QStringList scatter, parallel;
      for (int i = 0; i < page->scatter()->xParam()->count(); ++i) scatter << page->scatter()->xParam()->itemText(i);
      tw::ui::ParallelCoordinates *plot = page->parallel()->plot();
      for (int a = 0; a + 1 < plot->axisCount(); ++a) parallel << plot->axis(a).title;  // the last is the metric
      return std::make_pair(scatter, parallel);
    };

    auto idxPage = loadedPage(ws, idx);
    QVERIFY(idxPage);
    const auto [idxScatter, idxParallel] = offeredOn(idxPage.get());
    QCOMPARE(idxParallel, (QStringList{"data.flip", "train.lr"}));
    QCOMPARE(idxScatter, (QStringList{"data.flip", "train.lr", "data.dataset"}));  // differing first
    QComboBox *groupBy = idxPage->curves()->groupBy();
    QStringList groups;
    for (int i = 1; i < groupBy->count(); ++i) groups << groupBy->itemData(i).toString();
    QCOMPARE(groups, (QStringList{"data.flip", "train.lr"}));  // Group by follows the same rule
    // The Config tab still lists everything recorded.
    QVERIFY(idxPage->differingKeys().contains(QStringLiteral("data.target")));

    auto csvPage = loadedPage(ws, csv);
    QVERIFY(csvPage);
    const auto [csvScatter, csvParallel] = offeredOn(csvPage.get());
    QCOMPARE(csvParallel, (QStringList{"data.target"}));  // flip is for images
    QCOMPARE(csvScatter, (QStringList{"data.target", "data.dataset", "train.lr"}));
  }

  // --- log axes: where the sweep sampled on a log scale, or values spanning two decades ---

  void logAxisWhereTheSweepSampledLog() {
    tw::test::Workspace ws;
    tw::tracking::NewStudy study;
    study.name = "lr-log";
    study.sweepYaml = "study: lr-log\n"
                      "objective: {metric: val/loss, direction: minimize}\n"
                      "space:\n"
                      "  train.lr: {type: float, low: 1.0e-3, high: 0.01, log: true}\n"
                      "  train.momentum: {type: float, low: 0.5, high: 0.9}\n"
                      "sampler: {type: random, seed: 1}\n"
                      "budget: {trials: 4}\n";
    study.directions = "minimize";
    study.metrics = "val/loss";
    ws.store->createStudy(study);
    std::vector<int64_t> swept, handMade;
    const char *lrs[] = {"0.001", "0.002", "0.005", "0.009"};
    for (int i = 0; i < 4; ++i) {
      for (auto *ids : {&swept, &handMade}) {
        auto run = ws.createRun((ids == &swept ? "trial-" : "hand-") + std::to_string(i));
        ids->push_back(run.id);
        ws.setParams(run.id, {{"train.lr", lrs[i]}, {"train.momentum", i % 2 ? "0.5" : "0.9"}});
        ws.store->writeMetrics(run.id, tw::test::trainLossRows(1, 20));
        if (ids == &swept) ws.store->setTag(run.id, "study", "lr-log");
      }
    }

    auto sweptPage = loadedPage(ws, swept);
    QVERIFY(sweptPage);
    QCOMPARE(sweptPage->comparison()->data.logParams, (std::set<std::string>{"train.lr"}));
    tw::ui::ParallelCoordinates *plot = sweptPage->parallel()->plot();
    QCOMPARE(plot->axis(0).title, QStringLiteral("train.lr"));
    QVERIFY(plot->axis(0).log);   // under one decade, but sampled on a log scale
    QCOMPARE(plot->axis(1).title, QStringLiteral("train.momentum"));
    QVERIFY(!plot->axis(1).log);  // sampled uniformly
    QCOMPARE(sweptPage->scatter()->xParam()->currentText(), QStringLiteral("train.lr"));
    QVERIFY(sweptPage->scatter()->chart()->xAxis().log);
    sweptPage->tabs()->setCurrentWidget(sweptPage->scatter());
    saveShot(sweptPage.get(), QStringLiteral("studio_compare_scatter_log.png"));

    // The same values without the sweep behind them: within one decade, a linear axis.
    auto handPage = loadedPage(ws, handMade);
    QVERIFY(handPage);
    QVERIFY(handPage->comparison()->data.logParams.empty());
    QVERIFY(!handPage->parallel()->plot()->axis(0).log);
    QVERIFY(!handPage->scatter()->chart()->xAxis().log);
  }

  // --- every tab says what to do when it has nothing to show ---

  void emptyStatesSayWhatToDo() {
    tw::ui::ComparePage page;
    page.resize(1000, 700);
    page.show();
    const QString selectRuns = QStringLiteral("Select two or more runs on Runs and press Compare.");
    QCOMPARE(page.curves()->emptyState()->message(), selectRuns);
    QCOMPARE(page.parallel()->emptyState()->message(), selectRuns);
    QCOMPARE(page.scatter()->emptyState()->message(), selectRuns);
    QCOMPARE(page.config()->emptyState()->message(), selectRuns);
    // It covers the view it speaks for.
    QTRY_COMPARE(page.curves()->emptyState()->size(), page.curves()->bandChart()->parentWidget()->size());
    saveShot(&page, QStringLiteral("studio_compare_empty.png"));

    // Runs that share every parameter and never logged the metric chosen.
    tw::test::Workspace ws;
    std::vector<int64_t> ids;
    for (int i = 0; i < 2; ++i) {
      auto run = ws.createRun("same-" + std::to_string(i));
      ids.push_back(run.id);
      ws.setParams(run.id, {{"train.lr", "0.01"}, {"data.batch_size", "64"}});
      ws.store->writeMetrics(run.id, tw::test::trainLossRows(1, 20));
    }
    auto same = loadedPage(ws, ids, QStringLiteral("val/accuracy"));
    QVERIFY(same);
    QVERIFY(same->curves()->emptyState()->message().contains(QStringLiteral("val/accuracy")));
    QVERIFY(same->parallel()->emptyState()->message().contains(QStringLiteral("share every parameter")));
    QVERIFY(same->config()->emptyState()->message().contains(QStringLiteral("Only differences")));
    same->onlyDifferences()->setChecked(false);
    QCOMPARE(same->config()->emptyState()->message(), QString());
    QCOMPARE(same->scatter()->emptyState()->message(), QString());  // shared parameters still place runs

    // Runs with something to show: every message goes.
    SixRuns six;
    auto page6 = loadedPage(six.ws, six.ids);
    QVERIFY(page6);
    QCOMPARE(page6->curves()->emptyState()->message(), QString());
    QCOMPARE(page6->parallel()->emptyState()->message(), QString());
    QCOMPARE(page6->scatter()->emptyState()->message(), QString());
    QCOMPARE(page6->config()->emptyState()->message(), QString());
  }

  // --- every chart of the page exports its picture and its data ---

  void chartsExportPngSvgAndCsv() {
    SixRuns six;
    auto page = loadedPage(six.ws, six.ids, QStringLiteral("train/loss"));
    QVERIFY(page);
    QTemporaryDir out;
    QVERIFY(out.isValid());
    page->tabs()->setCurrentWidget(page->parallel());
    const std::vector<std::pair<QString, QWidget *>> charts = {
        {"curves", page->chart()}, {"parallel", page->parallel()->plot()}, {"scatter", page->scatter()->chart()}};
    for (const auto &[name, chart] : charts) {
      tw::ui::ChartExport *exporter = tw::ui::ChartExport::of(chart);
      QVERIFY2(exporter, qPrintable(name));
      QStringList menu;
      for (QAction *action : chart->actions()) menu << action->text();
      QVERIFY2(menu.contains(QStringLiteral("Export as PNG...")) && menu.contains(QStringLiteral("Export as SVG...")) &&
                   menu.contains(QStringLiteral("Export data as CSV...")),
               qPrintable(name + ": " + menu.join(", ")));
      QCOMPARE(chart->contextMenuPolicy(), Qt::ActionsContextMenu);
      const QString png = out.filePath(name + ".png"), svg = out.filePath(name + ".svg");
      QString error;
      QVERIFY2(exporter->exportPng(png, &error), qPrintable(error));
      const QImage image(png);
      QVERIFY(!image.isNull() && image.width() > 0 && image.height() > 0);
      QVERIFY2(exporter->exportSvg(svg, &error), qPrintable(error));
      QFile svgFile(svg);
      QVERIFY(svgFile.open(QIODevice::ReadOnly));
      QVERIFY(svgFile.readAll().contains("<svg"));
    }

    // Curves: every point of every run, one row each.
    QStringList rows = writtenCsv(page->chart(), out.filePath("curves.csv"));
    QCOMPARE(rows.first(), QStringLiteral("series,step,value"));
    QCOMPARE(rows.size(), 1 + 10 + 10 + 5 + 8 + 10 + 10);
    QVERIFY(rows.contains(QStringLiteral("r1,4,8")));     // 2 * step
    QVERIFY(rows.contains(QStringLiteral("r4,3,1.5")));   // 0.5 * step
    // Parallel coordinates: one row per run, its value on every axis.
    rows = writtenCsv(page->parallel()->plot(), out.filePath("parallel.csv"));
    QCOMPARE(rows.first(), QStringLiteral("name,train.lr,train.optimizer,train.seed,train/loss (final)"));
    QCOMPARE(rows.size(), 7);
    QCOMPARE(rows[2], QStringLiteral("r1,0.001,sgd,2,20"));
    // Scatter: a category by its name.
    page->scatter()->xParam()->setCurrentText(QStringLiteral("train.optimizer"));
    rows = writtenCsv(page->scatter()->chart(), out.filePath("scatter.csv"));
    QCOMPARE(rows.first(), QStringLiteral("label,train.optimizer,train/loss (final)"));
    QCOMPARE(rows.size(), 7);
    QCOMPARE(rows[4], QStringLiteral("r3,sgd,2"));
  }

  // --- two hundred runs: every tab works at that size. The times are a benchmark (printed):
  // building the tabs takes 0.9-1.2 s on a loaded 2-core machine, so "under a second" is no
  // promise a test can keep; the one bound asserted (5 s) catches a pathological slowdown. ---

  void twoHundredRuns() {
    tw::test::Workspace ws;
    std::vector<int64_t> ids;
    const char *lrs[] = {"0.0001", "0.0003", "0.001", "0.003", "0.01"};
    const char *optimizers[] = {"adam", "adamw", "sgd"};
    for (int i = 0; i < 200; ++i) {
      auto run = ws.createRun("sweep-" + std::to_string(i));
      ids.push_back(run.id);
      ws.setParams(run.id, {{"train.lr", lrs[i % 5]},
                            {"train.optimizer", optimizers[i % 3]},
                            {"data.batch_size", std::to_string(32 << (i % 4))},
                            {"data.val_fraction", std::to_string(0.05 * (i % 7))},
                            {"train.epochs", "10"}});
      std::vector<tw::tracking::MetricRow> rows;
      const double rate = 40.0 + 15.0 * (i % 5) + (i % 7);
      for (int64_t step = 1; step <= 2000; ++step)
        rows.push_back({"train/loss", step, 0.2 + 0.05 * (i % 11) + 2.0 * std::exp(-step / rate) + 0.03 * std::sin(step * 0.5 + i),
                        tw::tracking::nowMs()});
      ws.store->writeMetrics(run.id, rows);
    }

    tw::ui::CompareLoader loader;
    QSignalSpy loaded(&loader, &tw::ui::CompareLoader::loaded);
    QElapsedTimer timer;
    timer.start();
    loader.load(QString::fromStdString(ws.dbPath()), ids, QStringLiteral("train/loss"));
    QVERIFY(loaded.wait(60000));
    const qint64 readMs = timer.elapsed();
    const auto data = loaded.takeFirst().at(0).value<tw::ui::CompareData>();
    QCOMPARE(data.runs.size(), size_t(200));

    tw::ui::ComparePage page;
    page.resize(1300, 800);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    timer.restart();
    page.showData(data);
    const qint64 buildMs = timer.elapsed();
    timer.restart();
    page.grab();
    const qint64 paintCurvesMs = timer.elapsed();
    saveShot(&page, QStringLiteral("studio_compare_200_curves.png"));

    QComboBox *groupBy = page.curves()->groupBy();
    timer.restart();
    groupBy->setCurrentIndex(groupBy->findData(QStringLiteral("train.lr")));
    page.grab();
    const qint64 groupMs = timer.elapsed();
    QCOMPARE(page.curves()->bandChart()->bands().size(), size_t(5));
    saveShot(&page, QStringLiteral("studio_compare_200_groups.png"));

    page.tabs()->setCurrentWidget(page.parallel());
    tw::ui::ParallelCoordinates *plot = page.parallel()->plot();
    timer.restart();
    page.grab();
    const qint64 paintParallelMs = timer.elapsed();
    QCOMPARE(plot->axisCount(), 5);  // batch size, validation share, lr, optimizer, metric
    QCOMPARE(plot->lineCount(), 200);
    QCOMPARE(plot->axis(2).title, QStringLiteral("train.lr"));
    QVERIFY(plot->axis(2).log);  // 1e-4 .. 1e-2
    QVERIFY(!plot->axis(0).log);  // batch sizes 32 .. 256: within two orders of magnitude
    timer.restart();
    for (int i = 0; i < 20; ++i)
      sendMouse(plot, QEvent::MouseMove, {plot->axisX(1) + 20 + i * 5, plot->height() / 2.0}, Qt::NoButton);
    plot->grab();
    const qint64 hoverMs = timer.elapsed();
    timer.restart();
    plot->setBrush(2, 0.0005, 0.002);  // lr 0.001 only; every line drawn again, as while dragging
    plot->grab();
    const qint64 brushMs = timer.elapsed();
    QCOMPARE(plot->selectedLines().size(), size_t(40));
    saveShot(&page, QStringLiteral("studio_compare_200_parallel.png"));

    page.tabs()->setCurrentWidget(page.scatter());
    timer.restart();
    page.scatter()->xParam()->setCurrentText(QStringLiteral("data.val_fraction"));
    page.grab();
    const qint64 scatterMs = timer.elapsed();
    QCOMPARE(page.scatter()->chart()->drawnPoints().size(), 200);
    saveShot(&page, QStringLiteral("studio_compare_200_scatter.png"));

    qInfo("200 runs x 2000 steps: read %lld ms (worker thread); build tabs %lld ms; paint curves %lld ms; "
          "group by + paint %lld ms; paint parallel %lld ms; 20 hovers + paint %lld ms; brush + paint %lld ms; "
          "scatter %lld ms",
          readMs, buildMs, paintCurvesMs, groupMs, paintParallelMs, hoverMs, brushMs, scatterMs);
    QVERIFY2(buildMs < 5000, qPrintable(QStringLiteral("building the tabs took %1 ms").arg(buildMs)));
  }
};

QTEST_MAIN(TestStudioCompare)
#include "test_studio_compare.moc"
