// Distributed training on the CPU with Gloo, through the real `torchwright launch` and workers on
// real Fashion-MNIST images: 2 ranks match 1 rank with the same global batch; a killed rank makes
// the launcher stop the other and restart both from the last checkpoint; a rank that cannot start
// fails the run with a clear reason instead of hanging; two launchers join as two machines; on one
// machine nothing listens beyond loopback.

#include "cli_runner.h"
#include "dist_run_files.h"
#include "saved_weights.h"

#include "tracking/store.h"

#include <torch/torch.h>

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <algorithm>
#include <cmath>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

using tw::tracking::RunStatus;

namespace {

// A socket listening on a loopback port, as another program would hold it.
class Listener {
 public:
  Listener() {
    m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (::bind(m_fd, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0 && ::listen(m_fd, 4) == 0 &&
        ::getsockname(m_fd, reinterpret_cast<sockaddr *>(&address), &length) == 0)
      m_port = ntohs(address.sin_port);
  }
  ~Listener() { close(); }
  void close() {
    if (m_fd >= 0) ::close(m_fd);
    m_fd = -1;
  }
  int port() const { return m_port; }

 private:
  int m_fd = -1;
  int m_port = 0;
};

// The sockets in LISTEN state that the processes hold, each as "loopback ADDRESS" or
// "other ADDRESS" (hex as /proc/net writes it), found by the inodes of their descriptors.
QStringList listeningSockets(const QList<int> &pids) {
  QSet<QString> inodes;
  for (int pid : pids) {
    const QString folder = QString("/proc/%1/fd").arg(pid);
    for (const QString &fd : QDir(folder).entryList(QDir::Files | QDir::System | QDir::NoDotAndDotDot)) {
      char target[256];
      const ssize_t n = ::readlink(qPrintable(folder + "/" + fd), target, sizeof target - 1);
      if (n <= 0) continue;
      const QString link = QString::fromLatin1(target, int(n));
      if (link.startsWith("socket:[")) inodes.insert(link.mid(8, link.size() - 9));
    }
  }
  // IPv4 words are in host order (127.0.0.1 is 0100007F); ::1 and ::ffff:127.x.y.z likewise.
  auto loopback = [](const QString &hex) {
    if (hex.size() == 8) return hex.endsWith("7F");
    return hex.left(24) == "000000000000000000000000" ? hex.mid(24) == "01000000"
                                                      : hex.left(24) == "0000000000000000FFFF0000" && hex.endsWith("7F");
  };
  QStringList out;
  for (const char *table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
    QFile f(table);
    if (!f.open(QIODevice::ReadOnly)) continue;
    f.readLine();  // the header
    while (!f.atEnd()) {
      const QStringList fields = QString::fromLatin1(f.readLine()).simplified().split(' ');
      if (fields.size() < 10 || fields[3] != "0A" || !inodes.contains(fields[9])) continue;  // 0A: LISTEN
      const QString address = fields[1].section(':', 0, 0);
      out << (loopback(address) ? "loopback " : "other ") + fields[1];
    }
  }
  return out;
}

// The times of one rank's resident-memory samples, in order.
std::vector<int64_t> sampleTimes(const std::vector<tw::tracking::SystemMetricRow> &rows, int rank) {
  std::vector<int64_t> times;
  for (const auto &row : rows)
    if (row.rank == rank && row.key == "rss_mb") times.push_back(row.timeMs);
  std::sort(times.begin(), times.end());
  return times;
}
std::vector<int64_t> gaps(const std::vector<int64_t> &times) {
  std::vector<int64_t> out;
  for (size_t i = 1; i < times.size(); ++i) out.push_back(times[i] - times[i - 1]);
  return out;
}

int64_t nowMs() { return QDateTime::currentMSecsSinceEpoch(); }

}  // namespace

class TestCliLaunch : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir m_dir;
  QString workspace() const { return m_dir.path() + "/ws"; }
  std::unique_ptr<tw::tracking::Store> store() const {
    return tw::tracking::Store::open((workspace() + "/tracking.db").toStdString());
  }
  QString writeFile(const QString &name, const char *text) const {
    const QString path = m_dir.path() + "/" + name;
    QFile file(path);
    if (file.open(QIODevice::WriteOnly)) file.write(text);
    return path;
  }
  std::string modelPath(const char *runName) const {
    auto run = store()->findRun(runName);
    return run ? run->runDir + "/artifacts/model.pt" : std::string();
  }
  int64_t lastLossStep(const char *runName) const {
    auto db = store();
    auto run = db->findRun(runName);
    if (!run) return 0;
    for (const auto &m : db->latestMetrics(run->id))
      if (m.key == "train/loss") return m.step;
    return 0;
  }

 private Q_SLOTS:
  void twoRanksMatchOneRankWithTheSameGlobalBatch() {
    const QString file = writeFile("run.yaml", kRunFile);
    auto one = runCli({"train", file, "--workspace", workspace(), "--set", "tracking.run_name=one"});
    QVERIFY2(one.exitCode == 0, qPrintable(one.all()));
    auto two = runCli({"launch", file, "--nproc-per-node", "2", "--workspace", workspace(), "--set",
                       "tracking.run_name=two"});
    QVERIFY2(two.exitCode == 0, qPrintable(two.all()));
    QVERIFY2(two.out.contains("rank 1 pid"), qPrintable(two.out));

    const auto a = loadWeights(modelPath("one")), b = loadWeights(modelPath("two"));
    QCOMPARE(a.size(), size_t(4));
    QCOMPARE(b.size(), a.size());
    const double worst = largestDifference(a, b);
    qInfo("largest parameter difference after %lld steps: %g", (long long)lastLossStep("one"), worst);
    QVERIFY2(worst < 1e-5, qPrintable(QString::number(worst)));

    // Rank 0 records global metrics: the per-step loss over the whole batch, as one rank has it.
    auto db = store();
    const auto runOne = *db->findRun("one"), runTwo = *db->findRun("two");
    const auto lossOne = db->metricPoints(runOne.id, "train/loss"), lossTwo = db->metricPoints(runTwo.id, "train/loss");
    QCOMPARE(lossTwo.size(), lossOne.size());
    QCOMPARE(int64_t(lossOne.size()), int64_t(2 * 15));
    for (size_t i = 0; i < lossOne.size(); ++i) QVERIFY(std::abs(lossOne[i].value - lossTwo[i].value) < 1e-4);
    QCOMPARE(db->params(runTwo.id).at("distributed.nproc_per_node"), std::string("2"));
    QVERIFY(!db->metricPoints(runTwo.id, "dist/allreduce_share").empty());
    QCOMPARE(runTwo.status, RunStatus::Finished);
  }

  // A streamed image folder split between two ranks (each reads its share of every batch through
  // BatchOrder::shard): the two train what one rank trains on the whole batch; also while
  // fine-tuning, when a frozen layer is unfrozen at epoch 2 and its gradients join the all-reduce
  // buckets, and when the run starts from another run's weights (rank 0 reads them, the start
  // broadcast gives them to rank 1).
  void streamedFolderTwoRanksMatchOneRank_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("hidden");    // the hidden layer's keys
    QTest::addColumn<QString>("train");     // extra train keys
    QTest::addColumn<QString>("logLine");   // in rank 0's log, when not empty
    QTest::newRow("streamed") << "folder" << "" << "" << "";
    QTest::newRow("unfreezing") << "unfreeze" << ", trainable: false" << ", unfreeze: [{epoch: 2, nodes: [h]}]"
                                << "epoch 2: unfroze 24608 parameters of h";
    QTest::newRow("starting weights") << "init" << "" << ", init_from: 'run:init-base@last'" << "";
  }
  void streamedFolderTwoRanksMatchOneRank() {
    QFETCH(QString, name);
    QFETCH(QString, hidden);
    QFETCH(QString, train);
    QFETCH(QString, logLine);
    const QString images = m_dir.path() + "/shapes-" + name;
    const CliResult drawn = runCli({"demo-images", images, "--per-class", "40", "--size", "16"});
    QVERIFY2(drawn.exitCode == 0, qPrintable(drawn.all()));
    const QString yaml = QString("model:\n  nodes:\n    - {id: x, op: Input, shape: [3, 16, 16]}\n"
                                 "    - {id: f, op: Flatten}\n    - {id: h, op: Linear, out_features: 32%2}\n"
                                 "    - {id: r, op: ReLU}\n    - {id: out, op: Linear, out_features: 3}\n"
                                 "data: {dataset: image-folder, path: '%1', batch_size: 16, cache: none}\n"
                                 "train: {optimizer: adam, lr: 0.002, epochs: 2, seed: 5, threads: 1%3}\n")
                             .arg(images, hidden, train);
    const QString file = writeFile(name + ".run.yaml", yaml.toUtf8().constData());
    if (train.contains("init_from")) {  // the run both start from: the same file without it
      auto base = runCli({"train", file, "--workspace", workspace(), "--set", "tracking.run_name=" + name + "-base",
                          "--set", "train.init_from=", "--set", "train.epochs=1"});
      QVERIFY2(base.exitCode == 0, qPrintable(base.all()));
    }
    const std::string oneName = (name + "-one").toStdString(), twoName = (name + "-two").toStdString();
    auto one = runCli({"train", file, "--workspace", workspace(), "--set", "tracking.run_name=" + name + "-one"});
    QVERIFY2(one.exitCode == 0, qPrintable(one.all()));
    auto two = runCli({"launch", file, "--nproc-per-node", "2", "--workspace", workspace(), "--set",
                       "tracking.run_name=" + name + "-two"});
    QVERIFY2(two.exitCode == 0, qPrintable(two.all()));
    if (train.contains("init_from"))
      QVERIFY2(one.out.contains("4 of 4 tensors taken") && two.out.contains("4 of 4 tensors taken"), qPrintable(two.out));
    if (!logLine.isEmpty()) {
      QFile log(QString::fromStdString(store()->findRun(twoName)->runDir) + "/artifacts/worker.log");
      QVERIFY(log.open(QIODevice::ReadOnly));
      QVERIFY(log.readAll().contains(logLine.toUtf8()));
    }
    const auto a = loadWeights(modelPath(oneName.c_str())), b = loadWeights(modelPath(twoName.c_str()));
    QCOMPARE(b.size(), a.size());
    const double worst = largestDifference(a, b);
    QVERIFY2(worst < 1e-5, qPrintable(QString::number(worst)));
  }

  // A launcher killed with SIGKILL leaves its rendezvous folder behind; the next launch on the
  // machine removes it (its pid is gone) and keeps one whose launcher lives, and its own folder
  // goes with it.
  void abandonedRendezvousFoldersAreRemoved() {
    QTemporaryDir tmp;
    QProcess gone;  // a pid that no longer runs
    gone.start("/bin/true", {});
    QVERIFY(gone.waitForStarted());
    const qint64 deadPid = gone.processId();
    QVERIFY(gone.waitForFinished());
    const QString abandoned = tmp.path() + QString("/torchwright-rendezvous-%1-AbCd12").arg(deadPid);
    const QString alive = tmp.path() + QString("/torchwright-rendezvous-%1-XyZ789").arg(::getpid());
    QVERIFY(QDir().mkpath(abandoned) && QDir().mkpath(alive));
    QFile keys(abandoned + "/store");
    QVERIFY(keys.open(QIODevice::WriteOnly) && keys.write("keys") == 4);
    keys.close();
    const QString file = writeFile("run.yaml", kRunFile);
    const QByteArray before = qgetenv("TMPDIR");
    qputenv("TMPDIR", tmp.path().toLocal8Bit());
    auto r = runCli({"launch", file, "--nproc-per-node", "2", "--workspace", workspace(), "--set",
                     "tracking.run_name=tidy", "--set", "train.epochs=1", "--set", "data.train_limit=300"});
    if (before.isNull()) qunsetenv("TMPDIR");
    else qputenv("TMPDIR", before);
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    const QStringList left = QDir(tmp.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QCOMPARE(left, QStringList{QFileInfo(alive).fileName()});
  }

  void accumulationSyncsOnlyTheLastMicroStep() {
    // Two micro-batches per step: the first accumulates locally on each rank, the second's
    // backward carries the all-reduce; the result is still the single process's.
    const QString file = writeFile("run.yaml", kRunFile);
    auto one = runCli({"train", file, "--workspace", workspace(), "--set", "tracking.run_name=acc1", "--set",
                       "train.accumulate=2"});
    QVERIFY2(one.exitCode == 0, qPrintable(one.all()));
    auto two = runCli({"launch", file, "--nproc-per-node", "2", "--workspace", workspace(), "--set",
                       "tracking.run_name=acc2", "--set", "train.accumulate=2"});
    QVERIFY2(two.exitCode == 0, qPrintable(two.all()));
    const auto a = loadWeights(modelPath("acc1")), b = loadWeights(modelPath("acc2"));
    QCOMPARE(b.size(), a.size());
    const double worst = largestDifference(a, b);
    QVERIFY2(worst < 1e-5, qPrintable(QString::number(worst)));
    QCOMPARE(lastLossStep("acc2"), int64_t(2 * 8));  // 15 batches per epoch -> 8 steps
  }

  void detachedLaunchOutlivesItsTerminal() {
    const QString file = writeFile("run.yaml", kRunFile);
    QElapsedTimer timer;
    timer.start();
    auto r = runCli({"launch", file, "--nproc-per-node", "2", "--detach", "--workspace", workspace(), "--set",
                     "tracking.run_name=detached", "--set", "train.epochs=6"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    QVERIFY2(r.out.contains("launched in the background"), qPrintable(r.out));
    // The command returned while the ranks train on in their own session.
    QVERIFY(store()->findRun("detached")->status != RunStatus::Finished);
    QTRY_COMPARE_WITH_TIMEOUT(store()->findRun("detached")->status, RunStatus::Finished, 120000);
    const auto run = *store()->findRun("detached");
    QVERIFY(QFile::exists(QString::fromStdString(run.runDir) + "/artifacts/launcher.log"));
    QVERIFY(run.heartbeatMs > 0);
  }

  void killedRankIsRestartedFromTheCheckpoint() {
    const QString file = writeFile("long.yaml", kLongRunFile);
    QProcess launcher;
    launcher.start(TW_BIN_DIR "/torchwright", {"launch", file, "--nproc-per-node", "2", "--max-restarts", "2",
                                               "--workspace", workspace(), "--set", "tracking.run_name=victim"});
    QVERIFY(launcher.waitForStarted());
    QString out;
    QTRY_VERIFY_WITH_TIMEOUT((out += QString::fromUtf8(launcher.readAllStandardOutput())).contains("rank 1 pid"), 60000);
    const auto match = QRegularExpression("rank 1 pid (\\d+)").match(out);
    QVERIFY(match.hasMatch());
    // Past the first checkpoint (step 20), in the middle of an epoch (90 steps each).
    QTRY_VERIFY_WITH_TIMEOUT(lastLossStep("victim") >= 130 || launcher.state() == QProcess::NotRunning, 120000);
    QVERIFY2(launcher.state() == QProcess::Running, "the run ended before the kill");
    // Rank 0 frozen (it cannot act on SIGTERM) and rank 1 killed: the launcher stops rank 0 with
    // SIGKILL after its 5 s grace, and restarts both.
    const int rank0 = QRegularExpression("rank 0 pid (\\d+)").match(out).captured(1).toInt();
    QVERIFY(rank0 > 0);
    QCOMPARE(::kill(rank0, SIGSTOP), 0);
    QCOMPARE(::kill(match.captured(1).toInt(), SIGKILL), 0);

    QVERIFY(launcher.waitForFinished(240000));
    const QString err = QString::fromUtf8(launcher.readAllStandardError());
    QVERIFY2(launcher.exitCode() == 0, qPrintable(err));
    QVERIFY2(err.contains("restarting all ranks from the last checkpoint"), qPrintable(err));
    QVERIFY2(err.contains("rank 0 did not stop within 5 s of SIGTERM; sending SIGKILL"), qPrintable(err));

    auto db = store();
    const auto run = *db->findRun("victim");
    QCOMPARE(run.status, RunStatus::Finished);
    const auto tags = db->tags(run.id);
    QCOMPARE(tags.at("restarts"), std::string("1"));
    QVERIFY2(QString::fromStdString(tags.at("restart.1")).contains("rank 1 killed by signal 9"),
             tags.at("restart.1").c_str());
    // No gaps, no duplicates: every step exactly once, and every epoch once.
    const auto points = db->metricPoints(run.id, "train/loss");
    QCOMPARE(int64_t(points.size()), int64_t(5 * 90));
    for (size_t i = 0; i < points.size(); ++i) QCOMPARE(points[i].step, int64_t(i + 1));
    QCOMPARE(db->metricPoints(run.id, "epoch").size(), size_t(5));
    // The launcher sampled both ranks' processes.
    QVERIFY(!sampleTimes(db->systemMetrics(run.id), 1).empty());
  }

  void killedRankOnAnotherMachineRestartsBothMachines() {
    const QString file = writeFile("long.yaml", kLongRunFile);
    Listener probe;
    QVERIFY(probe.port() > 0);
    const QString port = QString::number(probe.port());
    probe.close();
    // Two launchers as two machines, each restarting its own ranks; only node 0 has the database.
    QProcess node1, node0;
    node1.start(TW_BIN_DIR "/torchwright", {"launch", file, "--nnodes", "2", "--node-rank", "1", "--master-port", port,
                                            "--max-restarts", "2", "--set", "tracking.run_name=faraway"});
    node0.start(TW_BIN_DIR "/torchwright", {"launch", file, "--nnodes", "2", "--node-rank", "0", "--master-port", port,
                                            "--max-restarts", "2", "--workspace", workspace(), "--set",
                                            "tracking.run_name=faraway"});
    QVERIFY(node1.waitForStarted() && node0.waitForStarted());
    QString out;
    QTRY_VERIFY_WITH_TIMEOUT((out += QString::fromUtf8(node1.readAllStandardOutput())).contains("rank 1 pid"), 60000);
    const int pid = QRegularExpression("rank 1 pid (\\d+)").match(out).captured(1).toInt();
    QTRY_VERIFY_WITH_TIMEOUT(lastLossStep("faraway") >= 130 || node0.state() == QProcess::NotRunning, 120000);
    QVERIFY2(node0.state() == QProcess::Running, "the run ended before the kill");
    QCOMPARE(::kill(pid, SIGKILL), 0);

    QVERIFY(node1.waitForFinished(240000));
    QVERIFY(node0.waitForFinished(240000));
    const QString err0 = QString::fromUtf8(node0.readAllStandardError());
    const QString err1 = QString::fromUtf8(node1.readAllStandardError());
    QVERIFY2(node1.exitCode() == 0, qPrintable(err1));
    QVERIFY2(node0.exitCode() == 0, qPrintable(err0));
    QVERIFY2(err1.contains("restarting all ranks from the last checkpoint"), qPrintable(err1));
    // Node 0 lost its peer in a collective and restarted too: both rejoined on the same port.
    QVERIFY2(err0.contains("restarting all ranks from the last checkpoint"), qPrintable(err0));

    auto db = store();
    const auto run = *db->findRun("faraway");
    QCOMPARE(run.status, RunStatus::Finished);
    QVERIFY(db->tags(run.id).count("restart.1"));
    // Rank 1 on the other machine sampled itself; rank 0 recorded what it published.
    QVERIFY(!sampleTimes(db->systemMetrics(run.id), 1).empty());
    const auto points = db->metricPoints(run.id, "train/loss");
    QCOMPARE(int64_t(points.size()), int64_t(5 * 90));
    for (size_t i = 0; i < points.size(); ++i) QCOMPARE(points[i].step, int64_t(i + 1));
    QCOMPARE(db->metricPoints(run.id, "epoch").size(), size_t(5));
  }

  // A rank frozen with SIGSTOP is found silent and every rank restarts from the checkpoint. The
  // launcher's timeout is what this test's timing rests on: a healthy rank beats once a second,
  // and 3 s left two seconds for whatever stalls a loaded 2-core machine gives a healthy rank (or
  // the silence between its last beat and its exit, 0.2 s unloaded); one such stall taken for a
  // hang spends the one restart before the real one. 10 s keeps the frozen rank what is found.
  void hungRankIsRestarted() {
    const QString file = writeFile("long.yaml", kLongRunFile);
    QProcess launcher;
    launcher.start(TW_BIN_DIR "/torchwright", {"launch", file, "--nproc-per-node", "2", "--max-restarts", "1",
                                               "--heartbeat-timeout", "10", "--workspace", workspace(), "--set",
                                               "tracking.run_name=hung", "--set", "train.epochs=2"});
    QVERIFY(launcher.waitForStarted());
    QString out;
    QTRY_VERIFY_WITH_TIMEOUT((out += QString::fromUtf8(launcher.readAllStandardOutput())).contains("rank 1 pid"), 60000);
    const int pid = QRegularExpression("rank 1 pid (\\d+)").match(out).captured(1).toInt();
    QTRY_VERIFY_WITH_TIMEOUT(lastLossStep("hung") >= 30 || launcher.state() == QProcess::NotRunning, 120000);
    // When it ended early, say how: a run ended before the rank was frozen tests nothing.
    QVERIFY2(launcher.state() == QProcess::Running,
             qPrintable("the run ended before the rank was frozen:\n" + out +
                        QString::fromUtf8(launcher.readAllStandardOutput() + launcher.readAllStandardError())));
    QCOMPARE(::kill(pid, SIGSTOP), 0);  // alive but silent, as a deadlocked or swapped-out rank
    // While the launcher waits out the silence, it and rank 0 (blocked in a collective, its
    // heartbeat thread not) beat in the database every 2 s, and the launcher samples the ranks
    // every 2 s: read until it declares the rank hung.
    const int64_t frozenMs = nowMs();
    std::vector<int64_t> beats;
    QString err;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
          const auto run = store()->findRun("hung");
          if (run && run->heartbeatMs > frozenMs && (beats.empty() || beats.back() != run->heartbeatMs))
            beats.push_back(run->heartbeatMs);
          err += QString::fromUtf8(launcher.readAllStandardError());
          return err.contains("stopped answering") || launcher.state() == QProcess::NotRunning;
        }(),
        60000);
    QVERIFY2(beats.size() >= 3, qPrintable(QString::number(beats.size())));
    for (const int64_t gap : gaps(beats)) QVERIFY2(gap <= 10000, qPrintable(QString::number(gap)));
    QVERIFY(launcher.waitForFinished(240000));
    err += QString::fromUtf8(launcher.readAllStandardError());
    QVERIFY2(launcher.exitCode() == 0, qPrintable(err));
    auto db = store();
    const auto run = *db->findRun("hung");
    // The first 8 s of the freeze: the rank's last beat came at most 1 s before it, so the hang
    // is declared 9 s after it at the earliest, and the restart's first sample comes later.
    std::vector<int64_t> samples;
    for (const int64_t t : sampleTimes(db->systemMetrics(run.id), 1))
      if (t > frozenMs && t < frozenMs + 8000) samples.push_back(t);
    QVERIFY2(samples.size() >= 3, qPrintable(QString::number(samples.size())));
    for (const int64_t gap : gaps(samples)) QVERIFY2(gap >= 1990 && gap <= 5000, qPrintable(QString::number(gap)));
    QCOMPARE(run.status, RunStatus::Finished);
    QVERIFY2(QString::fromStdString(db->tags(run.id).at("restart.1")).contains("rank 1 stopped answering"),
             db->tags(run.id).at("restart.1").c_str());
    QCOMPARE(db->metricPoints(run.id, "train/loss").size(), size_t(2 * 90));
  }

  // One machine: nothing the launcher or its ranks hold listens beyond loopback while they train
  // (the rendezvous is a file; Gloo binds 127.0.0.1), read from /proc/net/tcp and tcp6 through
  // the processes' own descriptors. LibTorch 1.13's TCP store would listen on every interface.
  void oneMachineListensOnLoopbackOnly() {
    const QString file = writeFile("long.yaml", kLongRunFile);
    QProcess launcher;
    launcher.start(TW_BIN_DIR "/torchwright", {"launch", file, "--nproc-per-node", "2", "--workspace", workspace(),
                                               "--set", "tracking.run_name=loopback"});
    QVERIFY(launcher.waitForStarted());
    QString out;
    QTRY_VERIFY_WITH_TIMEOUT((out += QString::fromUtf8(launcher.readAllStandardOutput())).contains("rank 1 pid"), 60000);
    // A recorded step: both ranks have joined the process group and train.
    QTRY_VERIFY_WITH_TIMEOUT(lastLossStep("loopback") >= 1 || launcher.state() == QProcess::NotRunning, 120000);
    QVERIFY2(launcher.state() == QProcess::Running, "the run ended before its sockets were read");
    QList<int> pids{int(launcher.processId())};
    auto ranks = QRegularExpression("rank \\d+ pid (\\d+)").globalMatch(out);
    while (ranks.hasNext()) pids << ranks.next().captured(1).toInt();
    QCOMPARE(pids.size(), 3);
    const QStringList listening = listeningSockets(pids);
    launcher.terminate();  // stops the ranks after a checkpoint
    QVERIFY(launcher.waitForFinished(120000));
    qInfo("listening sockets of the launcher and its ranks: %s", qPrintable(listening.join(", ")));
    for (const QString &socket : listening) QVERIFY2(socket.startsWith("loopback"), qPrintable(listening.join(", ")));
  }

  // The ranks are frozen while their launcher dies and for longer than a heartbeat's second after,
  // as ranks too slow to stop at once are: woken, each writes its next heartbeat into a pipe
  // nobody reads before it can stop, and must still stop after a checkpoint and say why.
  void killedLauncherLeavesAFailedRun() {
    const QString file = writeFile("long.yaml", kLongRunFile);
    QProcess launcher;
    launcher.start(TW_BIN_DIR "/torchwright", {"launch", file, "--nproc-per-node", "2", "--workspace", workspace(),
                                               "--set", "tracking.run_name=orphan"});
    QVERIFY(launcher.waitForStarted());
    QString out;
    QTRY_VERIFY_WITH_TIMEOUT((out += QString::fromUtf8(launcher.readAllStandardOutput())).contains("rank 1 pid"), 60000);
    QList<int> ranks;
    auto found = QRegularExpression("rank \\d+ pid (\\d+)").globalMatch(out);
    while (found.hasNext()) ranks << found.next().captured(1).toInt();
    QCOMPARE(ranks.size(), 2);
    QTRY_VERIFY_WITH_TIMEOUT(lastLossStep("orphan") >= 30 || launcher.state() == QProcess::NotRunning, 120000);
    QVERIFY2(launcher.state() == QProcess::Running, "the run ended before the launcher was killed");
    for (int pid : ranks) QCOMPARE(::kill(pid, SIGSTOP), 0);
    launcher.kill();  // SIGKILL: the launcher can record nothing
    QVERIFY(launcher.waitForFinished(10000));
    QThread::msleep(1500);  // past the ranks' next heartbeat
    for (int pid : ranks) QCOMPARE(::kill(pid, SIGCONT), 0);
    // Its ranks notice (SIGHUP from the kernel), stop after a checkpoint, and rank 0 says why.
    QTRY_VERIFY_WITH_TIMEOUT(store()->findRun("orphan")->status != RunStatus::Running, 60000);
    const auto run = *store()->findRun("orphan");
    if (run.status == RunStatus::Running) {  // say what the ranks did (their log), then fail
      QString log;
      for (const QFileInfo &f : QDir(QString::fromStdString(run.runDir) + "/artifacts").entryInfoList({"*.log"})) {
        QFile file(f.filePath());
        if (file.open(QIODevice::ReadOnly)) log += f.fileName() + ":\n" + QString::fromUtf8(file.readAll().right(4000));
      }
      QFAIL(qPrintable("still RUNNING 60 s after the launcher was killed; the run's logs:\n" + log));
    }
    QCOMPARE(run.status, RunStatus::Failed);
    QVERIFY2(QString::fromStdString(run.statusMessage).contains("launcher exited unexpectedly"), run.statusMessage.c_str());
    QVERIFY(QFile::exists(QString::fromStdString(run.runDir) + "/checkpoints/last.pt"));
  }

  // cuda:99 on a machine the validator is told has 100 GPUs: the run is recorded, and the ranks
  // fail whether or not this machine has CUDA.
  void rankWithABadDeviceFailsTheRunClearly() {
    const QString file = writeFile("run.yaml", kRunFile);
    QElapsedTimer timer;
    timer.start();
    qputenv("TORCHWRIGHT_TEST_GPUS", "100");
    auto r = runCli({"launch", file, "--nproc-per-node", "2", "--max-restarts", "3", "--workspace", workspace(),
                     "--set", "train.device=cuda:99", "--set", "tracking.run_name=baddevice"}, 120000);
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("cuda"), qPrintable(r.err));
    QVERIFY2(!r.err.contains("restarting"), qPrintable(r.err));  // it would fail the same way again
    QVERIFY(timer.elapsed() < 60000);
    const auto run = *store()->findRun("baddevice");
    QCOMPARE(run.status, RunStatus::Failed);
    QVERIFY2(QString::fromStdString(run.statusMessage).contains("cuda"), run.statusMessage.c_str());
  }

  // The port matters when several machines are asked for (one machine meets through a file).
  void takenPortFailsTheRunClearly() {
    Listener squatter;
    QVERIFY(squatter.port() > 0);
    const QString file = writeFile("run.yaml", kRunFile);
    QElapsedTimer timer;
    timer.start();
    auto r = runCli({"launch", file, "--nnodes", "2", "--node-rank", "0", "--master-port", QString::number(squatter.port()),
                     "--workspace", workspace(), "--set", "tracking.run_name=taken"}, 120000);
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("port"), qPrintable(r.err));
    QVERIFY2(timer.elapsed() < 60000, "the launcher hung on a rank that could not start");
    const auto run = *store()->findRun("taken");
    QCOMPARE(run.status, RunStatus::Failed);
    QVERIFY2(QString::fromStdString(run.statusMessage).contains(QString::number(squatter.port())),
             run.statusMessage.c_str());
  }

  void twoLaunchersTrainAsTwoMachines() {
    const QString file = writeFile("run.yaml", kRunFile);
    // The reference: the same two ranks under one launcher.
    auto reference = runCli({"launch", file, "--nproc-per-node", "2", "--workspace", workspace(), "--set",
                             "tracking.run_name=one-machine"});
    QVERIFY2(reference.exitCode == 0, qPrintable(reference.all()));
    Listener probe;  // a port that is free now
    QVERIFY(probe.port() > 0);
    const QString port = QString::number(probe.port());
    probe.close();
    QProcess node1;
    node1.start(TW_BIN_DIR "/torchwright", {"launch", file, "--nnodes", "2", "--node-rank", "1", "--master-port", port,
                                            "--set", "tracking.run_name=nodes"});
    QVERIFY(node1.waitForStarted());
    auto node0 = runCli({"launch", file, "--nnodes", "2", "--node-rank", "0", "--master-port", port, "--workspace",
                         workspace(), "--set", "tracking.run_name=nodes"});
    QVERIFY(node1.waitForFinished(60000));
    QVERIFY2(node0.exitCode == 0, qPrintable(node0.all()));
    QVERIFY2(node1.exitCode() == 0, node1.readAllStandardError().constData());
    // The same computation as two ranks under one launcher, so the same bits.
    auto db = store();
    QCOMPARE(db->tags(db->findRun("nodes")->id).at("weights_sha256"),
             db->tags(db->findRun("one-machine")->id).at("weights_sha256"));
    // Node 1 has no database: its rank's system metrics came through the rendezvous store.
    const auto rows = db->systemMetrics(db->findRun("nodes")->id);
    auto has = [&](int rank, const char *key) {
      return std::any_of(rows.begin(), rows.end(), [&](const auto &r) { return r.rank == rank && r.key == key; });
    };
    QVERIFY(has(0, "cpu_percent"));
    QVERIFY(has(1, "cpu_percent") && has(1, "rss_mb") && has(1, "threads") && has(1, "host_mem_percent"));
  }
};

QTEST_GUILESS_MAIN(TestCliLaunch)
#include "test_cli_launch.moc"
