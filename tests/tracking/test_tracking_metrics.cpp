// The tracking store's metric tables against a real SQLite file: incremental reads after a
// step and with a limit, the latest-value table, replacement of repeated steps, non-finite
// values, system metrics, and writes about runs that do not exist.

#include "tracking_fixture.h"

#include "tracking/store.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace tracking_test;
using tw::tracking::MetricRow;
using tw::tracking::RunRecord;
using tw::tracking::RunStatus;
using tw::tracking::Store;
using tw::tracking::TrackingError;

class TestTrackingMetrics : public QObject {
  Q_OBJECT

  QTemporaryDir *m_dir = nullptr;
  std::string m_path;

 private Q_SLOTS:
  void init() {
    m_dir = new QTemporaryDir;
    QVERIFY(m_dir->isValid());
    m_path = tracking_test::freshStore(*m_dir);
    if (m_path.empty()) QSKIP(qPrintable(tracking_test::skipReason()));
  }
  void cleanup() {
    delete m_dir;
    m_dir = nullptr;
  }

  void writesAboutMissingRunsFail() {
    auto store = Store::open(m_path);
    try {
      store->setStatus(999, RunStatus::Running);
      QFAIL("setStatus on a missing run did not throw");
    } catch (const TrackingError &e) {
      QVERIFY2(std::string(e.what()).find("no run with id 999") != std::string::npos, e.what());
    }
    try {
      store->writeMetrics(999, series("loss", 0, 3));
      QFAIL("writeMetrics on a missing run did not throw");
    } catch (const TrackingError &e) {
      const std::string what = e.what();
      QVERIFY2(what.find("writing metrics of run 999") != std::string::npos, e.what());
    }
    QVERIFY(!store->run(999));
    // The failed batch interned nothing that a later batch could trust wrongly.
    RunRecord run = store->createRun(newRun("e"));
    store->writeMetrics(run.id, series("loss", 0, 3));
    QCOMPARE(store->metricPoints(run.id, "loss").size(), size_t(4));
  }

  void metricPointsAfterStepAndLimit() {
    auto store = Store::open(m_path);
    RunRecord run = store->createRun(newRun("e"));
    RunRecord other = store->createRun(newRun("e"));
    // Interleaved like a trainer logs them: the store sorts the batch itself.
    std::vector<MetricRow> rows;
    for (int64_t step = 99; step >= 0; --step) {
      rows.push_back({"train/loss", step, 1.0 / double(step + 1), 1000 + step});
      rows.push_back({"val/acc", step, double(step) / 100.0, 1000 + step});
    }
    store->writeMetrics(run.id, rows);
    store->writeMetrics(other.id, series("train/loss", 0, 500));

    auto all = store->metricPoints(run.id, "train/loss");
    QCOMPARE(all.size(), size_t(100));
    for (size_t i = 0; i < all.size(); ++i) QCOMPARE(all[i].step, int64_t(i));
    QCOMPARE(all[3].value, 0.25);
    QCOMPARE(all[3].timeMs, int64_t(1003));

    auto after = store->metricPoints(run.id, "train/loss", 49);
    QCOMPARE(after.size(), size_t(50));
    QCOMPARE(after.front().step, int64_t(50));
    QCOMPARE(after.back().step, int64_t(99));

    auto limited = store->metricPoints(run.id, "val/acc", 49, 10);
    QCOMPARE(limited.size(), size_t(10));
    QCOMPARE(limited.front().step, int64_t(50));
    QCOMPARE(limited.back().step, int64_t(59));
    QCOMPARE(limited.back().value, 0.59);

    QVERIFY(store->metricPoints(run.id, "train/loss", 99).empty());
    QVERIFY(store->metricPoints(run.id, "no/such/key").empty());
    QVERIFY((store->metricKeys(run.id) == std::vector<std::string>{"train/loss", "val/acc"}));
    QVERIFY((store->metricKeys(other.id) == std::vector<std::string>{"train/loss"}));
  }

  void latestMetricsKeepTheHighestStep() {
    auto store = Store::open(m_path);
    RunRecord run = store->createRun(newRun("e"));
    store->writeMetrics(run.id, series("loss", 0, 20));
    store->writeMetrics(run.id, series("acc", 0, 5));
    auto latest = store->latestMetrics(run.id);
    QCOMPARE(latest.size(), size_t(2));
    QCOMPARE(latest[0].key, std::string("acc"));
    QCOMPARE(latest[0].step, int64_t(5));
    QCOMPARE(latest[1].key, std::string("loss"));
    QCOMPARE(latest[1].step, int64_t(20));
    QCOMPARE(latest[1].value, 20.0);

    // A resumed run going back to step 10 rewrites those steps but not the latest row...
    store->writeMetrics(run.id, series("loss", 10, 12, 1000.0));
    QCOMPARE(store->latestMetrics(run.id)[1].step, int64_t(20));
    QCOMPARE(store->latestMetrics(run.id)[1].value, 20.0);
    // ...until it logs the highest step again, which replaces it.
    store->writeMetrics(run.id, {{"loss", 20, 7.5, 0}});
    QCOMPARE(store->latestMetrics(run.id)[1].value, 7.5);
    store->writeMetrics(run.id, {{"loss", 21, 8.5, 0}});
    QCOMPARE(store->latestMetrics(run.id)[1].step, int64_t(21));
  }

  void repeatedStepReplacesInsteadOfDuplicating() {
    auto store = Store::open(m_path);
    RunRecord run = store->createRun(newRun("e"));
    store->writeMetrics(run.id, series("loss", 0, 9));
    store->writeMetrics(run.id, series("loss", 5, 14, 100.0));
    // Within one batch too, and the row logged last wins.
    store->writeMetrics(run.id, {{"loss", 3, -1.0, 0}, {"loss", 3, -2.0, 0}});
    auto points = store->metricPoints(run.id, "loss");
    QCOMPARE(points.size(), size_t(15));
    for (size_t i = 0; i < points.size(); ++i) QCOMPARE(points[i].step, int64_t(i));
    QCOMPARE(points[3].value, -2.0);
    QCOMPARE(points[4].value, 4.0);
    QCOMPARE(points[5].value, 105.0);
    QCOMPARE(queryText(m_path, "SELECT COUNT(*) FROM metrics"), std::string("15"));
  }

  void nonFiniteValuesRoundTrip() {
    auto store = Store::open(m_path);
    RunRecord run = store->createRun(newRun("e"));
    store->writeMetrics(run.id, {{"loss", 0, std::nan(""), 0}, {"loss", 1, INFINITY, 0}});
    auto points = store->metricPoints(run.id, "loss");
    QCOMPARE(points.size(), size_t(2));
    QVERIFY(std::isnan(points[0].value));
    QVERIFY(std::isinf(points[1].value));
  }

  void systemMetricsAfterTime() {
    auto store = Store::open(m_path);
    RunRecord run = store->createRun(newRun("e"));
    store->writeSystemMetrics(run.id, {{"cpu_percent", 0, 1000, 50.0},
                                       {"rss_mb", 0, 1000, 900.0},
                                       {"cpu_percent", 1, 1000, 40.0},
                                       {"cpu_percent", 0, 2000, 75.0}});
    auto all = store->systemMetrics(run.id);
    QCOMPARE(all.size(), size_t(4));
    QCOMPARE(all[0].key, std::string("cpu_percent"));
    QCOMPARE(all[0].rank, 0);
    QCOMPARE(all[1].rank, 1);
    QCOMPARE(all[2].key, std::string("rss_mb"));
    auto later = store->systemMetrics(run.id, 1000);
    QCOMPARE(later.size(), size_t(1));
    QCOMPARE(later[0].value, 75.0);
    QCOMPARE(later[0].timeMs, int64_t(2000));
    // System keys share the interning table but are not training metrics.
    QVERIFY(store->metricKeys(run.id).empty());
  }
};

QTEST_GUILESS_MAIN(TestTrackingMetrics)
#include "test_tracking_metrics.moc"
