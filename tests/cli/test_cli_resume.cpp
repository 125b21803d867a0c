// Exact resume: a run killed with SIGKILL at random steps, several times, and resumed each time
// ends with weights bit-identical to an uninterrupted run, and its metric history has no gaps
// and no duplicates. Real CLI, real workers, real Fashion-MNIST images.

#include "cli_runner.h"

#include "tracking/history_compare.h"
#include "tracking/store.h"

#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

#include <signal.h>

using tw::tracking::RunStatus;

namespace {

// Batch norm (buffers), dropout (the global RNG), augmentation (its own stream) and Adam (state):
// everything that can make a resumed run drift is in here.
const char *kRunFile = R"(model:
  name: small_cnn
  nodes:
    - {id: image, op: Input, shape: [1, 28, 28]}
    - {id: conv, op: Conv2d, out_channels: 16, kernel_size: 3, padding: 1}
    - {id: bn, op: BatchNorm2d}
    - {id: relu, op: ReLU}
    - {id: pool, op: MaxPool2d, kernel_size: 2}
    - {id: flat, op: Flatten}
    - {id: drop, op: Dropout, p: 0.2}
    - {id: logits, op: Linear, out_features: 10}
data: {dataset: fashion-mnist, train_limit: 3000, test_limit: 500, batch_size: 50, flip: 0.5, crop_padding: 2}
train: {optimizer: adam, lr: 0.002, epochs: 4, seed: 11, threads: 1, checkpoint_every: 5, schedule: cosine,
        warmup_steps: 10}
tracking: {experiment: resume}
)";

// One workspace per test: no test reads what another recorded.
class Workspace {
 public:
  QString path() const { return m_dir.path() + "/ws"; }
  std::unique_ptr<tw::tracking::Store> store() const {
    return tw::tracking::Store::open((path() + "/tracking.db").toStdString());
  }
  QString runFile() const {
    const QString file = m_dir.path() + "/run.yaml";
    QFile out(file);
    if (out.open(QIODevice::WriteOnly)) out.write(kRunFile);
    return file;
  }
  size_t lossPoints(const char *name) const {
    auto run = store()->findRun(name);
    return run ? store()->metricPoints(run->id, "train/loss").size() : 0;
  }
  // Kills the workspace's one worker with SIGKILL; false when none is running.
  bool killWorker() const {
    QProcess pgrep;
    pgrep.start("pgrep", {"-f", "torchwright-worker --workspace " + path()});
    pgrep.waitForFinished();
    const QStringList pids = QString::fromUtf8(pgrep.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
    return pids.size() == 1 && ::kill(pids[0].toInt(), SIGKILL) == 0;
  }
  // A short finished run (one epoch on 600 images) for the tests that need one.
  CliResult trainShort(const QString &name) const {
    return runCli({"train", runFile(), "--workspace", path(), "--set", "tracking.run_name=" + name, "--set",
                   "train.epochs=1", "--set", "data.train_limit=600"});
  }

 private:
  QTemporaryDir m_dir;
};

}  // namespace

class TestCliResume : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void killedAndResumedRunEndsBitIdentical() {
    Workspace ws;
    const QString file = ws.runFile();
    auto straight = runCli({"train", file, "--workspace", ws.path(), "--set", "tracking.run_name=straight"});
    QVERIFY2(straight.exitCode == 0, qPrintable(straight.all()));
    const int64_t totalSteps = static_cast<int64_t>(ws.lossPoints("straight"));
    QCOMPARE(totalSteps, int64_t(4 * 54));  // 2,700 training images in batches of 50

    // Three kills at random steps, one in each third of steps 10..190, at least 30 steps apart:
    // a resumed run rewrites the steps after its checkpoint, so the count of recorded steps
    // passes the next kill point only once the resumed worker has trained beyond the last one.
    // The seed is printed so that a failure can be replayed.
    const quint32 seed = QRandomGenerator::global()->generate();
    qInfo("kill points drawn with seed %u", seed);
    QRandomGenerator random(seed);
    QList<int> killAt;
    for (int i = 0; i < 3; ++i) killAt.append(10 + 60 * i + random.bounded(30));

    QList<size_t> killedAt;
    QProcess cli;
    cli.start(TW_BIN_DIR "/torchwright", {"train", file, "--workspace", ws.path(), "--set", "tracking.run_name=victim"});
    for (int at : killAt) {
      QVERIFY(cli.waitForStarted());
      QTRY_VERIFY_WITH_TIMEOUT(ws.lossPoints("victim") >= size_t(at) || cli.state() == QProcess::NotRunning, 120000);
      QVERIFY2(cli.state() == QProcess::Running,
               qPrintable(QString("the run ended before step %1: %2").arg(at).arg(cli.readAllStandardError())));
      QVERIFY2(ws.killWorker(), qPrintable(QString("no single worker to kill at step %1").arg(at)));
      killedAt.append(ws.lossPoints("victim"));
      QVERIFY(cli.waitForFinished(60000));
      QCOMPARE(cli.exitCode(), 1);
      auto run = ws.store()->findRun("victim");
      QCOMPARE(run->status, RunStatus::Failed);
      QVERIFY2(QString::fromStdString(run->statusMessage).contains("--resume"), run->statusMessage.c_str());
      QVERIFY2(int64_t(killedAt.last()) < totalSteps, "killed after the last step");
      cli.start(TW_BIN_DIR "/torchwright", {"train", "--resume", "victim", "--workspace", ws.path()});
    }
    QVERIFY(cli.waitForFinished(120000));
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
    qInfo("killed 3 times, with %zu, %zu and %zu steps recorded", killedAt[0], killedAt[1], killedAt[2]);
    QVERIFY(killedAt[0] < killedAt[1] && killedAt[1] < killedAt[2]);

    auto db = ws.store();
    const auto a = *db->findRun("straight");
    const auto b = *db->findRun("victim");
    QCOMPARE(b.status, RunStatus::Finished);
    QVERIFY(!db->tags(a.id).at("weights_sha256").empty());
    QCOMPARE(db->tags(b.id).at("weights_sha256"), db->tags(a.id).at("weights_sha256"));
    // No gaps, no duplicates: every step exactly once.
    const auto points = db->metricPoints(b.id, "train/loss");
    QCOMPARE(int64_t(points.size()), totalSteps);
    for (size_t i = 0; i < points.size(); ++i) QCOMPARE(points[i].step, int64_t(i + 1));
    const auto comparison = tw::tracking::compareHistories(*db, a.id, b.id);
    QVERIFY2(comparison.identical, comparison.firstDifference.c_str());
    QVERIFY(comparison.seriesCompared > 10);  // losses, lr, val metrics, per-layer norms, test metrics
  }

  // A streamed image folder: killed mid-run, resumed with other decode threads and no cache, the
  // run ends with the weights of one trained straight through. A resume refuses a setting that
  // would change what is trained.
  void streamedFolderResumesWithOtherWorkers() {
    Workspace ws;
    QTemporaryDir tmp;
    const QString images = tmp.path() + "/shapes";
    const CliResult drawn = runCli({"demo-images", images, "--per-class", "100", "--size", "32"});
    QVERIFY2(drawn.exitCode == 0, qPrintable(drawn.all()));
    const QString file = tmp.path() + "/folder.run.yaml";
    {
      QFile out(file);
      QVERIFY(out.open(QIODevice::WriteOnly));
      out.write(QString("model:\n  nodes:\n    - {id: x, op: Input, shape: [3, 32, 32]}\n"
                        "    - {id: c, op: Conv2d, out_channels: 8, kernel_size: 3, padding: 1}\n"
                        "    - {id: bn, op: BatchNorm2d}\n    - {id: r, op: ReLU}\n"
                        "    - {id: p, op: MaxPool2d, kernel_size: 4}\n    - {id: f, op: Flatten}\n"
                        "    - {id: out, op: Linear, out_features: 3}\n"
                        "data: {dataset: image-folder, path: '%1', batch_size: 10, flip: 0.5, workers: 1}\n"
                        "train: {epochs: 20, lr: 0.003, seed: 9, threads: 1, checkpoint_every: 5, log_every: 1}\n")
                    .arg(images)
                    .toUtf8());
    }
    const CliResult straight = runCli({"train", file, "--workspace", ws.path(), "--set", "tracking.run_name=straight"});
    QVERIFY2(straight.exitCode == 0, qPrintable(straight.all()));

    QProcess cli;
    cli.start(TW_BIN_DIR "/torchwright", {"train", file, "--workspace", ws.path(), "--set", "tracking.run_name=victim"});
    QVERIFY(cli.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(ws.lossPoints("victim") >= 40 || cli.state() == QProcess::NotRunning, 60000);
    QVERIFY2(cli.state() == QProcess::Running, "the run ended before it could be killed");
    QVERIFY(ws.killWorker());
    QVERIFY(cli.waitForFinished(60000));
    QCOMPARE(cli.exitCode(), 1);

    const CliResult refused = runCli({"train", "--resume", "victim", "--set", "train.lr=0.1", "--workspace", ws.path()});
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.contains("train.lr") && refused.err.contains("data.workers"), qPrintable(refused.all()));

    const CliResult resumed = runCli({"train", "--resume", "victim", "--set", "data.workers=3", "--set",
                                      "data.cache=none", "--workspace", ws.path()});
    QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.all()));
    QVERIFY2(resumed.all().contains("resumed with data.workers=3"), qPrintable(resumed.all()));
    auto db = ws.store();
    const auto a = *db->findRun("straight");
    const auto b = *db->findRun("victim");
    QCOMPARE(b.status, RunStatus::Finished);
    QCOMPARE(db->tags(b.id).at("weights_sha256"), db->tags(a.id).at("weights_sha256"));
  }

  void resumeRefusesAFinishedRun() {
    Workspace ws;
    auto trained = ws.trainShort("done");
    QVERIFY2(trained.exitCode == 0, qPrintable(trained.all()));
    auto r = runCli({"train", "--resume", "done", "--workspace", ws.path()});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("is FINISHED; nothing to resume"), qPrintable(r.err));
    auto unknown = runCli({"train", "--resume", "nosuchrun", "--workspace", ws.path()});
    QCOMPARE(unknown.exitCode, 1);
    QVERIFY2(unknown.err.contains("no run matches 'nosuchrun'"), qPrintable(unknown.err));
  }

  void reproduceReportsAnIdenticalHistory() {
    Workspace ws;
    auto trained = ws.trainShort("original");
    QVERIFY2(trained.exitCode == 0, qPrintable(trained.all()));
    auto r = runCli({"reproduce", "original", "--workspace", ws.path()});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    QVERIFY2(r.out.contains("reproduced:"), qPrintable(r.out));
    auto db = ws.store();
    const auto repro = db->findRun("original-repro");
    QVERIFY(repro.has_value());
    QCOMPARE(db->tags(repro->id).at("reproduces"), db->findRun("original")->uuid);
    QCOMPARE(db->tags(repro->id).at("reproduction"), std::string("identical"));
  }

  // Studio's Reproduce: `reproduce RUN --detach` returns as soon as the new run is recorded, which
  // then trains in the background, finishes, and records the verdict as `reproduce` would.
  void detachedReproduceReturnsAndFinishes() {
    Workspace ws;
    auto trained = ws.trainShort("original");
    QVERIFY2(trained.exitCode == 0, qPrintable(trained.all()));
    auto r = runCli({"reproduce", "original", "--detach", "--workspace", ws.path()});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    QVERIFY2(r.out.contains("in the background"), qPrintable(r.out));
    auto repro = ws.store()->findRun("original-repro");
    QVERIFY(repro.has_value());
    // Returned before training ended: the run is recorded and not yet finished.
    QVERIFY(repro->status != RunStatus::Finished);
    QCOMPARE(ws.store()->tags(repro->id).at("reproduces"), ws.store()->findRun("original")->uuid);
    QTRY_COMPARE_WITH_TIMEOUT(ws.store()->run(repro->id)->status, RunStatus::Finished, 120000);
    QTRY_VERIFY_WITH_TIMEOUT(ws.store()->tags(repro->id).count("reproduction") == 1, 30000);
    QCOMPARE(ws.store()->tags(repro->id).at("reproduction"), std::string("identical"));
    QFile log(QString::fromStdString(repro->runDir) + "/artifacts/launcher.log");
    QVERIFY(log.open(QIODevice::ReadOnly));
    QVERIFY2(log.readAll().contains("reproduced:"), "the verdict is in the run's launcher.log");
  }
};

QTEST_GUILESS_MAIN(TestCliResume)
#include "test_cli_resume.moc"
