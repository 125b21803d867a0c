// Fault injection on the tracking store: a writer process commits numbered metric rows, one
// transaction each, and acknowledges each on stdout after its commit returns; it is killed with
// SIGKILL at a random moment, 200 times, each time with a new run in the same database file. After
// every kill the file passes PRAGMA integrity_check, the run holds exactly the rows 0..k-1 with k
// the acknowledged count (or one more: committed, killed before the acknowledgement reached us),
// and a fresh reader opens the database as Studio's poller does. tests/reliability/README.md
// reports the figures. The program re-launches itself as the writer (--writer, in main()).

#include "fault_helpers.h"
#include "tracking/store.h"

#include <QCoreApplication>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <signal.h>
#include <sqlite3.h>

#include <cstdio>
#include <string>

using tw::tracking::Store;

namespace {

const std::string kKey = "train/loss";
constexpr int kKills = 200;

double valueAt(int64_t step) { return double(step) * 0.25 + 1.0; }

int writerMain(const std::string &db, int64_t runId) {
  auto store = Store::open(db);
  for (int64_t step = 0;; ++step) {
    store->writeMetrics(runId, {{kKey, step, valueAt(step), tw::tracking::nowMs()}});
    std::printf("%lld\n", static_cast<long long>(step));
    std::fflush(stdout);
  }
}

std::string integrity(const std::string &path) { return tw::faults::integrity(QString::fromStdString(path)); }

}  // namespace

class TestStoreKill : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void killedWriterLosesNoAcknowledgedRow() {
    QTemporaryDir dir;
    const std::string db = dir.filePath("tracking.db").toStdString();
    const quint32 seed = QRandomGenerator::global()->generate();
    QRandomGenerator random(seed);
    int64_t acknowledgedTotal = 0, unacknowledgedCommits = 0, lost = 0;
    for (int kill = 0; kill < kKills; ++kill) {
      int64_t runId = 0;
      {
        auto store = Store::open(db);
        tw::tracking::NewRun run;
        run.experiment = "kills";
        runId = store->createRun(run).id;
      }
      QProcess writer;
      writer.start(QCoreApplication::applicationFilePath(),
                   {"--writer", QString::fromStdString(db), QString::number(runId)});
      QVERIFY(writer.waitForStarted());
      // Into its write loop first, then a random moment within the next 40 ms.
      QTRY_VERIFY_WITH_TIMEOUT(writer.canReadLine() || writer.state() != QProcess::Running, 20000);
      QThread::usleep(random.bounded(40000));
      ::kill(static_cast<pid_t>(writer.processId()), SIGKILL);
      QVERIFY(writer.waitForFinished());
      QCOMPARE(writer.exitStatus(), QProcess::CrashExit);
      const QList<QByteArray> lines = writer.readAllStandardOutput().split('\n');
      int64_t acknowledged = 0;
      for (const QByteArray &line : lines)
        if (!line.isEmpty()) ++acknowledged;

      const std::string check = integrity(db);
      QVERIFY2(check == "ok", qPrintable(QString("after kill %1 (seed %2): %3").arg(kill).arg(seed).arg(check.c_str())));
      auto reader = Store::open(db);  // what Studio's poller does on each tick
      QVERIFY(!reader->listRuns().empty());
      const auto points = reader->metricPoints(runId, kKey);
      const auto present = static_cast<int64_t>(points.size());
      for (int64_t step = 0; step < present; ++step)
        QVERIFY2(points[size_t(step)].step == step && points[size_t(step)].value == valueAt(step),
                 qPrintable(QString("kill %1 (seed %2): row %3 out of place").arg(kill).arg(seed).arg(step)));
      QVERIFY2(present == acknowledged || present == acknowledged + 1,
               qPrintable(QString("kill %1 (seed %2): %3 rows acknowledged, %4 present")
                              .arg(kill).arg(seed).arg(acknowledged).arg(present)));
      lost += std::max<int64_t>(0, acknowledged - present);
      acknowledgedTotal += acknowledged;
      unacknowledgedCommits += present - acknowledged;
    }
    qInfo("%d SIGKILLs (seed %u): %lld rows acknowledged, %lld lost, %lld committed without an acknowledgement",
          kKills, seed, static_cast<long long>(acknowledgedTotal), static_cast<long long>(lost),
          static_cast<long long>(unacknowledgedCommits));
    QCOMPARE(lost, int64_t(0));
  }
};

int main(int argc, char **argv) {
  if (argc == 4 && std::string(argv[1]) == "--writer") return writerMain(argv[2], std::stoll(argv[3]));
  QCoreApplication app(argc, argv);
  TestStoreKill test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_store_kill.moc"
