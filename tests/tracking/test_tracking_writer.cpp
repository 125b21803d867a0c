// MetricWriter against a real file: every queued point arrives, log() stays cheap while the
// thread commits, batches go out on the interval and on maxBatch, the destructor flushes, and
// a failed write keeps its rows for the retry.

#include "tests/tracking/tracking_fixture.h"
#include "tracking/metric_writer.h"
#include "tracking/store.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <thread>

using tw::tracking::MetricWriter;
using tw::tracking::MetricWriterOptions;
using tw::tracking::NewRun;
using tw::tracking::Store;

namespace {

MetricWriterOptions options(int flushIntervalMs, size_t maxBatch = 10000) {
  MetricWriterOptions o;
  o.flushIntervalMs = flushIntervalMs;
  o.maxBatch = maxBatch;
  return o;
}

}  // namespace

class TestTrackingWriter : public QObject {
  Q_OBJECT

  QTemporaryDir *m_dir = nullptr;
  std::string m_path;
  std::unique_ptr<Store> m_store;
  int64_t m_runId = 0;

 private Q_SLOTS:
  void init() {
    m_dir = new QTemporaryDir;
    QVERIFY(m_dir->isValid());
    m_path = tracking_test::freshStore(*m_dir);
    if (m_path.empty()) QSKIP(qPrintable(tracking_test::skipReason()));
    m_store = Store::open(m_path);
    NewRun run;
    run.experiment = "writer";
    m_runId = m_store->createRun(run).id;
  }
  void cleanup() {
    m_store.reset();
    delete m_dir;
    m_dir = nullptr;
  }

  void hundredThousandPointsArriveAndLoggingIsCheap() {
    const std::vector<std::string> keys = {"train/loss", "train/acc", "val/loss", "val/acc", "lr"};
    constexpr int64_t kSteps = 20000;
    MetricWriter writer(m_path, m_runId);
    QElapsedTimer logTimer;
    logTimer.start();
    for (int64_t step = 0; step < kSteps; ++step)
      for (size_t k = 0; k < keys.size(); ++k) writer.log(keys[k], step, double(step) * double(k + 1));
    const qint64 logMs = logTimer.elapsed();
    QElapsedTimer flushTimer;
    flushTimer.start();
    writer.flush();
    const qint64 flushMs = flushTimer.elapsed();
    qInfo("100k log() calls: %lld ms; flush after them: %lld ms", (long long)logMs, (long long)flushMs);
    // Not a benchmark: log() only appends under a mutex, so 100k calls take milliseconds even
    // here, while committing them takes far longer.
    QVERIFY2(logMs < 1000, qPrintable(QString("log() took %1 ms").arg(logMs)));
    QVERIFY2(writer.lastError().empty(), writer.lastError().c_str());

    for (size_t k = 0; k < keys.size(); ++k) {
      auto points = m_store->metricPoints(m_runId, keys[k]);
      QCOMPARE(points.size(), size_t(kSteps));
      for (int64_t step = 0; step < kSteps; ++step) {
        if (points[size_t(step)].step != step || points[size_t(step)].value != double(step) * double(k + 1))
          QFAIL(qPrintable(QString("%1 wrong at step %2").arg(keys[k].c_str()).arg(step)));
      }
      QVERIFY(points.back().timeMs > 0);
    }
    auto latest = m_store->latestMetrics(m_runId);
    QCOMPARE(latest.size(), keys.size());
    for (const auto &metric : latest) QCOMPARE(metric.step, kSteps - 1);
  }

  void flushWithNothingQueuedReturns() {
    MetricWriter writer(m_path, m_runId, options(60000));
    QElapsedTimer timer;
    timer.start();
    writer.flush();
    QVERIFY(timer.elapsed() < 1000);
  }

  void intervalCommitsWithoutFlush() {
    MetricWriter writer(m_path, m_runId, options(20));
    for (int step = 0; step < 5; ++step) writer.log("loss", step, 1.0);
    QTRY_COMPARE_WITH_TIMEOUT(m_store->metricPoints(m_runId, "loss").size(), size_t(5), 5000);
  }

  void fullBatchCommitsBeforeTheInterval() {
    MetricWriter writer(m_path, m_runId, options(600000, 100));
    for (int step = 0; step < 100; ++step) writer.log("loss", step, 1.0);
    QTRY_COMPARE_WITH_TIMEOUT(m_store->metricPoints(m_runId, "loss").size(), size_t(100), 5000);
  }

  void destructorFlushesPromptly() {
    QElapsedTimer timer;
    {
      MetricWriter writer(m_path, m_runId, options(600000));
      for (int step = 0; step < 1000; ++step) writer.log("loss", step, double(step));
      writer.logSystem("rss_mb", 512.0);
      timer.start();
    }
    // The stop wakes the thread; it does not sit out the ten-minute interval.
    QVERIFY(timer.elapsed() < 5000);
    QCOMPARE(m_store->metricPoints(m_runId, "loss").size(), size_t(1000));
    QCOMPARE(m_store->systemMetrics(m_runId).size(), size_t(1));
  }

  void systemMetricsPerRank() {
    MetricWriter writer(m_path, m_runId, options(20));
    writer.logSystem("cpu_percent", 10.0, 0);
    writer.logSystem("cpu_percent", 20.0, 1);
    writer.logSystem("rss_mb", 300.0, 0);
    writer.flush();
    auto rows = m_store->systemMetrics(m_runId);
    QCOMPARE(rows.size(), size_t(3));
    double sum = 0;
    for (const auto &row : rows) sum += row.value;
    QCOMPARE(sum, 330.0);
    QVERIFY(writer.lastError().empty());
  }

  void logFromSeveralThreads() {
    MetricWriter writer(m_path, m_runId, options(10, 1000));
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&writer, t] {
        const std::string key = "thread/" + std::to_string(t);
        for (int step = 0; step < 10000; ++step) writer.log(key, step, double(t));
      });
    }
    for (auto &thread : threads) thread.join();
    writer.flush();
    for (int t = 0; t < 4; ++t)
      QCOMPARE(m_store->metricPoints(m_runId, "thread/" + std::to_string(t)).size(), size_t(10000));
  }

  void retriesWaitTwiceAsLongUpToTheCap() {
    const MetricWriterOptions defaults;
    QCOMPARE(defaults.flushIntervalMs, 250);  // the README's figures
    QCOMPARE(defaults.maxRetryDelayMs, 5000);
    QCOMPARE(tw::tracking::stopRetryDefaultMs("/w/tracking.db"), 1000);
    QCOMPARE(tw::tracking::stopRetryDefaultMs("postgresql://tw@db/runs"), 30000);
    std::vector<int> waits{defaults.flushIntervalMs};
    while (waits.size() < 8) waits.push_back(tw::tracking::nextRetryDelayMs(waits.back(), defaults));
    QCOMPARE(waits, (std::vector<int>{250, 500, 1000, 2000, 4000, 5000, 5000, 5000}));
  }

  void stoppingWriterGivesUpOnlyAfterStopRetryMs() {
    MetricWriterOptions o = options(20);
    o.maxRetryDelayMs = 40;
    o.stopRetryMs = 400;
    QElapsedTimer timer;
    {
      MetricWriter writer(m_path, m_runId + 1000, o);  // a run that never exists: every write fails
      writer.log("loss", 0, 1.0);
      writer.flush();
      QVERIFY(!writer.lastError().empty());
      timer.start();
    }  // the destructor keeps trying, then gives the row up
    QVERIFY2(timer.elapsed() >= 400, qPrintable(QString::number(timer.elapsed())));
  }

  void failedWritesAreKeptAndRetried() {
    // Run ids are assigned in order, so the writer can point at the next run before it exists:
    // every write fails until the run is created, and nothing queued meanwhile may be lost.
    const int64_t futureRun = m_runId + 1;
    MetricWriter writer(m_path, futureRun, options(20));
    for (int step = 0; step < 10; ++step) writer.log("loss", step, double(step));
    QElapsedTimer timer;
    timer.start();
    writer.flush();  // returns on the failure instead of waiting for ever
    QVERIFY(timer.elapsed() < 5000);
    const std::string error = writer.lastError();
    QVERIFY2(error.find("no run with id " + std::to_string(futureRun)) != std::string::npos, error.c_str());

    for (int step = 10; step < 20; ++step) writer.log("loss", step, double(step));
    NewRun run;
    run.experiment = "writer";
    QCOMPARE(m_store->createRun(run).id, futureRun);
    writer.flush();
    QVERIFY2(writer.lastError().empty(), writer.lastError().c_str());
    auto points = m_store->metricPoints(futureRun, "loss");
    QCOMPARE(points.size(), size_t(20));
    for (int step = 0; step < 20; ++step) QCOMPARE(points[size_t(step)].step, int64_t(step));
  }
};

QTEST_GUILESS_MAIN(TestTrackingWriter)
#include "test_tracking_writer.moc"
