// Sweeps on SLURM, end to end: the real CLI submits each trial as a batch job to a one-node
// cluster the test starts (slurm_cluster.h), the jobs train real runs on a Fashion-MNIST slice,
// and the test plays the scheduler's part in what can go wrong: a requeue (what preemption does),
// an operator's scancel, the driver's own job requeued, a partition that does not exist, a
// machine without sbatch.

#include "cli_runner.h"
#include "slurm_cluster.h"

#include "tracking/store.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <functional>
#include <set>

namespace {

const char *kModel = R"(name: tiny
nodes:
  - {id: image, op: Input, shape: [1, 28, 28]}
  - {id: flat, op: Flatten}
  - {id: h1, op: Linear, out_features: 32}
  - {id: act, op: ReLU}
  - {id: logits, op: Linear, out_features: 10}
output: logits
)";

QString write(const QString &path, const QString &text) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return {};
  file.write(text.toUtf8());
  return path;
}

QString readAll(const QString &path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// Polls `done` every 200 ms for up to `seconds`.
bool waitFor(const std::function<bool()> &done, int seconds) {
  for (int i = 0; i < seconds * 5; ++i) {
    if (done()) return true;
    QThread::msleep(200);
  }
  return done();
}

}  // namespace

class TestSweepSlurm : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir m_dir;
  tw_test::SlurmCluster *m_cluster = nullptr;

  // A base run and a sweep over it. `trainLimit` and `epochs` set how long a trial trains: the
  // default is about a second; the fault tests need a trial still training when they act.
  QString sweepFile(const QString &name, const QString &extra, int trainLimit = 400, int epochs = 1) {
    const QString dir = m_dir.path();
    write(dir + "/" + name + ".model.yaml", kModel);
    write(dir + "/" + name + ".run.yaml",
          QString("model: %1.model.yaml\n"
                  "data: {dataset: fashion-mnist, train_limit: %2, test_limit: 100, batch_size: 50,\n"
                  "       val_fraction: 0.25}\n"
                  "train: {optimizer: adam, lr: 0.003, epochs: %3, seed: 3}\n"
                  "tracking: {experiment: sweeps}\n")
              .arg(name)
              .arg(trainLimit)
              .arg(epochs));
    return write(dir + "/" + name + ".sweep.yaml",
                 QString("base: %1.run.yaml\n"
                         "objective: {metric: val/accuracy, direction: maximize}\n"
                         "space:\n"
                         "  train.lr: {type: float, low: 1.0e-3, high: 1.0e-2, log: true}\n"
                         "  model.h1.out_features: {type: int, low: 16, high: 48, step: 16}\n"
                         "study: %1\nsampler: {type: random, seed: 5}\n%2")
                     .arg(name, extra));
  }

  QString workspace(const QString &name) const { return m_dir.path() + "/ws-" + name; }

  std::unique_ptr<tw::tracking::Store> store(const QString &name) const {
    return tw::tracking::Store::open((workspace(name) + "/tracking.db").toStdString());
  }

  std::vector<tw::tracking::TrialRecord> trials(const QString &name) const {
    if (!QFile::exists(workspace(name) + "/tracking.db")) return {};
    auto db = store(name);
    auto study = db->findStudy(name.toStdString());
    return study ? db->trials(study->id) : std::vector<tw::tracking::TrialRecord>{};
  }

  QString studyFolder(const QString &name) const {
    auto db = store(name);
    auto study = db->findStudy(name.toStdString());
    return study ? workspace(name) + "/studies/" + QString::fromStdString(study->uuid) : QString();
  }

  QString trialJob(const QString &name, int number) const {
    return readAll(studyFolder(name) + "/trial-" + QString::number(number) + ".slurm").trimmed();
  }

  // Whether trial `number` of the study has a run that is training (its first epoch recorded).
  bool trialTrains(const QString &name, int number) const {
    for (const auto &t : trials(name)) {
      if (t.number != number || t.runId == 0 || t.state != "RUNNING") continue;
      auto db = store(name);
      return !db->metricPoints(t.runId, "val/accuracy").empty();
    }
    return false;
  }

  CliResult sweep(const QStringList &arguments, const QProcessEnvironment &env) {
    return runCli(arguments, 300000, env);
  }

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(m_dir.isValid());
    m_cluster = tw_test::SlurmCluster::shared();
    if (!m_cluster && !tw_test::SlurmCluster::installed()) QSKIP(qPrintable(tw_test::SlurmCluster::unavailable()));
    QVERIFY2(m_cluster, qPrintable(tw_test::SlurmCluster::unavailable()));
  }

  // Eight trials, two jobs at a time, end as the same eight trials of the local executor: the
  // same parameters, states and values (one core per trial in both).
  void sweepOnSlurmEndsAsTheLocalSweep() {
    const QString common = "budget: {trials: 8}\nparallel: 2\n";
    const QString local = sweepFile("local8", common);
    const QString slurm = sweepFile("slurm8", common + "executor: {type: slurm, partition: debug, cpus: 1, memory: 1000M, "
                                                       "time: \"10\"}\n");
    const auto l = sweep({"sweep", local, "--workspace", workspace("local8")}, m_cluster->environment());
    QVERIFY2(l.exitCode == 0, qPrintable(l.all()));
    const auto s = sweep({"sweep", slurm, "--workspace", workspace("slurm8")}, m_cluster->environment());
    QVERIFY2(s.exitCode == 0, qPrintable(s.all()));
    QVERIFY2(s.out.contains("2 trial(s) at a time as SLURM jobs (sbatch --partition=debug --ntasks=1 --cpus-per-task=1 "
                            "--mem=1000M --time=10)"),
             qPrintable(s.out));

    const auto a = trials("local8"), b = trials("slurm8");
    QCOMPARE(a.size(), size_t(8));
    QCOMPARE(b.size(), size_t(8));
    std::set<QString> jobs;
    for (size_t i = 0; i < a.size(); ++i) {
      QCOMPARE(b[i].number, a[i].number);
      QCOMPARE(b[i].state, std::string("COMPLETE"));
      QCOMPARE(b[i].state, a[i].state);
      QCOMPARE(b[i].params, a[i].params);
      QCOMPARE(b[i].values.size(), size_t(1));
      QCOMPARE(b[i].values, a[i].values);  // exact: the same computation on one thread
      const QString job = trialJob("slurm8", b[i].number);
      QVERIFY2(!job.isEmpty(), "every trial records its job");
      QCOMPARE(m_cluster->jobField(job, "JobState"), QString("COMPLETED"));
      QCOMPARE(m_cluster->jobField(job, "NumCPUs"), QString("1"));
      jobs.insert(job);
    }
    QCOMPARE(jobs.size(), size_t(8));

    // Never more than two trials' runs at once.
    auto db = store("slurm8");
    std::vector<std::pair<int64_t, int>> edges;
    for (const auto &t : b) {
      const auto run = db->run(t.runId);
      QVERIFY(run && run->status == tw::tracking::RunStatus::Finished);
      edges.push_back({run->startMs, +1});
      edges.push_back({run->endMs, -1});
    }
    std::sort(edges.begin(), edges.end());
    int running = 0, most = 0;
    for (const auto &e : edges) most = std::max(most, running += e.second);
    QVERIFY2(most <= 2, qPrintable(QString("%1 runs at once").arg(most)));
  }

  // A partition the cluster does not have: refused with the scheduler's words before the study
  // is recorded or any job submitted.
  void unknownPartitionIsRefusedBeforeAnyJob() {
    const QString file = sweepFile("nopart", "budget: {trials: 2}\nexecutor: {type: slurm, partition: nosuch}\n");
    const QStringList before = m_cluster->jobIds();
    const auto r = sweep({"sweep", file, "--workspace", workspace("nopart")}, m_cluster->environment());
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("nopart.sweep.yaml: executor:") && r.err.contains("--partition=nosuch") &&
                 r.err.contains("invalid partition specified: nosuch") && r.err.contains("No job was submitted"),
             qPrintable(r.err));
    QCOMPARE(m_cluster->jobIds(), before);
    QVERIFY(trials("nopart").empty());
    QVERIFY(!QDir(workspace("nopart") + "/studies").exists() || QDir(workspace("nopart") + "/studies").isEmpty());
  }

  // A machine without SLURM's client commands: said so, nothing recorded.
  void missingSbatchIsRefused() {
    const QString file = sweepFile("nosbatch", "budget: {trials: 2}\nexecutor: slurm\n");
    QProcessEnvironment env = m_cluster->environment();
    env.insert("PATH", m_dir.path() + "/no-such-bin");
    const auto r = sweep({"sweep", file, "--workspace", workspace("nosbatch")}, env);
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("'sbatch' is not on PATH") && r.err.contains("slurm-client") &&
                 r.err.contains("No job was submitted"),
             qPrintable(r.err));
    QVERIFY(trials("nosbatch").empty());
  }

  // A trial whose job is requeued while it trains (what SLURM's preemption does) continues its
  // run from the checkpoint the stop wrote, and ends COMPLETE with every epoch recorded once.
  void requeuedTrialResumesFromItsCheckpoint() {
    const int epochs = 40;  // some 4 s of training: the requeue comes while it trains
    const QString file = sweepFile("requeue", "budget: {trials: 1}\nexecutor: {type: slurm, cpus: 1}\n", 20000, epochs);
    QProcess driver;
    driver.setProcessEnvironment(m_cluster->environment());
    driver.setProcessChannelMode(QProcess::MergedChannels);
    driver.start(TW_BIN_DIR "/torchwright", {"sweep", file, "--workspace", workspace("requeue")});
    QVERIFY(driver.waitForStarted());
    QVERIFY2(waitFor([&] { return trialTrains("requeue", 0); }, 120), "trial 0 never trained");
    const QString job = trialJob("requeue", 0);
    QString error;
    m_cluster->command("scontrol", {"requeue", job}, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    // A requeued job waits out a delay before it may start again; the test lets it start now.
    QVERIFY(waitFor([&] { return m_cluster->jobField(job, "JobState") == "PENDING"; }, 60));
    m_cluster->command("scontrol", {"update", "JobId=" + job, "StartTime=now"}, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY2(driver.waitForFinished(240000), "the sweep did not end");
    const QString out = QString::fromUtf8(driver.readAll());
    QVERIFY2(driver.exitCode() == 0, qPrintable(out + readAll(studyFolder("requeue") + "/trial-0.log")));

    QCOMPARE(m_cluster->jobField(job, "Restarts"), QString("1"));
    const auto t = trials("requeue");
    QCOMPARE(t.size(), size_t(1));
    QVERIFY2(t[0].state == "COMPLETE", t[0].message.c_str());
    const QString log = readAll(studyFolder("requeue") + "/trial-0.log");
    QVERIFY2(log.contains("DUE TO JOB REQUEUE") && log.contains("resumed from"), qPrintable(log));
    auto db = store("requeue");
    const auto run = db->run(t[0].runId);
    QVERIFY(run && run->status == tw::tracking::RunStatus::Finished);
    QCOMPARE(db->metricPoints(t[0].runId, "val/accuracy").size(), size_t(epochs));
  }

  // An operator's scancel ends a trial's job: the trial is FAILED with the scheduler's reason,
  // and asked again (retries: 1), which completes.
  void cancelledJobFailsItsTrialWithTheReasonAndIsRetried() {
    const QString file = sweepFile("cancel", "budget: {trials: 1}\nretries: 1\nexecutor: {type: slurm, cpus: 1}\n", 20000, 40);
    QProcess driver;
    driver.setProcessEnvironment(m_cluster->environment());
    driver.setProcessChannelMode(QProcess::MergedChannels);
    driver.start(TW_BIN_DIR "/torchwright", {"sweep", file, "--workspace", workspace("cancel")});
    QVERIFY(driver.waitForStarted());
    QVERIFY2(waitFor([&] { return trialTrains("cancel", 0); }, 120), "trial 0 never trained");
    const QString job = trialJob("cancel", 0);
    QString error;
    m_cluster->command("scancel", {job}, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY2(driver.waitForFinished(240000), "the sweep did not end");
    const QString out = QString::fromUtf8(driver.readAll());
    QVERIFY2(driver.exitCode() == 0, qPrintable(out));

    const auto t = trials("cancel");
    QCOMPARE(t.size(), size_t(2));
    QCOMPARE(t[0].state, std::string("FAILED"));
    const QString message = QString::fromStdString(t[0].message);
    QVERIFY2(message.contains("SLURM ended job " + job) && message.contains("cancelled outside the sweep") &&
                 message.contains("CANCELLED"),
             qPrintable(message));
    QCOMPARE(t[1].state, std::string("COMPLETE"));
    QCOMPARE(t[1].params, t[0].params);  // the retry asks the same configuration again
    auto db = store("cancel");
    const auto run = db->run(t[0].runId);
    QVERIFY(run && run->status == tw::tracking::RunStatus::Failed);
    QVERIFY2(QString::fromStdString(run->statusMessage).contains("cancelled outside the sweep"), run->statusMessage.c_str());
  }

  // The driver itself as a requeueable SLURM job (`sweep FILE --continue`): requeued mid-sweep,
  // it leaves its trials' jobs running, and when it starts again it takes them over; the study
  // ends with each trial run once.
  void driverAsSlurmJobSurvivesItsRequeue() {
    const QString file = sweepFile("driver", "budget: {trials: 3}\nparallel: 2\nexecutor: {type: slurm, cpus: 1}\n", 20000, 20);
    const QString driverLog = m_dir.path() + "/driver-job.log";
    QString error;
    const QString submitted = m_cluster->command(
        "sbatch", {"--parsable", "--requeue", "--cpus-per-task=1", "--open-mode=append", "--output=" + driverLog,
                   "--wrap", QString("exec %1/torchwright sweep %2 --continue --workspace %3").arg(TW_BIN_DIR, file, workspace("driver"))},
        &error);
    const QString driverJob = submitted.trimmed();
    QVERIFY2(!driverJob.isEmpty(), qPrintable(error));
    QVERIFY2(waitFor([&] { return trialTrains("driver", 0); }, 120), qPrintable(readAll(driverLog)));

    m_cluster->command("scontrol", {"requeue", driverJob}, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY(waitFor([&] { return m_cluster->jobField(driverJob, "JobState") == "PENDING"; }, 60));
    m_cluster->command("scontrol", {"update", "JobId=" + driverJob, "StartTime=now"}, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY2(waitFor([&] { return m_cluster->jobField(driverJob, "JobState") == "COMPLETED"; }, 240),
             qPrintable(readAll(driverLog)));

    const QString log = readAll(driverLog);
    QVERIFY2(log.contains("stopped by SIGTERM") && log.contains("go on under SLURM") &&
                 log.contains("resuming study driver") && log.contains("trial 0: following SLURM job"),
             qPrintable(log));
    const auto t = trials("driver");
    QCOMPARE(t.size(), size_t(3));
    std::set<int64_t> runs;
    for (const auto &trial : t) {
      QVERIFY2(trial.state == "COMPLETE", qPrintable(QString("trial %1: %2").arg(trial.number).arg(trial.message.c_str())));
      runs.insert(trial.runId);
    }
    QCOMPARE(runs.size(), size_t(3));
    // Each trial's job ran once: a taken-over job was followed, not submitted again.
    auto db = store("driver");
    QCOMPARE(db->listRuns().size(), size_t(3));
  }
};

QTEST_GUILESS_MAIN(TestSweepSlurm)
#include "test_sweep_slurm.moc"
