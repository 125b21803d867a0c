// `torchwright sweep` and `torchwright study`, end to end: the real CLI drives real trial
// processes on a few hundred Fashion-MNIST images in a temporary workspace. Each sweep is small
// (2-4 trials of one or two epochs of a tiny MLP), so the whole program runs in about a minute.

#include "cli_runner.h"

#include "tracking/store.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <signal.h>
#include <sqlite3.h>

#include <set>

namespace {

// A small MLP whose first layer's width the space searches.
const char *kModel = R"(name: tiny
nodes:
  - {id: image, op: Input, shape: [1, 28, 28]}
  - {id: flat, op: Flatten}
  - {id: h1, op: Linear, out_features: 32}
  - {id: act, op: ReLU}
  - {id: logits, op: Linear, out_features: 10}
output: logits
)";

// Two branches added together: only a width of 64 fits the other branch (the base has 64).
const char *kAddModel = R"(name: branches
nodes:
  - {id: image, op: Input, shape: [1, 28, 28]}
  - {id: flat, op: Flatten}
  - {id: a, op: Linear, out_features: 64, inputs: [flat]}
  - {id: b, op: Linear, out_features: 64, inputs: [flat]}
  - {id: sum, op: Add, inputs: [a, b]}
  - {id: logits, op: Linear, out_features: 10}
output: logits
)";

QString write(const QString &path, const QString &text) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return {};
  file.write(text.toUtf8());
  return path;
}

QJsonObject parseObject(const QString &text) { return QJsonDocument::fromJson(text.toUtf8()).object(); }

}  // namespace

class TestCliSweep : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir m_dir;
  QString workspace() const { return m_dir.path() + "/ws"; }
  std::unique_ptr<tw::tracking::Store> store() const {
    return tw::tracking::Store::open((workspace() + "/tracking.db").toStdString());
  }

  // The pid of the worker serving the study's trial 0 once that trial's run trains (its slot log
  // names it); 0 when that does not happen within a minute.
  static qint64 servingWorkerOnceTrialZeroTrains(const QString &ws, const std::string &name) {
    for (int i = 0; i < 1200; ++i) {
      QThread::msleep(50);
      if (!QFile::exists(ws + "/tracking.db")) continue;
      auto db = tw::tracking::Store::open((ws + "/tracking.db").toStdString());
      auto study = db->findStudy(name);
      if (!study) continue;
      const auto trials = db->trials(study->id);
      if (trials.empty() || trials[0].runId == 0) continue;
      const auto run = db->run(trials[0].runId);
      if (!run || run->status != tw::tracking::RunStatus::Running) continue;
      QFile log(ws + "/studies/" + QString::fromStdString(study->uuid) + "/slot-0.log");
      if (!log.open(QIODevice::ReadOnly)) continue;
      const QString first = QString::fromUtf8(log.readLine());
      if (first.startsWith("torchwright-worker ")) return first.section(' ', 1, 1).toLongLong();
    }
    return 0;
  }

  // A base run and a sweep over it; `extra` replaces the default sampler/budget/parallel lines.
  QString sweepFile(const QString &name, const QString &space, const QString &extra, int epochs = 1,
                    const char *model = kModel, int trainLimit = 400) {
    const QString dir = m_dir.path();
    write(dir + "/" + name + ".model.yaml", model);
    write(dir + "/" + name + ".run.yaml",
          QString("model: %1.model.yaml\n"
                  "data: {dataset: fashion-mnist, train_limit: %3, test_limit: 100, batch_size: 50,\n"
                  "       val_fraction: 0.25}\n"
                  "train: {optimizer: adam, lr: 0.003, epochs: %2, seed: 3}\n"
                  "tracking: {experiment: sweeps}\n")
              .arg(name)
              .arg(epochs)
              .arg(trainLimit));
    return write(dir + "/" + name + ".sweep.yaml", QString("base: %1.run.yaml\n"
                                                           "objective: {metric: val/accuracy, direction: maximize}\n"
                                                           "space:\n%2"
                                                           "study: %1\n%3")
                                                       .arg(name, space, extra));
  }


 private Q_SLOTS:
  void smallSweepReachesItsBudget() {
    const QString file = sweepFile("small",
                                   "  train.lr: {type: float, low: 1.0e-3, high: 1.0e-2, log: true}\n"
                                   "  model.h1.out_features: {type: int, low: 16, high: 48, step: 16}\n",
                                   "sampler: {type: random, seed: 5}\nbudget: {trials: 3}\nparallel: 2\n");
    const auto r = runCli({"sweep", file, "--workspace", workspace()});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    QVERIFY2(r.out.contains("2 trials at a time"), qPrintable(r.out));
    QVERIFY2(r.out.contains("trial 2 COMPLETE"), qPrintable(r.out));

    const auto shown = runCli({"study", "show", "small", "--json", "--workspace", workspace()});
    QVERIFY2(shown.exitCode == 0, qPrintable(shown.all()));
    const QJsonObject study = parseObject(shown.out);
    const QJsonArray trials = study["trials"].toArray();
    QCOMPARE(trials.size(), 3);
    auto db = store();
    double best = -1.0;
    for (int i = 0; i < trials.size(); ++i) {
      const QJsonObject t = trials[i].toObject();
      QCOMPARE(t["number"].toInt(), i);
      QCOMPARE(t["state"].toString(), QString("COMPLETE"));
      QVERIFY(t["value"].isDouble());
      best = std::max(best, t["value"].toDouble());
      const QJsonObject params = t["params"].toObject();
      QVERIFY(params["train.lr"].isDouble());
      QVERIFY(QList<int>({16, 32, 48}).contains(params["model.h1.out_features"].toInt()));
      // Every trial is an ordinary run, tagged with its study and number, trained as sampled.
      auto run = db->findRun(t["run"].toString().toStdString());
      QVERIFY2(run.has_value(), qPrintable(t["run"].toString()));
      QCOMPARE(run->status, tw::tracking::RunStatus::Finished);
      const auto tags = db->tags(run->id);
      QCOMPARE(tags.at("study"), std::string("small"));
      QCOMPARE(tags.at("trial"), std::to_string(i));
      QCOMPARE(QString::fromStdString(db->params(run->id).at("train.lr")).toDouble(), params["train.lr"].toDouble());
    }
    QCOMPARE(study["best"].toObject()["value"].toDouble(), best);

    const auto list = runCli({"study", "list", "--json", "--workspace", workspace()});
    QCOMPARE(list.exitCode, 0);
    const QJsonArray studies = QJsonDocument::fromJson(list.out.toUtf8()).array();
    QCOMPARE(studies.size(), 1);
    QCOMPARE(studies[0].toObject()["status"].toString(), QString("IDLE"));
    QCOMPARE(studies[0].toObject()["best"].toDouble(), best);
  }

  void aTrialWhoseModelDoesNotFitFailsWithoutARun() {
    QTemporaryDir dir;
    const QString ws = dir.path() + "/ws";
    const QString file = sweepFile("branches", "  model.a.out_features: {type: int, low: 16, high: 48, step: 16}\n",
                                   "sampler: {type: random, seed: 1}\nbudget: {trials: 2}\n", 1, kAddModel);
    const auto r = runCli({"sweep", file, "--workspace", ws});
    QCOMPARE(r.exitCode, 1);  // no trial completed
    QVERIFY2(r.out.contains("FAILED before it started"), qPrintable(r.all()));
    const auto shown = runCli({"study", "show", "branches", "--json", "--workspace", ws});
    const QJsonArray trials = parseObject(shown.out)["trials"].toArray();
    QCOMPARE(trials.size(), 2);
    for (const auto &value : trials) {
      const QJsonObject t = value.toObject();
      QCOMPARE(t["state"].toString(), QString("FAILED"));
      QVERIFY(t["run"].isNull());
      QVERIFY2(t["message"].toString().contains("sum"), qPrintable(t["message"].toString()));
    }
    auto db = tw::tracking::Store::open((ws + "/tracking.db").toStdString());
    QVERIFY(db->listRuns().empty());
  }

  void aTrialThatFailsInTrainingIsRetried() {
    QTemporaryDir dir;
    const QString ws = dir.path() + "/ws";
    // SGD at lr 1000 with momentum 0.99 sends the gradient norm to Inf in the second epoch: the
    // run FAILS while training, which is what `retries` is for (a configuration refused before it
    // starts is never retried).
    const QString file = sweepFile("diverges",
                                   "  train.optimizer: [sgd]\n  train.lr: [1000.0]\n  train.momentum: [0.99]\n",
                                   "sampler: {type: random, seed: 2}\nbudget: {trials: 1}\nretries: 1\n", 3);
    const auto r = runCli({"sweep", file, "--workspace", ws});
    QCOMPARE(r.exitCode, 1);  // no trial completed
    auto db = tw::tracking::Store::open((ws + "/tracking.db").toStdString());
    const auto study = db->findStudy("diverges");
    QVERIFY(study.has_value());
    const auto trials = db->trials(study->id);
    QCOMPARE(trials.size(), size_t(2));
    for (const auto &t : trials) {
      QCOMPARE(QString::fromStdString(t.state), QString("FAILED"));
      QVERIFY(t.runId != 0);
      QCOMPARE(t.params.at("train.lr"), trials[0].params.at("train.lr"));
    }
    QCOMPARE(trials[0].retryOf, -1);
    QCOMPARE(trials[1].retryOf, 0);
  }

  void askAndTellFromOutside() {
    QTemporaryDir dir;
    const QString ws = dir.path() + "/ws";
    const QString file = write(dir.path() + "/quad.sweep.yaml",
                               "objective: {metric: loss, direction: minimize}\n"
                               "space:\n  x: {type: float, low: -5, high: 5}\n  kind: [a, b]\n"
                               "sampler: {type: random, seed: 2}\nbudget: {trials: 10}\n");
    const auto created = runCli({"study", "create", file, "--workspace", ws});
    QVERIFY2(created.exitCode == 0, qPrintable(created.all()));
    const QString id = created.out.trimmed();
    QCOMPARE(id.size(), 32);
    std::vector<double> told;
    for (int i = 0; i < 3; ++i) {
      const auto asked = runCli({"study", "ask", id.left(6), "--json", "--workspace", ws});
      QVERIFY2(asked.exitCode == 0, qPrintable(asked.all()));
      const QJsonObject trial = parseObject(asked.out);
      QCOMPARE(trial["number"].toInt(), i);
      const double x = trial["params"].toObject()["x"].toDouble();
      QVERIFY(x >= -5 && x <= 5);
      QVERIFY(QStringList({"a", "b"}).contains(trial["params"].toObject()["kind"].toString()));
      told.push_back((x - 1) * (x - 1));
      const auto tell = runCli({"study", "tell", "quad", QString::number(i), QString::number(told.back(), 'g', 17),
                                "--workspace", ws});
      QVERIFY2(tell.exitCode == 0, qPrintable(tell.all()));
    }
    const auto fourth = runCli({"study", "ask", "quad", "--json", "--workspace", ws});
    QCOMPARE(parseObject(fourth.out)["number"].toInt(), 3);
    QCOMPARE(runCli({"study", "tell", "quad", "3", "--pruned", "--workspace", ws}).exitCode, 0);
    // A finished trial is never told twice; a value must be a number.
    const auto twice = runCli({"study", "tell", "quad", "0", "1.0", "--workspace", ws});
    QCOMPARE(twice.exitCode, 1);
    QVERIFY2(twice.err.contains("COMPLETE already"), qPrintable(twice.err));
    QCOMPARE(runCli({"study", "tell", "quad", "1", "abc", "--workspace", ws}).exitCode, 2);

    const auto shown = runCli({"study", "show", "quad", "--json", "--workspace", ws});
    const QJsonObject study = parseObject(shown.out);
    const QJsonArray trials = study["trials"].toArray();
    QCOMPARE(trials.size(), 4);
    QCOMPARE(trials[3].toObject()["state"].toString(), QString("PRUNED"));
    QVERIFY(trials[3].toObject()["value"].isNull());
    QCOMPARE(study["best"].toObject()["value"].toDouble(), *std::min_element(told.begin(), told.end()));
  }

  void categoricalChoicesKeepTheirJsonType() {
    // A program reading `--json` gets a choice back as the sweep file wrote it: 64, not "64".
    QTemporaryDir dir;
    const QString ws = dir.path() + "/ws";
    const QString file = write(dir.path() + "/typed.sweep.yaml",
                               "objective: {metric: loss, direction: minimize}\n"
                               "space:\n"
                               "  data.batch_size: {type: categorical, choices: [32, 64, 128]}\n"
                               "  train.optimizer: [sgd, adam]\n"
                               "  ratio: [0.5, 0.25]\n"
                               "  flag: [true, false]\n"
                               "sampler: {type: random, seed: 7}\nbudget: {trials: 10}\n");
    const auto created = runCli({"study", "create", file, "--workspace", ws});
    QVERIFY2(created.exitCode == 0, qPrintable(created.all()));
    auto checkTypes = [](const QJsonObject &params) {
      QVERIFY2(params["data.batch_size"].isDouble(), qPrintable(QJsonDocument(params).toJson()));
      QVERIFY(QList<int>({32, 64, 128}).contains(params["data.batch_size"].toInt()));
      QVERIFY(params["train.optimizer"].isString());
      QVERIFY(QStringList({"sgd", "adam"}).contains(params["train.optimizer"].toString()));
      QVERIFY(params["ratio"].isDouble());
      QVERIFY(params["ratio"].toDouble() == 0.5 || params["ratio"].toDouble() == 0.25);
      QVERIFY(params["flag"].isBool());
    };
    for (int i = 0; i < 2; ++i) {
      const auto asked = runCli({"study", "ask", "typed", "--json", "--workspace", ws});
      QVERIFY2(asked.exitCode == 0, qPrintable(asked.all()));
      const QJsonDocument doc = QJsonDocument::fromJson(asked.out.toUtf8());
      QVERIFY2(doc.isObject(), qPrintable(asked.out));
      checkTypes(doc.object()["params"].toObject());
      if (QTest::currentTestFailed()) return;
      const auto tell = runCli({"study", "tell", "typed", QString::number(i), QString::number(i + 1), "--workspace", ws});
      QVERIFY2(tell.exitCode == 0, qPrintable(tell.all()));
    }
    const auto shown = runCli({"study", "show", "typed", "--json", "--workspace", ws});
    QVERIFY2(shown.exitCode == 0, qPrintable(shown.all()));
    const QJsonDocument doc = QJsonDocument::fromJson(shown.out.toUtf8());
    QVERIFY2(doc.isObject(), qPrintable(shown.out));
    const QJsonArray trials = doc.object()["trials"].toArray();
    QCOMPARE(trials.size(), 2);
    for (const QJsonValue &trial : trials) {
      checkTypes(trial.toObject()["params"].toObject());
      if (QTest::currentTestFailed()) return;
    }
    QCOMPARE(doc.object()["best"].toObject()["number"].toInt(), 0);
    checkTypes(doc.object()["best"].toObject()["params"].toObject());
  }

  void resumeAfterTheDriverIsKilledLosesNothing() {
    QTemporaryDir dir;
    const QString ws = dir.path() + "/ws";
    const QString file = sweepFile("killed", "  train.lr: {type: float, low: 1.0e-3, high: 1.0e-2, log: true}\n",
                                   "sampler: {type: random, seed: 9}\nbudget: {trials: 3}\nparallel: 1\n", 20,
                                   kModel, 3000);
    QProcess driver;
    driver.start(TW_BIN_DIR "/torchwright", {"sweep", file, "--workspace", ws});
    QVERIFY(driver.waitForStarted());
    // Kill the driver once one trial is COMPLETE and the next one's run trains (20 epochs of 2,250
    // images: seconds, while the kill takes a tenth of one).
    std::optional<tw::tracking::TrialRecord> finished;
    for (int i = 0; i < 1200 && !finished; ++i) {
      QThread::msleep(100);
      if (!QFile::exists(ws + "/tracking.db")) continue;
      auto db = tw::tracking::Store::open((ws + "/tracking.db").toStdString());
      auto study = db->findStudy("killed");
      if (!study) continue;
      const auto trials = db->trials(study->id);
      if (trials.size() < 2 || trials[0].state != "COMPLETE" || trials[1].runId == 0) continue;
      const auto second = db->run(trials[1].runId);
      if (second && second->status == tw::tracking::RunStatus::Running) finished = trials[0];
    }
    QVERIFY2(finished.has_value(), qPrintable(QString::fromUtf8(driver.readAll())));
    ::kill(static_cast<pid_t>(driver.processId()), SIGKILL);
    QVERIFY(driver.waitForFinished());

    const auto resumed = runCli({"sweep", "--resume", "killed", "--workspace", ws});
    QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.all()));
    auto db = tw::tracking::Store::open((ws + "/tracking.db").toStdString());
    const auto study = db->findStudy("killed");
    const auto trials = db->trials(study->id);
    QCOMPARE(trials.size(), size_t(3));  // the budget counts the trials before the kill
    std::set<int> numbers;
    for (const auto &t : trials) {
      numbers.insert(t.number);
      QVERIFY2(t.state == "COMPLETE" || t.state == "FAILED", t.state.c_str());
    }
    QCOMPARE(numbers, (std::set<int>{0, 1, 2}));
    QCOMPARE(trials[0].state, std::string("COMPLETE"));
    QCOMPARE(trials[0].values, finished->values);
    QCOMPARE(trials[0].runId, finished->runId);
    QCOMPARE(trials[1].state, std::string("FAILED"));  // it was running when its driver died
    QCOMPARE(trials[2].state, std::string("COMPLETE"));

    // A base run file edited since the study started is refused, naming what changed.
    const QString base = m_dir.path() + "/killed.run.yaml";
    QFile baseFile(base);
    QVERIFY(baseFile.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(baseFile.readAll());
    baseFile.close();
    write(base, QString(text).replace("lr: 0.003", "lr: 0.002"));
    const auto changed = runCli({"sweep", "--resume", "killed", "--workspace", ws});
    QCOMPARE(changed.exitCode, 1);
    QVERIFY2(changed.err.contains("killed.run.yaml changed since study killed started") &&
                 changed.err.contains("train.lr: 0.003 -> 0.002"),
             qPrintable(changed.err));
    write(base, text);
    QCOMPARE(db->trials(study->id).size(), size_t(3));
  }

  void badInputIsRefusedClearly() {
    QTemporaryDir dir;
    const QString ws = dir.path() + "/ws";
    const auto missing = runCli({"sweep", dir.path() + "/nope.sweep.yaml", "--workspace", ws});
    QCOMPARE(missing.exitCode, 1);
    QVERIFY2(missing.err.contains("nope.sweep.yaml"), qPrintable(missing.err));

    const QString zero = sweepFile("zero", "  train.lr: {type: float, low: 1.0e-3, high: 1.0e-2}\n",
                                   "budget: {trials: 0}\n");
    const auto noBudget = runCli({"sweep", zero, "--workspace", ws});
    QCOMPARE(noBudget.exitCode, 1);
    QVERIFY2(noBudget.err.contains("zero.sweep.yaml") && noBudget.err.contains("budget"), qPrintable(noBudget.err));
    QVERIFY(!QFile::exists(ws + "/tracking.db") || store()->listStudies().empty());

    for (const QStringList &args : {QStringList{"study", "show", "no-such-study"},
                                    QStringList{"sweep", "--resume", "no-such-study"},
                                    QStringList{"study", "ask", "no-such-study"}}) {
      const auto r = runCli(args + QStringList{"--workspace", ws});
      QCOMPARE(r.exitCode, 1);
      QVERIFY2(r.err.contains("no study 'no-such-study'"), qPrintable(r.err));
    }
    QCOMPARE(runCli({"sweep", "--workspace", ws}).exitCode, 2);
    QCOMPARE(runCli({"sweep", zero, "--resume", "x", "--workspace", ws}).exitCode, 2);
    QCOMPARE(runCli({"train", zero, "--trial", "nonsense", "--workspace", ws}).exitCode, 1);
  }

  // A slot's one-rank trials run one after another in one worker process, which reads the data once.
  void trialsShareTheirSlotsWorker() {
    QTemporaryDir dir;
    const QString ws = dir.path() + "/ws";
    const QString file = sweepFile("served", "  train.lr: {type: float, low: 1.0e-3, high: 1.0e-2, log: true}\n",
                                   "sampler: {type: random, seed: 6}\nbudget: {trials: 3}\nparallel: 1\n");
    const auto r = runCli({"sweep", file, "--workspace", ws});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    auto db = tw::tracking::Store::open((ws + "/tracking.db").toStdString());
    const auto study = db->findStudy("served");
    QVERIFY(study.has_value());
    QFile log(ws + "/studies/" + QString::fromStdString(study->uuid) + "/slot-0.log");
    QVERIFY2(log.open(QIODevice::ReadOnly), qPrintable(log.fileName()));
    const QString text = QString::fromUtf8(log.readAll());
    QCOMPARE(text.count("torchwright-worker "), 1);
    const auto trials = db->trials(study->id);
    QCOMPARE(trials.size(), size_t(3));
    for (const auto &t : trials) {
      QCOMPARE(t.state, std::string("COMPLETE"));
      const auto run = db->run(t.runId);
      QVERIFY(run.has_value());
      QVERIFY2(text.contains("run " + QString::fromStdString(run->uuid)), qPrintable(text));
      QFile workerLog(QString::fromStdString(run->runDir) + "/artifacts/worker.log");
      QVERIFY(workerLog.open(QIODevice::ReadOnly));
      const bool kept = QString::fromUtf8(workerLog.readAll()).contains("kept from an earlier run of this worker");
      QCOMPARE(kept, t.number > 0);
      // No launcher samples a served run: the driver records its worker's figures.
      bool rss = false;
      for (const auto &row : db->systemMetrics(run->id)) rss = rss || (row.key == "rss_mb" && row.value > 0);
      QVERIFY2(rss, run->uuid.c_str());
    }
  }

  // The worker dies under a trial: that trial FAILS with the reason, and the next one gets a new worker.
  void aKilledWorkerFailsOnlyItsTrial() {
    QTemporaryDir dir;
    const QString ws = dir.path() + "/ws";
    const QString file = sweepFile("workerkilled", "  train.lr: {type: float, low: 1.0e-3, high: 1.0e-2, log: true}\n",
                                   "sampler: {type: random, seed: 8}\nbudget: {trials: 2}\nparallel: 1\n",
                                   40, kModel, 2000);
    QProcess driver;
    driver.start(TW_BIN_DIR "/torchwright", {"sweep", file, "--workspace", ws});
    QVERIFY(driver.waitForStarted());
    // Once trial 0's run trains, kill the worker that serves it.
    const qint64 worker = servingWorkerOnceTrialZeroTrains(ws, "workerkilled");
    QVERIFY2(worker > 0, qPrintable(QString::fromUtf8(driver.readAll())));
    ::kill(static_cast<pid_t>(worker), SIGKILL);
    QVERIFY(driver.waitForFinished(300000));
    const QString out = QString::fromUtf8(driver.readAll());
    QCOMPARE(driver.exitCode(), 0);
    auto db = tw::tracking::Store::open((ws + "/tracking.db").toStdString());
    const auto trials = db->trials(db->findStudy("workerkilled")->id);
    QCOMPARE(trials.size(), size_t(2));
    QCOMPARE(trials[0].state, std::string("FAILED"));
    QVERIFY2(QString::fromStdString(trials[0].message).contains("killed by signal 9"), trials[0].message.c_str());
    QCOMPARE(db->run(trials[0].runId)->status, tw::tracking::RunStatus::Failed);
    QVERIFY2(trials[1].state == "COMPLETE", qPrintable(out));
  }

  // `sweep --resume --set` changes how much more to run (recorded, so a later resume keeps it),
  // never what the trials are; budget.minutes is the study's: a resume does not start the clock
  // again, so a study whose time is spent starts no trial.
  void resumeTakesBudgetSettingsAndKeepsTheStudysClock() {
    QTemporaryDir dir;
    const QString ws = dir.path() + "/ws";
    const QString file = sweepFile("extended", "  train.lr: {type: float, low: 1.0e-3, high: 1.0e-2, log: true}\n",
                                   "sampler: {type: random, seed: 2}\nbudget: {trials: 1}\nparallel: 1\n");
    QCOMPARE(runCli({"sweep", file, "--workspace", ws}).exitCode, 0);
    auto more = runCli({"sweep", "--resume", "extended", "--set", "budget.trials=2", "--workspace", ws});
    QVERIFY2(more.exitCode == 0, qPrintable(more.all()));
    auto db = tw::tracking::Store::open((ws + "/tracking.db").toStdString());
    const auto study = db->findStudy("extended");
    QCOMPARE(db->trials(study->id).size(), size_t(2));
    QVERIFY(QString::fromStdString(db->study(study->id)->sweepYaml).contains("# --set budget.trials=2"));
    QCOMPARE(runCli({"sweep", "--resume", "extended", "--workspace", ws}).exitCode, 0);
    QCOMPARE(db->trials(study->id).size(), size_t(2));  // the recorded budget of 2 is spent
    auto space = runCli({"sweep", "--resume", "extended", "--set", "space.train.lr.low=0.0001", "--workspace", ws});
    QCOMPARE(space.exitCode, 2);
    QVERIFY2(space.err.contains("not what the trials are; got 'space.train.lr.low=0.0001'"), qPrintable(space.err));

    // 1.2 s of time budget: the first session spends it on its first trial (a worker's start
    // alone takes longer); the resume finds it spent.
    const QString timed = sweepFile("timed", "  train.lr: {type: float, low: 1.0e-3, high: 1.0e-2, log: true}\n",
                                    "sampler: {type: random, seed: 2}\nbudget: {minutes: 0.02}\nparallel: 1\n");
    QCOMPARE(runCli({"sweep", timed, "--workspace", ws}).exitCode, 0);
    const auto timedStudy = db->findStudy("timed");
    QVERIFY(timedStudy->driverMs >= 1200);
    const size_t before = db->trials(timedStudy->id).size();
    auto again = runCli({"sweep", "--resume", "timed", "--workspace", ws});
    QVERIFY2(again.exitCode == 0 && again.out.contains("time budget reached"), qPrintable(again.all()));
    QCOMPARE(db->trials(timedStudy->id).size(), before);
    QVERIFY(db->findStudy("timed")->driverMs >= timedStudy->driverMs);
  }

  // A crash: the driver and the worker training its trial die at once, so nothing writes an end.
  // Once the driver's silence passes the store's rule (two minutes are written into the database
  // here instead of waited out), `study list` and `study show` read the study INTERRUPTED and its
  // trial and run FAILED, with nobody running `sweep --resume`; the resume then finishes it.
  void aSweepKilledWithItsTrialsReadsInterrupted() {
    QTemporaryDir dir;
    const QString ws = dir.path() + "/ws";
    const QString file = sweepFile("crashed", "  train.lr: {type: float, low: 1.0e-3, high: 1.0e-2, log: true}\n",
                                   "sampler: {type: random, seed: 5}\nbudget: {trials: 2}\nparallel: 1\n", 40,
                                   kModel, 2000);
    QProcess driver;
    driver.start(TW_BIN_DIR "/torchwright", {"sweep", file, "--workspace", ws});
    QVERIFY(driver.waitForStarted());
    const qint64 worker = servingWorkerOnceTrialZeroTrains(ws, "crashed");
    QVERIFY2(worker > 0, qPrintable(QString::fromUtf8(driver.readAll())));
    ::kill(static_cast<pid_t>(driver.processId()), SIGKILL);
    ::kill(static_cast<pid_t>(worker), SIGKILL);
    QVERIFY(driver.waitForFinished());
    QTRY_VERIFY_WITH_TIMEOUT(::kill(static_cast<pid_t>(worker), 0) != 0, 10000);  // reaped by init

    sqlite3 *raw = nullptr;
    QCOMPARE(sqlite3_open((ws + "/tracking.db").toUtf8().constData(), &raw), SQLITE_OK);
    const char *twoMinutesAgo =
        "UPDATE studies SET driver_heartbeat_ms = driver_heartbeat_ms - 120000, updated_ms = updated_ms - 120000;"
        "UPDATE trials SET heartbeat_ms = heartbeat_ms - 120000, start_ms = start_ms - 120000, "
        "updated_ms = updated_ms - 120000 WHERE state = 'RUNNING';"
        "UPDATE runs SET heartbeat_ms = heartbeat_ms - 120000, start_ms = start_ms - 120000, "
        "updated_ms = updated_ms - 120000 WHERE status = 'RUNNING';";
    QCOMPARE(sqlite3_exec(raw, twoMinutesAgo, nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(raw);

    const auto listed = runCli({"study", "list", "--json", "--workspace", ws});
    QCOMPARE(listed.exitCode, 0);
    const QJsonObject row = QJsonDocument::fromJson(listed.out.toUtf8()).array().at(0).toObject();
    QCOMPARE(row.value("status").toString(), QStringLiteral("INTERRUPTED"));
    const auto shown = runCli({"study", "show", "crashed", "--workspace", ws});
    QVERIFY2(shown.exitCode == 0 && shown.out.contains("INTERRUPTED"), qPrintable(shown.all()));
    auto db = tw::tracking::Store::open((ws + "/tracking.db").toStdString());
    const auto study = db->findStudy("crashed");
    const auto trial = db->trial(study->id, 0);
    QCOMPARE(trial->state, std::string("FAILED"));
    QVERIFY2(QString::fromStdString(trial->message).contains("no heartbeat since"), trial->message.c_str());
    QCOMPARE(db->run(trial->runId)->status, tw::tracking::RunStatus::Failed);

    const auto resumed = runCli({"sweep", "--resume", "crashed", "--workspace", ws});
    QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.all()));
    QCOMPARE(db->findStudy("crashed")->status, std::string("IDLE"));
    const auto trials = db->trials(study->id);
    QVERIFY(std::any_of(trials.begin(), trials.end(), [](const auto &t) { return t.state == "COMPLETE"; }));
  }

  // Without a worker to start, a sweep stops after a few trials instead of failing its whole budget.
  void aWorkerThatCannotStartStopsTheSweep() {
    QTemporaryDir dir;
    const QString ws = dir.path() + "/ws";
    const QString lonely = dir.path() + "/bin/torchwright";  // no torchwright-worker beside it
    QVERIFY(QDir().mkpath(dir.path() + "/bin"));
    QVERIFY(QFile::copy(TW_BIN_DIR "/torchwright", lonely));
    QVERIFY(QFile::setPermissions(lonely, QFile::permissions(lonely) | QFileDevice::ExeOwner));
    const QString file = sweepFile("noworker", "  train.lr: {type: float, low: 1.0e-3, high: 1.0e-2, log: true}\n",
                                   "sampler: {type: random, seed: 1}\nbudget: {trials: 20}\nparallel: 1\n");
    QProcess sweep;
    sweep.start(lonely, {"sweep", file, "--workspace", ws});
    QVERIFY(sweep.waitForFinished(120000));
    const QString out = QString::fromUtf8(sweep.readAllStandardOutput());
    QCOMPARE(sweep.exitCode(), 1);
    QVERIFY2(out.contains("ended before their runs started; stopping"), qPrintable(out));
    auto db = tw::tracking::Store::open((ws + "/tracking.db").toStdString());
    const auto trials = db->trials(db->findStudy("noworker")->id);
    QCOMPARE(trials.size(), size_t(3));
    for (const auto &t : trials) QCOMPARE(t.state, std::string("FAILED"));
  }

  void medianPrunerStopsHopelessTrials() {
    QTemporaryDir dir;
    const QString ws = dir.path() + "/ws";
    // lr 1e-7 learns nothing; 3e-3 learns. Once a good trial has completed, a hopeless one is below
    // the median at its first epoch, and is stopped long before its 30 epochs are over (an epoch
    // of 3,000 images takes longer than the driver needs to see the report and stop the run).
    const QString file = sweepFile("pruned", "  train.lr: [0.003, 1.0e-7]\n",
                                   "sampler: {type: random, seed: 4}\n"
                                   "pruner: {type: median, n_startup_trials: 1, n_warmup_steps: 0}\n"
                                   "budget: {trials: 3}\nparallel: 1\n",
                                   30, kModel, 4000);
    const auto r = runCli({"sweep", file, "--workspace", ws});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    auto db = tw::tracking::Store::open((ws + "/tracking.db").toStdString());
    const auto study = db->findStudy("pruned");
    int pruned = 0;
    bool goodDone = false;
    for (const auto &t : db->trials(study->id)) {
      const bool hopeless = t.params.at("train.lr") == "1.0e-7";
      if (!hopeless) {
        QCOMPARE(t.state, std::string("COMPLETE"));
        goodDone = true;
        continue;
      }
      if (!goodDone) continue;  // nothing better to compare with yet
      QCOMPARE(t.state, std::string("PRUNED"));
      ++pruned;
      // The run stopped at once and says why; the trial is PRUNED, not a user's stop.
      const auto run = db->run(t.runId);
      QVERIFY(run.has_value());
      QCOMPARE(run->status, tw::tracking::RunStatus::Killed);
      QVERIFY2(QString::fromStdString(run->statusMessage).contains("pruned at epoch 1 by the median pruner"),
               run->statusMessage.c_str());
      QCOMPARE(db->tags(run->id).at("pruned"), std::string("1"));
      QVERIFY(db->metricPoints(run->id, "val/accuracy").size() < 30);
      QCOMPARE(t.intermediate.size(), size_t(1));
    }
    QVERIFY2(pruned > 0, qPrintable(r.out));
  }
};

QTEST_MAIN(TestCliSweep)
#include "test_cli_sweep.moc"
