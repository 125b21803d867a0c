// Sharded data parallel (distributed.shard) through the real `torchwright launch`, two ranks over
// Gloo on real Fashion-MNIST images. Sharding the optimiser state (optimizer) trains bit for bit
// what plain data parallel trains, and so does sharding the gradients too (gradients) except with
// train.clip_norm, whose norm each rank then sums from its share (within 1e-6). Each rank keeps
// half the optimiser state of plain data parallel, and sharding gradients half the gradients. The
// shards are rebuilt when unfreezing changes the parameters, and a rank killed while holding its
// shard restarts from the last checkpoint and ends exactly where an uninterrupted run ends.

#include "cli_runner.h"
#include "dist_run_files.h"
#include "saved_weights.h"

#include "tracking/store.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <signal.h>

using tw::tracking::RunStatus;

class TestCliShard : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir m_dir;
  QString workspace() const { return m_dir.path() + "/ws"; }
  std::unique_ptr<tw::tracking::Store> store() const {
    return tw::tracking::Store::open((workspace() + "/tracking.db").toStdString());
  }
  QString writeFile(const QString &name, const QByteArray &text) const {
    return writeTextFile(m_dir.path() + "/" + name, QString::fromUtf8(text));
  }
  tw::tracking::RunRecord run(const QString &name) const { return *store()->findRun(name.toStdString()); }
  std::string digest(const QString &name) const { return store()->tags(run(name).id).at("weights_sha256"); }
  double lastValue(const QString &name, const char *key) const {
    const auto points = store()->metricPoints(run(name).id, key);
    return points.empty() ? -1.0 : points.back().value;
  }
  int64_t lastLossStep(const QString &name) const {
    auto db = store();
    auto found = db->findRun(name.toStdString());
    if (!found) return 0;
    const auto points = db->metricPoints(found->id, "train/loss");
    return points.empty() ? 0 : points.back().step;
  }
  // Launches two ranks; returns false (after saying why) when the run failed.
  bool launch(const QString &file, const QString &name, const QString &shard, const QStringList &sets) const {
    QStringList args{"launch", file, "--nproc-per-node", "2", "--workspace", workspace(), "--set",
                     "tracking.run_name=" + name, "--set", "distributed.shard=" + shard};
    for (const QString &set : sets) args << "--set" << set;
    const CliResult r = runCli(args);
    if (r.exitCode != 0) qWarning("%s", qPrintable(r.all()));
    return r.exitCode == 0;
  }
  std::map<std::string, torch::Tensor> weights(const QString &name) const {
    return loadWeights(run(name).runDir + "/artifacts/model.pt");
  }

 private Q_SLOTS:
  void shardedRanksTrainWhatDataParallelTrains_data() {
    QTest::addColumn<QStringList>("sets");
    QTest::addColumn<bool>("clipsNorm");  // sharding gradients then sums the norm from the shares
    QTest::newRow("adam") << QStringList{} << false;
    QTest::newRow("adamw, accumulation, value clipping")
        << QStringList{"train.optimizer=adamw", "train.weight_decay=0.1", "train.accumulate=2", "train.clip_value=0.01"}
        << false;
    QTest::newRow("rmsprop with momentum") << QStringList{"train.optimizer=rmsprop", "train.momentum=0.5", "train.lr=0.001"}
                                           << false;
    QTest::newRow("sgd with momentum, norm clipping")
        << QStringList{"train.optimizer=sgd", "train.momentum=0.9", "train.lr=0.05", "train.clip_norm=0.5"} << true;
  }
  void shardedRanksTrainWhatDataParallelTrains() {
    QFETCH(QStringList, sets);
    QFETCH(bool, clipsNorm);
    const QString file = writeFile("run.yaml", kRunFile);
    const QString row = QString::fromLatin1(QTest::currentDataTag()).section(',', 0, 0).replace(' ', '-');
    const QString plain = row + "-none", optimizer = row + "-optimizer", gradients = row + "-gradients";
    QVERIFY(launch(file, plain, "none", sets));
    QVERIFY(launch(file, optimizer, "optimizer", sets));
    QVERIFY(launch(file, gradients, "gradients", sets));

    QCOMPARE(digest(optimizer), digest(plain));
    const double worst = largestDifference(weights(plain), weights(gradients));
    qInfo("%s: sharding gradients, largest parameter difference to plain data parallel %g", qPrintable(row), worst);
    if (clipsNorm) QVERIFY2(worst < 1e-6, qPrintable(QString::number(worst)));
    else QCOMPARE(digest(gradients), digest(plain));
    // Every step's loss over the whole batch, as plain data parallel logs it.
    const auto a = store()->metricPoints(run(plain).id, "train/loss"), b = store()->metricPoints(run(gradients).id, "train/loss");
    QCOMPARE(b.size(), a.size());
    QVERIFY(!a.empty());
    for (size_t i = 0; i < a.size(); ++i) QVERIFY2(std::abs(a[i].value - b[i].value) < 1e-6, qPrintable(QString::number(i)));
    // Per-layer gradient norms, which no rank holds whole when sharding gradients.
    const double gradNorm = lastValue(plain, "grad_norm/fc1.weight");
    QVERIFY(gradNorm > 0.0);
    QVERIFY2(std::abs(lastValue(gradients, "grad_norm/fc1.weight") - gradNorm) < 1e-5 * gradNorm,
             qPrintable(QString::number(lastValue(gradients, "grad_norm/fc1.weight"))));

    // Each rank's memory: half the state (a chunk is rounded up by under one element per bucket).
    const double state = lastValue(plain, "dist/optimizer_state_mib"), grads = lastValue(plain, "dist/gradient_mib");
    qInfo("optimiser state per rank %.4f MiB plain, %.4f sharded; gradients %.4f MiB plain, %.4f sharded", state,
          lastValue(optimizer, "dist/optimizer_state_mib"), grads, lastValue(gradients, "dist/gradient_mib"));
    QVERIFY(state > 0.0 && grads > 0.0);
    for (const QString &sharded : {optimizer, gradients}) {
      const double share = lastValue(sharded, "dist/optimizer_state_mib") / state;
      QVERIFY2(share >= 0.5 && share < 0.5001, qPrintable(sharded + ": " + QString::number(share)));
    }
    QCOMPARE(lastValue(optimizer, "dist/gradient_mib"), grads);  // every rank sums whole gradients
    const double gradientShare = lastValue(gradients, "dist/gradient_mib") / grads;
    QVERIFY2(gradientShare >= 0.5 && gradientShare < 0.5001, qPrintable(QString::number(gradientShare)));
  }

  // A frozen layer unfrozen at epoch 2 joins the buckets: every rank takes the whole optimiser
  // state back, and the shards are cut again over the new parameters.
  void unfreezingCutsTheShardsAgain() {
    const QString file = writeFile("freeze.yaml", QByteArray(kRunFile)
                                                      .replace("out_features: 64}", "out_features: 64, trainable: false}")
                                                      .replace("epochs: 2", "epochs: 3")
                                                      .replace("threads: 1}", "threads: 1, unfreeze: [{epoch: 2, nodes: [fc1]}]}"));
    QVERIFY(launch(file, "unfreeze-none", "none", {}));
    QVERIFY(launch(file, "unfreeze-gradients", "gradients", {}));
    QCOMPARE(digest("unfreeze-gradients"), digest("unfreeze-none"));
    QFile log(QString::fromStdString(run("unfreeze-gradients").runDir) + "/artifacts/worker.log");
    QVERIFY(log.open(QIODevice::ReadOnly));
    const QByteArray text = log.readAll();
    QVERIFY2(text.contains("epoch 2: unfroze 50240 parameters of fc1"), text.constData());
    // 650 values trained before (the output layer), 50,890 after: half of each per rank.
    QVERIFY2(text.contains("distributed.shard gradients: 325 of 650 trainable values") &&
                 text.contains("distributed.shard gradients: 25445 of 50890 trainable values"),
             text.constData());
  }

  // kLongRunFile: 5 epochs of 90 steps, a checkpoint every 20 steps, batch norm (whose buffers
  // rank 0 broadcasts).
  void killedRankHoldingAShardResumesFromTheCheckpoint() {
    const QString file = writeFile("long.yaml", kLongRunFile);
    QVERIFY(launch(file, "whole", "gradients", {}));
    QProcess launcher;
    launcher.start(TW_BIN_DIR "/torchwright", {"launch", file, "--nproc-per-node", "2", "--max-restarts", "2",
                                               "--workspace", workspace(), "--set", "tracking.run_name=victim", "--set",
                                               "distributed.shard=gradients"});
    QVERIFY(launcher.waitForStarted());
    QString out;
    QTRY_VERIFY_WITH_TIMEOUT((out += QString::fromUtf8(launcher.readAllStandardOutput())).contains("rank 1 pid"), 60000);
    const auto match = QRegularExpression("rank 1 pid (\\d+)").match(out);
    QVERIFY(match.hasMatch());
    // Past the first checkpoint (step 20), in the middle of the second epoch (90 steps each).
    QTRY_VERIFY_WITH_TIMEOUT(lastLossStep("victim") >= 130 || launcher.state() == QProcess::NotRunning, 120000);
    QVERIFY2(launcher.state() == QProcess::Running, "the run ended before the kill");
    QCOMPARE(::kill(match.captured(1).toInt(), SIGKILL), 0);

    QVERIFY(launcher.waitForFinished(240000));
    const QString err = QString::fromUtf8(launcher.readAllStandardError());
    QVERIFY2(launcher.exitCode() == 0, qPrintable(err));
    QVERIFY2(err.contains("restarting all ranks from the last checkpoint"), qPrintable(err));
    auto db = store();
    const auto victim = run("victim");
    QCOMPARE(victim.status, RunStatus::Finished);
    QCOMPARE(db->tags(victim.id).at("restarts"), std::string("1"));
    // Resumed from a checkpoint between step 20 and the kill, every step logged once.
    QFile log(QString::fromStdString(victim.runDir) + "/artifacts/worker.log");
    QVERIFY(log.open(QIODevice::ReadOnly));
    const QByteArray text = log.readAll();
    QVERIFY2(QRegularExpression("resumed at epoch 2, batch [1-9][0-9]*, step 1[0-9][0-9]").match(QString::fromUtf8(text)).hasMatch(),
             text.right(3000).constData());
    const auto points = db->metricPoints(victim.id, "train/loss");
    QCOMPARE(int64_t(points.size()), int64_t(5 * 90));
    for (size_t i = 0; i < points.size(); ++i) QCOMPARE(points[i].step, int64_t(i + 1));
    // The checkpoint held every rank's share of the optimiser state: the run ends bit for bit
    // where the run without a kill ends.
    QCOMPARE(digest("victim"), digest("whole"));
  }
};

QTEST_GUILESS_MAIN(TestCliShard)
#include "test_cli_shard.moc"
