// Fault injection: a full disk. Training, export and `pack` write into a small tmpfs that the
// test fills to the last byte at a chosen moment; each must fail with the system's "No space left
// on device" naming the file it could not write, leave no partial file behind, keep the tracking
// database sound (PRAGMA integrity_check) and lose nothing recorded: a run is FAILED with that
// reason, and its last good checkpoint still resumes the run to the end once space is freed.
// Two places fill up for training: the run folders alone (the database elsewhere), and the whole
// workspace, database included, where recording the failure needs the store's reserve
// (tracking/store.h). Mounting needs root; not root, the program re-runs itself in a user
// namespace that maps it to root (main()), and where neither is possible each test is skipped
// saying why. tests/reliability/README.md reports the scenarios.

#include "fault_helpers.h"

#include "tracking/store.h"

#include <QCoreApplication>
#include <QDirIterator>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <vector>

using tw::faults::SmallDisk;
using tw::tracking::RunStatus;

using tw::faults::CliOutcome;
using tw::faults::kCli;
using tw::faults::runCli;

namespace {

QStringList filesUnder(const QString &folder) {
  QStringList found;
  QDirIterator it(folder, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
  while (it.hasNext()) found << it.next();
  return found;
}

}  // namespace

class TestDiskFull : public QObject {
  Q_OBJECT

  QTemporaryDir m_dir;

  QString writeRunFile(int epochs) {
    const QString file = m_dir.path() + "/run.yaml";
    QFile out(file);
    if (out.open(QIODevice::WriteOnly)) out.write(tw::faults::tinyRunFile(epochs));
    return file;
  }

  // Trains into `ws` and fills `disk` once the run's first checkpoint is written, with the worker
  // stopped meanwhile, so that its next write of any kind meets a full disk. Returns the launcher's
  // exit code and output.
  CliOutcome trainUntilFull(const QString &ws, const SmallDisk &disk, const QString &name, qint64 *filled) {
    QProcess launcher;
    launcher.start(kCli, {"train", writeRunFile(40), "--workspace", ws, "--set", "tracking.run_name=" + name});
    if (!launcher.waitForStarted()) return {};
    QString checkpoint;
    QElapsedTimer waited;
    waited.start();
    while (checkpoint.isEmpty() && waited.elapsed() < 60000 && launcher.state() == QProcess::Running) {
      launcher.waitForFinished(10);
      for (const QString &file : filesUnder(ws + "/runs"))
        if (file.endsWith("/checkpoints/last.pt")) checkpoint = file;
    }
    const pid_t worker = tw::faults::workerOf(launcher.processId());
    if (!checkpoint.isEmpty() && worker > 0) {
      ::kill(worker, SIGSTOP);
      *filled = disk.fill();
      ::kill(worker, SIGCONT);
    }
    launcher.waitForFinished(120000);
    return {launcher.exitStatus() == QProcess::NormalExit ? launcher.exitCode() : -1,
            QString::fromUtf8(launcher.readAllStandardOutput() + launcher.readAllStandardError())};
  }

  // What both training cases assert once the disk has filled under the run.
  void checkFailedRun(const QString &ws, const SmallDisk &disk, const CliOutcome &failed, const QString &name) {
    QVERIFY2(failed.exitCode == 1, qPrintable(failed.output));
    QVERIFY2(failed.output.contains("No space left on device"), qPrintable(failed.output));
    QCOMPARE(tw::faults::integrity(ws + "/tracking.db"), std::string("ok"));
    auto run = tw::tracking::Store::open((ws + "/tracking.db").toStdString())->findRun(name.toStdString());
    QVERIFY(run.has_value());
    QCOMPARE(run->status, RunStatus::Failed);
    const QString reason = QString::fromStdString(run->statusMessage);
    QVERIFY2(reason.contains("No space left on device") && reason.contains(QString::fromStdString(run->runDir)),
             qPrintable(reason));
    for (const QString &file : filesUnder(QString::fromStdString(run->runDir)))
      QVERIFY2(!file.contains(".tmp-"), qPrintable(file + " was left behind"));

    // The last good checkpoint is whole: with space again, the run resumes from it to the end.
    disk.unfill();
    const CliOutcome resumed = runCli({"train", "--resume", name, "--workspace", ws});
    QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.output));
    QVERIFY2(resumed.output.contains("resumed from"), qPrintable(resumed.output));
    run = tw::tracking::Store::open((ws + "/tracking.db").toStdString())->findRun(name.toStdString());
    QCOMPARE(run->status, RunStatus::Finished);
    QCOMPARE(tw::faults::integrity(ws + "/tracking.db"), std::string("ok"));
  }

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(m_dir.isValid());
    SmallDisk probe(m_dir.path() + "/probe", 1 << 20);
    if (!probe.mounted())
      QSKIP(qPrintable("cannot mount a size-limited tmpfs here (" + probe.error() +
                       "): not root, and no user namespace that maps this user to root (unshare --user "
                       "--map-root-user --mount) was possible"));
  }

  // The run folders on a disk of their own, the database on another: the checkpoint save fails.
  void trainingIntoAFullRunFolder() {
    const QString ws = m_dir.path() + "/ws-runs";
    SmallDisk disk(ws + "/runs", 64 << 20);
    QVERIFY(disk.mounted());
    qint64 filled = 0;
    const CliOutcome failed = trainUntilFull(ws, disk, "runs-full", &filled);
    QVERIFY2(filled > 0, qPrintable("the disk was never filled: " + failed.output));
    qInfo("run folder filled with %lld bytes mid-run", static_cast<long long>(filled));
    checkFailedRun(ws, disk, failed, "runs-full");
  }

  // The whole workspace, database included: metrics, heartbeats and the failure itself all meet a
  // full disk; the failure is recorded through the store's reserve, which the resume makes again.
  void trainingIntoAFullWorkspace() {
    const QString ws = m_dir.path() + "/ws-whole";
    SmallDisk disk(ws, 64 << 20);
    QVERIFY(disk.mounted());
    qint64 filled = 0;
    const CliOutcome failed = trainUntilFull(ws, disk, "all-full", &filled);
    QVERIFY2(filled > 0, qPrintable("the disk was never filled: " + failed.output));
    // Whether the FAILED row needed the reserve depends on whether SQLite still had a free page
    // when the disk filled (a WAL it may reuse); the store's own slot below always needs it.
    checkFailedRun(ws, disk, failed, "all-full");
    QCOMPARE(QFileInfo(ws + "/tracking.db-reserve").size(), qint64(tw::tracking::Store::kReserveBytes));
  }

  // The database's disk filled to the last byte under a running run: writes fail with SQLite's
  // "database or disk is full", and the ended status is still recorded, by spending the reserve.
  void aFullDatabaseDiskSpendsTheReserve() {
    const QString folder = m_dir.path() + "/db-full";
    SmallDisk disk(folder, 4 << 20);
    QVERIFY(disk.mounted());
    const std::string path = (folder + "/tracking.db").toStdString();
    auto store = tw::tracking::Store::open(path);
    const auto run = store->createRun({});
    store->setStatus(run.id, RunStatus::Running);
    QVERIFY(QFile::exists(QString::fromStdString(store->reservePath())));
    QVERIFY(disk.fill() > 0);
    bool full = false;
    for (int i = 0; i < 10000 && !full; ++i) {
      try {
        store->setTag(run.id, "filler." + std::to_string(i), std::string(4096, 'x'));
      } catch (const tw::tracking::TrackingError &e) {
        full = std::string(e.what()).find("full") != std::string::npos;
        QVERIFY2(full, e.what());
      }
    }
    QVERIFY2(full, "the database never met the full disk");
    store->setStatus(run.id, RunStatus::Failed, "No space left on device");
    QCOMPARE(store->run(run.id)->status, RunStatus::Failed);
    QVERIFY(!QFile::exists(QString::fromStdString(store->reservePath())));
    store.reset();
    QCOMPARE(tw::faults::integrity(folder + "/tracking.db"), std::string("ok"));
  }

  void exportIntoAFullDisk() {
    const QString ws = m_dir.path() + "/ws-export";
    const CliOutcome trained =
        runCli({"train", writeRunFile(1), "--workspace", ws, "--set", "tracking.run_name=exported"});
    QVERIFY2(trained.exitCode == 0, qPrintable(trained.output));
    SmallDisk disk(m_dir.path() + "/export-full", 1 << 20);
    QVERIFY(disk.mounted());
    QVERIFY(disk.fill() > 0);
    auto store = tw::tracking::Store::open((ws + "/tracking.db").toStdString());
    const auto run = *store->findRun("exported");
    const size_t artifactsBefore = store->artifacts(run.id).size();
    for (const QString &format : {QStringLiteral("torchscript"), QStringLiteral("onnx")}) {
      const QString out = m_dir.path() + "/export-full/model." + format;
      const CliOutcome failed = runCli({"export", "exported", "--format", format, "--out", out, "--workspace", ws});
      QVERIFY2(failed.exitCode == 1, qPrintable(failed.output));
      QVERIFY2(failed.output.contains("No space left on device") && failed.output.contains(out), qPrintable(failed.output));
      QCOMPARE(filesUnder(m_dir.path() + "/export-full"), QStringList{m_dir.path() + "/export-full/filler"});
    }
    QCOMPARE(store->artifacts(run.id).size(), artifactsBefore);
    QCOMPARE(tw::faults::integrity(ws + "/tracking.db"), std::string("ok"));
  }

  // Room for a few shards of 1 MB, not for all: the shard being written fails, and the pack's
  // folder goes with the shards before it.
  void packIntoAFullDisk() {
    const QString full = m_dir.path() + "/pack-full";
    SmallDisk disk(full, 3 << 20);
    QVERIFY(disk.mounted());
    const CliOutcome failed = runCli({"pack", "fashion-mnist", full + "/packed", "--shard-mb", "1", "--set",
                                   "data.train_limit=20000"});
    QVERIFY2(failed.exitCode == 1, qPrintable(failed.output));
    QVERIFY2(failed.output.contains("No space left on device") && failed.output.contains(full + "/packed/train-"),
             qPrintable(failed.output));
    QVERIFY2(QDir(full).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden).isEmpty(),
             qPrintable(QDir(full).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).join(", ")));
  }
};

int main(int argc, char **argv) {
  // Not root: the same program again in a user namespace where it is, so that it may mount a
  // tmpfs. Only when such a namespace can be made; otherwise initTestCase skips, saying why.
  if (::geteuid() != 0 && !std::getenv("TW_DISK_FULL_NAMESPACE") &&
      std::system("unshare --user --map-root-user --mount true >/dev/null 2>&1") == 0) {
    ::setenv("TW_DISK_FULL_NAMESPACE", "1", 1);
    std::vector<char *> args{const_cast<char *>("unshare"), const_cast<char *>("--user"),
                             const_cast<char *>("--map-root-user"), const_cast<char *>("--mount")};
    for (int i = 0; i < argc; ++i) args.push_back(argv[i]);
    args.push_back(nullptr);
    ::execvp("unshare", args.data());
  }
  QCoreApplication app(argc, argv);
  TestDiskFull test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_disk_full.moc"
