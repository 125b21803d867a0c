// Many processes on one tracking database at once, through the real store and metric writer.
// (a) 32 processes wait on a barrier (each blocks reading its stdin until the test writes "go" to
// all of them) and then open a database that does not exist yet, so that creating the file,
// switching it to WAL and running the migrations race; each records a run, logs numbered metric
// rows through MetricWriter and acknowledges each flushed chunk on stdout. No process may fail,
// no "database is locked" may reach its output (what a user would see), and every run and every
// acknowledged row must be in the file. (b) 8 writers log for some seconds while Studio's own
// poller (ui/workspace/db_poller.h, on its own thread as in Studio) follows every run; the -wal
// file's size is sampled all along and must stay within a bound (see kWalBoundBytes).
// tests/reliability/README.md reports the figures. The program re-launches itself as the
// processes (--record, --log, in main()).

#include "fault_helpers.h"
#include "tracking/metric_writer.h"
#include "tracking/store.h"
#include "ui/workspace/db_poller.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using tw::tracking::MetricWriter;
using tw::tracking::RunStatus;
using tw::tracking::Store;

namespace {

constexpr int kRacers = 32;
constexpr int kRounds = 3;            // fresh databases, so the migrations race three times
constexpr int kRowsPerRacer = 2000;   // over two keys, flushed in chunks of kChunk
constexpr int kChunk = 250;
constexpr int kLoggers = 8;
constexpr int kLogSeconds = 8;
const std::vector<std::string> kKeys = {"train/loss", "train/accuracy", "lr", "grad_norm", "samples_per_s"};

// SQLite checkpoints the WAL back into the database once it passes wal_autocheckpoint pages
// (1,000 by default, 4 MiB with 4 KiB pages) and starts it over from the beginning once every
// frame is copied and no reader still needs them; the file keeps its largest size (no
// journal_size_limit). So a WAL that is checkpointed and restarted stays near 4 MiB plus what the
// writers append while a checkpoint runs. A reader that held a snapshot across polls would stop
// every restart and the file would grow by everything written (tens of MiB in these seconds).
// The bound allows four times the checkpoint threshold.
constexpr qint64 kWalBoundBytes = 16 * 1024 * 1024;

double valueOf(int64_t step, size_t key) { return double(step) * 0.5 + double(key); }

// What a user would see of a lock: SQLite's text for SQLITE_BUSY and SQLITE_LOCKED.
bool mentionsLock(const QString &text) {
  return text.contains("database is locked", Qt::CaseInsensitive) ||
         text.contains("database table is locked", Qt::CaseInsensitive) ||
         text.contains("SQLITE_BUSY", Qt::CaseInsensitive);
}

std::string integrity(const std::string &path) { return tw::faults::integrity(QString::fromStdString(path)); }

qint64 fileSize(const std::string &path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? qint64(st.st_size) : 0;
}

// --record DB: one racer. Says "ready", waits for "go", then opens the (new) database, records a
// run, logs kRowsPerRacer rows and acknowledges each committed chunk: "acked RUN N".
int recordMain(const std::string &db) {
  std::printf("ready\n");
  std::fflush(stdout);
  std::string go;
  if (!std::getline(std::cin, go) || go != "go") return 3;
  try {
    auto store = Store::open(db);
    tw::tracking::NewRun newRun;
    newRun.experiment = "race";
    const auto run = store->createRun(newRun);
    store->setParams(run.id, {{std::string("racer"), std::to_string(::getpid())}});
    store->setStatus(run.id, RunStatus::Running);
    {
      MetricWriter writer(db, run.id);
      for (int64_t step = 0; step < kRowsPerRacer / 2; ++step) {
        for (size_t key = 0; key < 2; ++key) writer.log(kKeys[key], step, valueOf(step, key));
        if ((step + 1) * 2 % kChunk == 0) {
          writer.flush();
          if (!writer.lastError().empty()) {
            std::fprintf(stderr, "flush: %s\n", writer.lastError().c_str());
            return 1;
          }
          std::printf("acked %lld %lld\n", static_cast<long long>(run.id), static_cast<long long>((step + 1) * 2));
          std::fflush(stdout);
        }
      }
    }
    store->setStatus(run.id, RunStatus::Finished);
    return 0;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torchwright: %s\n", e.what());
    return 1;
  }
}

// --log DB RUN SECONDS: one of (b)'s writers, a training loop's rate of logging (five keys a step,
// ~500 steps a second) through MetricWriter; "acked N" after each flush, every 100 steps.
int logMain(const std::string &db, int64_t runId, int seconds) {
  try {
    MetricWriter writer(db, runId);
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    int64_t step = 0;
    while (std::chrono::steady_clock::now() < end) {
      for (size_t key = 0; key < kKeys.size(); ++key) writer.log(kKeys[key], step, valueOf(step, key));
      ++step;
      if (step % 100 == 0) {
        writer.flush();
        if (!writer.lastError().empty()) {
          std::fprintf(stderr, "flush: %s\n", writer.lastError().c_str());
          return 1;
        }
        std::printf("acked %lld\n", static_cast<long long>(step));
        std::fflush(stdout);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    writer.flush();
    if (!writer.lastError().empty()) return 1;
    std::printf("acked %lld\n", static_cast<long long>(step));
    return 0;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torchwright: %s\n", e.what());
    return 1;
  }
}

// The last "acked" line's numbers.
QStringList lastAck(const QString &out) {
  const QStringList lines = out.split('\n', Qt::SkipEmptyParts);
  for (auto line = lines.rbegin(); line != lines.rend(); ++line)
    if (line->startsWith("acked ")) return line->split(' ');
  return {};
}

}  // namespace

class TestStoreConcurrency : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void racersOnAFreshDatabaseLoseNothing() {
    int64_t rows = 0;
    qint64 slowestMs = 0;
    for (int round = 0; round < kRounds; ++round) {
      QTemporaryDir dir;
      const std::string db = dir.filePath("ws/tracking.db").toStdString();
      QVERIFY(QDir().mkpath(dir.filePath("ws")));
      std::vector<std::unique_ptr<QProcess>> racers;
      for (int i = 0; i < kRacers; ++i) {
        auto p = std::make_unique<QProcess>();
        p->start(QCoreApplication::applicationFilePath(), {"--record", QString::fromStdString(db)});
        racers.push_back(std::move(p));
      }
      // Every racer blocked on its stdin before any is let go.
      for (auto &p : racers) {
        QVERIFY(p->waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(p->canReadLine() || p->state() != QProcess::Running, 20000);
        QCOMPARE(p->readLine().trimmed(), QByteArray("ready"));
      }
      QVERIFY2(!QFile::exists(QString::fromStdString(db)), "the database exists before the race");
      QElapsedTimer timer;
      timer.start();
      for (auto &p : racers) p->write("go\n");
      for (auto &p : racers) p->closeWriteChannel();

      std::map<int64_t, int64_t> acknowledged;  // run -> rows
      for (auto &p : racers) {
        QVERIFY(p->state() == QProcess::NotRunning || p->waitForFinished(60000));
        const QString out = QString::fromUtf8(p->readAllStandardOutput());
        const QString err = QString::fromUtf8(p->readAllStandardError());
        QVERIFY2(p->exitStatus() == QProcess::NormalExit && p->exitCode() == 0,
                 qPrintable(QString("round %1: a racer failed: %2").arg(round).arg(err)));
        QVERIFY2(!mentionsLock(out + err), qPrintable(QString("round %1: %2%3").arg(round).arg(out, err)));
        const QStringList ack = lastAck(out);
        QCOMPARE(ack.size(), 3);
        acknowledged[ack[1].toLongLong()] = ack[2].toLongLong();
      }
      slowestMs = std::max(slowestMs, timer.elapsed());
      QCOMPARE(int(acknowledged.size()), kRacers);  // 32 different runs

      QCOMPARE(integrity(db), std::string("ok"));
      auto store = Store::open(db);
      QCOMPARE(store->schemaVersion(), Store::currentSchemaVersion());
      const auto runs = store->listRuns();
      QCOMPARE(int(runs.size()), kRacers);
      for (const auto &run : runs) {
        QVERIFY2(acknowledged.count(run.id), "a run nobody recorded");
        QCOMPARE(run.status, RunStatus::Finished);
        for (size_t key = 0; key < 2; ++key) {
          const auto points = store->metricPoints(run.id, kKeys[key]);
          QCOMPARE(int64_t(points.size()) * 2, acknowledged[run.id]);
          for (size_t i = 0; i < points.size(); ++i)
            QVERIFY(points[i].step == int64_t(i) && points[i].value == valueOf(int64_t(i), key));
        }
        rows += acknowledged[run.id];
      }
    }
    qInfo("%d rounds of %d processes racing on a fresh database: %lld rows acknowledged and present, 0 lost, "
          "0 lock errors shown; slowest round %lld ms",
          kRounds, kRacers, static_cast<long long>(rows), static_cast<long long>(slowestMs));
  }

  void walStaysBoundedWhileStudioPolls() {
    QTemporaryDir dir;
    const std::string db = dir.filePath("tracking.db").toStdString();
    std::vector<int64_t> runIds;
    {
      auto store = Store::open(db);
      for (int i = 0; i < kLoggers; ++i) {
        tw::tracking::NewRun newRun;
        newRun.experiment = "wal";
        const auto run = store->createRun(newRun);
        store->setStatus(run.id, RunStatus::Running);
        runIds.push_back(run.id);
      }
    }

    // Studio's poller as the Runs and Compare pages run it: its own thread and connection, the
    // default interval, every run's curves followed.
    QThread thread;
    QObject context;  // its end drops the poller's signals still queued for the locals below
    auto *poller = new tw::ui::DbPoller(db);
    poller->moveToThread(&thread);
    connect(&thread, &QThread::started, poller, &tw::ui::DbPoller::start);
    connect(&thread, &QThread::finished, poller, &QObject::deleteLater);
    int polls = 0;
    int64_t pointsSeen = 0;
    connect(poller, &tw::ui::DbPoller::polled, &context, [&] { ++polls; });
    connect(poller, &tw::ui::DbPoller::metricsAppended, &context, [&](const tw::ui::MetricsUpdate &update) {
      for (const auto &series : update.series) pointsSeen += int64_t(series.points.size());
    });
    thread.start();
    auto stopPolling = qScopeGuard([&] {
      thread.quit();
      thread.wait();
    });
    QMetaObject::invokeMethod(poller, [poller, runIds] { poller->watchRuns(1, runIds, kKeys); });

    std::vector<std::unique_ptr<QProcess>> loggers;
    for (int64_t runId : runIds) {
      auto p = std::make_unique<QProcess>();
      p->start(QCoreApplication::applicationFilePath(),
               {"--log", QString::fromStdString(db), QString::number(runId), QString::number(kLogSeconds)});
      loggers.push_back(std::move(p));
    }
    const std::string wal = db + "-wal";
    qint64 maxWal = 0;
    int samples = 0;
    auto running = [&] {
      for (auto &p : loggers)
        if (p->state() != QProcess::NotRunning) return true;
      return false;
    };
    QElapsedTimer timer;
    timer.start();
    while (running() && timer.elapsed() < 60000) {
      maxWal = std::max(maxWal, fileSize(wal));
      ++samples;
      QTest::qWait(20);  // the poller's signals are delivered meanwhile
    }
    const int pollsWhileWriting = polls;
    int64_t acknowledged = 0;
    for (size_t i = 0; i < loggers.size(); ++i) {
      auto &p = loggers[i];
      QVERIFY(p->state() == QProcess::NotRunning || p->waitForFinished(10000));
      const QString out = QString::fromUtf8(p->readAllStandardOutput());
      const QString err = QString::fromUtf8(p->readAllStandardError());
      QVERIFY2(p->exitStatus() == QProcess::NormalExit && p->exitCode() == 0, qPrintable(err));
      QVERIFY2(!mentionsLock(out + err), qPrintable(out + err));
      const QStringList ack = lastAck(out);
      QCOMPARE(ack.size(), 2);
      const int64_t steps = ack[1].toLongLong();
      auto store = Store::open(db);
      for (size_t key = 0; key < kKeys.size(); ++key)
        QCOMPARE(int64_t(store->metricPoints(runIds[i], kKeys[key]).size()), steps);
      acknowledged += steps * int64_t(kKeys.size());
    }
    stopPolling.dismiss();
    thread.quit();
    thread.wait();

    qInfo("%d writers for %d s, Studio's poller following every run (%d polls, %lld points read): %lld rows "
          "acknowledged and present; largest -wal file %lld bytes (%d samples, bound %lld)",
          kLoggers, kLogSeconds, pollsWhileWriting, static_cast<long long>(pointsSeen),
          static_cast<long long>(acknowledged), static_cast<long long>(maxWal), samples,
          static_cast<long long>(kWalBoundBytes));
    QVERIFY2(pollsWhileWriting >= kLogSeconds, "the poller did not keep polling while the writers wrote");
    QVERIFY(maxWal > 0);
    QVERIFY2(maxWal <= kWalBoundBytes, qPrintable(QString("the WAL grew to %1 bytes").arg(maxWal)));
    QCOMPARE(integrity(db), std::string("ok"));
  }
};

int main(int argc, char **argv) {
  if (argc == 3 && std::string(argv[1]) == "--record") return recordMain(argv[2]);
  if (argc == 5 && std::string(argv[1]) == "--log") return logMain(argv[2], std::stoll(argv[3]), std::stoi(argv[4]));
  QCoreApplication app(argc, argv);
  TestStoreConcurrency test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_store_concurrency.moc"
