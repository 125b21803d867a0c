// The whole path: run file -> CLI -> worker -> tracking database, on 2,000 real Fashion-MNIST
// images; and what happens to a run when the input is bad or the worker dies.

#include "cli_runner.h"

#include "tracking/store.h"
#include "tracking/tensorboard_events.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <signal.h>

using tw::tracking::RunStatus;

namespace {

QString writeRunFile(const QString &dir, const QString &extra = {}) {
  const QString path = dir + "/run.yaml";
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return {};
  file.write(QStringLiteral("model: " TW_SOURCE_DIR "/resources/examples/fashion_mlp.model.yaml\n"
                            "data: {dataset: fashion-mnist, train_limit: 2000, batch_size: 64, val_fraction: 0.1}\n"
                            "train: {optimizer: adam, lr: 0.001, epochs: 10, seed: 7}\n"
                            "tracking: {experiment: e2e}\n%1")
                 .arg(extra)
                 .toUtf8());
  return path;
}

double latest(tw::tracking::Store &store, int64_t runId, const std::string &key) {
  for (const auto &m : store.latestMetrics(runId))
    if (m.key == key) return m.value;
  return -1.0;
}

}  // namespace

class TestCliTrain : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir m_dir;
  QString workspace() const { return m_dir.path() + "/ws"; }
  std::unique_ptr<tw::tracking::Store> store() const {
    return tw::tracking::Store::open((workspace() + "/tracking.db").toStdString());
  }

 private Q_SLOTS:
  void trainsAndRecordsARun() {
    const QString runFile = writeRunFile(m_dir.path());
    const QString tensorboard = m_dir.path() + "/tb";
    auto r = runCli({"train", runFile, "--workspace", workspace(), "--set", "tracking.run_name=slice", "--set",
                     "tracking.tensorboard=" + tensorboard});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    QVERIFY2(r.out.contains("epoch 1/10"), qPrintable(r.out));
    QVERIFY(r.out.contains("epoch 10/10"));
    QVERIFY(r.out.contains("Summary of run"));
    // The workspace `train` created and its database are the user's alone.
    QCOMPARE(QFileInfo(workspace()).permissions() & 0x0077, QFileDevice::Permissions());
    QCOMPARE(QFileInfo(workspace() + "/tracking.db").permissions() & 0x0077, QFileDevice::Permissions());

    auto db = store();
    auto run = db->findRun("slice");
    QVERIFY(run.has_value());
    QCOMPARE(run->status, RunStatus::Finished);
    QVERIFY(run->startMs > 0 && run->endMs >= run->startMs);
    QVERIFY2(latest(*db, run->id, "test/accuracy") >= 0.75,
             qPrintable(QString("test accuracy %1").arg(latest(*db, run->id, "test/accuracy"))));
    // 1,800 training images in batches of 64: 29 steps an epoch, every step logged.
    QCOMPARE(db->metricPoints(run->id, "train/loss").size(), size_t(290));
    QCOMPARE(db->metricPoints(run->id, "val/accuracy").size(), size_t(10));
    // tracking.tensorboard: the same points in the run's event file, written as it trained.
    const QString events = tensorboard + "/slice_" + QString::fromStdString(run->uuid.substr(0, 8));
    const QStringList files = QDir(events).entryList({"events.out.tfevents.*"}, QDir::Files);
    QCOMPARE(files.size(), 1);
    const auto contents = tw::tracking::readEventFile((events + "/" + files[0]).toStdString());
    QVERIFY(contents.problems.empty());
    std::vector<tw::tracking::EventScalar> losses;
    for (const auto &s : contents.scalars)
      if (s.tag == "train/loss") losses.push_back(s);
    const auto storedLosses = db->metricPoints(run->id, "train/loss");
    QCOMPARE(losses.size(), storedLosses.size());
    for (size_t i = 0; i < losses.size(); ++i) {
      QCOMPARE(losses[i].step, storedLosses[i].step);
      QCOMPARE(losses[i].value, double(float(storedLosses[i].value)));
    }
    // It opens with the run's params for the HParams plugin and the model for the Graphs tab.
    QCOMPARE(contents.hparams, db->params(run->id));
    QFile eventFile(events + "/" + files[0]);
    QVERIFY(eventFile.open(QIODevice::ReadOnly));
    QVERIFY(eventFile.readAll().contains("_output_shapes"));
    QVERIFY(!run->dataFingerprint.empty());
    QVERIFY(!run->configHash.empty());
    QVERIFY2(QString::fromStdString(run->libraryVersions).contains("libtorch=1.13"),
             run->libraryVersions.c_str());
    QVERIFY(!run->hardware.empty());
    QCOMPARE(db->params(run->id).at("train.lr"), std::string("0.001"));
    QCOMPARE(db->params(run->id).at("tracking.run_name"), std::string("slice"));
    QVERIFY(QFile::exists(QString::fromStdString(run->runDir) + "/config.yaml"));
    // A confusion matrix per validation epoch, recorded as it is written, over the 200
    // validation images; its diagonal gives the accuracy logged for that epoch.
    const auto artifacts = db->artifacts(run->id);
    const auto accuracy = db->metricPoints(run->id, "val/accuracy");
    for (int epoch = 1; epoch <= 10; ++epoch) {
      const QString name = QString("artifacts/evaluations/val_epoch_%1.csv").arg(epoch, 3, 10, QChar('0'));
      QVERIFY2(std::count_if(artifacts.begin(), artifacts.end(),
                             [&](auto &a) { return a.path == name.toStdString() && a.kind == "confusion"; }) == 1,
               qPrintable(name));
      QFile file(QString::fromStdString(run->runDir) + "/" + name);
      QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(name));
      const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
      QCOMPARE(lines.size(), 11);  // header and ten classes
      int64_t total = 0, correct = 0;
      for (int row = 1; row < lines.size(); ++row) {
        const QStringList cells = lines[row].split(',');
        for (int column = 1; column < cells.size(); ++column) {
          total += cells[column].toLongLong();
          if (column == row) correct += cells[column].toLongLong();
        }
      }
      QCOMPARE(total, int64_t(200));
      QVERIFY(qAbs(double(correct) / double(total) - accuracy[size_t(epoch - 1)].value) < 1e-9);
    }

    auto list = runCli({"runs", "list", "--workspace", workspace()});
    QCOMPARE(list.exitCode, 0);
    QVERIFY2(list.out.contains(QString::fromStdString(run->uuid.substr(0, 8))), qPrintable(list.out));
    QVERIFY(list.out.contains("FINISHED"));
    auto show = runCli({"runs", "show", QString::fromStdString(run->uuid.substr(0, 6)), "--workspace", workspace()});
    QVERIFY2(show.exitCode == 0, qPrintable(show.all()));
    QVERIFY(show.out.contains("test/accuracy"));
    QVERIFY(show.out.contains("train.lr"));
    QVERIFY(show.out.contains("weights_sha256"));
    QVERIFY(show.out.contains("artifacts/test_confusion_matrix.csv"));

    // Labels, a note and the archive mark, as Studio's Runs page sets them.
    const QString id = QString::fromStdString(run->uuid.substr(0, 8));
    QCOMPARE(runCli({"runs", "tag", id, "baseline", "--workspace", workspace()}).exitCode, 0);
    QCOMPARE(runCli({"runs", "note", id, "first", "try", "--workspace", workspace()}).exitCode, 0);
    auto tagged = runCli({"runs", "list", "--workspace", workspace()});
    QVERIFY2(tagged.out.contains("baseline"), qPrintable(tagged.out));
    QVERIFY(runCli({"runs", "show", id, "--workspace", workspace()}).out.contains("first try"));
    QCOMPARE(runCli({"runs", "archive", id, "--workspace", workspace()}).exitCode, 0);
    auto hidden = runCli({"runs", "list", "--workspace", workspace()});
    QVERIFY2(!hidden.out.contains(id) && hidden.out.contains("1 archived not shown"), qPrintable(hidden.out));
    QVERIFY(runCli({"runs", "list", "--all", "--workspace", workspace()}).out.contains(id));
    QCOMPARE(runCli({"runs", "unarchive", id, "--workspace", workspace()}).exitCode, 0);
    QCOMPARE(runCli({"runs", "untag", id, "baseline", "--workspace", workspace()}).exitCode, 0);
    auto untagged = runCli({"runs", "list", "--workspace", workspace()});
    QVERIFY2(untagged.out.contains(id) && !untagged.out.contains("baseline"), qPrintable(untagged.out));
    QCOMPARE(runCli({"runs", "tag", "no-such-run", "x", "--workspace", workspace()}).exitCode, 1);
  }

  // train.init_from: a recorded run's checkpoint starts a new run, which records what it took; a
  // reference to no run, or to a checkpoint runs do not keep, is refused with nothing recorded.
  void startsFromARecordedRun() {
    QTemporaryDir dir;
    const QString ws = dir.path() + "/ws";
    const QString runFile = writeRunFile(dir.path());
    auto base = runCli({"train", runFile, "--workspace", ws, "--set", "tracking.run_name=base", "--set", "train.epochs=1"});
    QVERIFY2(base.exitCode == 0, qPrintable(base.all()));
    auto tuned = runCli({"train", runFile, "--workspace", ws, "--set", "tracking.run_name=tuned", "--set",
                         "train.epochs=1", "--set", "train.init_from=run:base@last"});
    QVERIFY2(tuned.exitCode == 0, qPrintable(tuned.all()));
    QVERIFY2(tuned.out.contains("weights from run:base@last: 6 of 6 tensors taken, 0 of another shape"), qPrintable(tuned.out));
    // `check` shows the same table before anything is trained or recorded.
    auto checked = runCli({"check", runFile, "--workspace", ws, "--set", "train.init_from=run:base@last"});
    QVERIFY2(checked.exitCode == 0 && checked.out.contains("weights from run:base@last (") &&
                 checked.out.contains("): 6 of 6 tensors taken"),
             qPrintable(checked.all()));
    auto db = tw::tracking::Store::open((ws + "/tracking.db").toStdString());
    const auto run = db->findRun("tuned");
    QVERIFY(run.has_value());
    const auto tags = db->tags(run->id);
    QVERIFY2(tags.count("init_from") && tags.at("init_from").find("(base), last checkpoint") != std::string::npos,
             tags.count("init_from") ? tags.at("init_from").c_str() : "no init_from tag");
    QCOMPARE(QString::fromStdString(tags.at("init_from.taken")), QStringLiteral("6 of 6 tensors"));
    QFile provenance(QString::fromStdString(run->runDir) + "/init_from.json");
    QVERIFY(provenance.open(QIODevice::ReadOnly));
    QVERIFY(provenance.readAll().contains("\"counts\":{\"taken\":6,\"shape mismatch\":0"));
    const auto artifacts = db->artifacts(run->id);
    QVERIFY(std::any_of(artifacts.begin(), artifacts.end(), [](const auto &a) { return a.path == "init_from.json"; }));

    const size_t recorded = db->listRuns().size();
    auto missing = runCli({"train", runFile, "--workspace", ws, "--set", "train.init_from=run:nosuch"});
    QCOMPARE(missing.exitCode, 1);
    QVERIFY2(missing.err.contains("train.init_from: no run matches 'nosuch'"), qPrintable(missing.err));
    auto epoch = runCli({"train", runFile, "--workspace", ws, "--set", "train.init_from=run:base@epoch-3"});
    QCOMPARE(epoch.exitCode, 1);
    QVERIFY2(epoch.err.contains("has no epoch-3 checkpoint") &&
                 epoch.err.contains("the run kept no epoch checkpoints (train.keep_epochs was 0)"),
             qPrintable(epoch.err));
    auto word = runCli({"train", runFile, "--workspace", ws, "--set", "train.init_from=run:base@final"});
    QCOMPARE(word.exitCode, 1);
    QVERIFY2(word.err.contains("@final names no checkpoint of a run (expected @best, @last or @epoch-N"), qPrintable(word.err));
    QCOMPARE(db->listRuns().size(), recorded);
  }

  // train.keep_epochs: the newest N ends of epochs stay as checkpoints/epoch-K.pt (the older ones
  // go, file and artifact row), and init_from, export and predict take them by name.
  void keptEpochCheckpointsStartExportAndPredict() {
    QTemporaryDir dir;
    const QString ws = dir.path() + "/ws";
    const QString runFile = writeRunFile(dir.path());
    auto base = runCli({"train", runFile, "--workspace", ws, "--set", "tracking.run_name=base", "--set",
                        "train.epochs=3", "--set", "train.keep_epochs=2"});
    QVERIFY2(base.exitCode == 0, qPrintable(base.all()));
    auto db = tw::tracking::Store::open((ws + "/tracking.db").toStdString());
    const auto run = db->findRun("base");
    QVERIFY(run.has_value());
    const QString folder = QString::fromStdString(run->runDir) + "/checkpoints/";
    QVERIFY(!QFile::exists(folder + "epoch-1.pt"));
    auto bytes = [&](const QString &name) {
      QFile file(folder + name);
      return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    };
    QVERIFY(!bytes("epoch-2.pt").isEmpty());
    QCOMPARE(bytes("epoch-3.pt"), bytes("last.pt"));  // the end of the last epoch is the last checkpoint
    QVERIFY(bytes("epoch-2.pt") != bytes("epoch-3.pt"));
    QStringList kept;
    for (const auto &a : db->artifacts(run->id))
      if (a.path.rfind("checkpoints/epoch-", 0) == 0) kept << QString::fromStdString(a.path);
    kept.sort();
    QCOMPARE(kept, (QStringList{"checkpoints/epoch-2.pt", "checkpoints/epoch-3.pt"}));

    auto tuned = runCli({"train", runFile, "--workspace", ws, "--set", "tracking.run_name=tuned", "--set",
                         "train.epochs=1", "--set", "train.init_from=run:base@epoch-2"});
    QVERIFY2(tuned.exitCode == 0 && tuned.out.contains("weights from run:base@epoch-2: 6 of 6 tensors taken"),
             qPrintable(tuned.all()));
    const auto tunedRun = db->findRun("tuned");
    QVERIFY(tunedRun.has_value());
    const auto tags = db->tags(tunedRun->id);
    QVERIFY2(tags.count("init_from") && tags.at("init_from").find("(base), epoch-2 checkpoint") != std::string::npos,
             tags.count("init_from") ? tags.at("init_from").c_str() : "no init_from tag");

    const QString out = dir.path() + "/epoch2.pt";
    auto exported = runCli({"export", "base", "--format", "torchscript", "--checkpoint", "epoch-2", "--out", out,
                            "--workspace", ws});
    QVERIFY2(exported.exitCode == 0 && QFile::exists(out), qPrintable(exported.all()));
    auto gone = runCli({"export", "base", "--format", "torchscript", "--checkpoint", "epoch-1", "--out",
                        dir.path() + "/epoch1.pt", "--workspace", ws});
    QCOMPARE(gone.exitCode, 1);
    QVERIFY2(gone.err.contains("it keeps epoch-2 and epoch-3"), qPrintable(gone.err));
    auto predicted = runCli({"predict", "base", "--checkpoint", "epoch-3", "--out", dir.path() + "/p.csv",
                             "--workspace", ws});
    QVERIFY2(predicted.exitCode == 0, qPrintable(predicted.all()));
    auto bad = runCli({"predict", "base", "--checkpoint", "epoch-0", "--out", dir.path() + "/q.csv", "--workspace", ws});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.contains("'epoch-0' names no checkpoint"), qPrintable(bad.err));
    const size_t recorded = db->listRuns().size();
    auto early = runCli({"train", runFile, "--workspace", ws, "--set", "train.init_from=run:base@epoch-1"});
    QCOMPARE(early.exitCode, 1);
    QVERIFY2(early.err.contains("it keeps epoch-2 and epoch-3"), qPrintable(early.err));
    QCOMPARE(db->listRuns().size(), recorded);
  }

  void badConfigKeyStopsBeforeARunExists() {
    QTemporaryDir dir;
    const QString runFile = writeRunFile(dir.path(), "extra_section: 1\n");
    const QString ws = dir.path() + "/ws";
    auto r = runCli({"train", runFile, "--workspace", ws});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("run.yaml:5:1: unknown key 'extra_section'"), qPrintable(r.err));
    QVERIFY(!QFile::exists(ws + "/tracking.db"));
    // A clean run file, so that the override is the only mistake.
    auto typo = runCli({"train", writeRunFile(dir.path()), "--workspace", ws, "--set", "train.lrate=1"});
    QCOMPARE(typo.exitCode, 1);
    QVERIFY2(typo.err.contains("unknown key 'train.lrate'"), qPrintable(typo.err));
  }

  // A data folder that is not there, or whose files are not IDX files, is refused before a run is
  // recorded; what the validator cannot see without reading a whole file (a ragged row in the
  // middle of a large table) fails the run with the reason.
  void missingDatasetFailsTheRunWithTheReason() {
    const QString runFile = writeRunFile(m_dir.path());
    auto r = runCli({"train", runFile, "--workspace", workspace(), "--set", "data.path=/nonexistent/fmnist",
                     "--set", "tracking.run_name=nodata"});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("field 'data.path'") && r.err.contains("/nonexistent/fmnist"), qPrintable(r.err));
    QVERIFY(!store()->findRun("nodata").has_value());

    const QString broken = m_dir.path() + "/broken-idx";
    QVERIFY(QDir().mkpath(broken));
    for (const char *name : {"train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte",
                             "t10k-labels-idx1-ubyte"}) {
      QFile file(broken + "/" + name);
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write("not an IDX file");
    }
    r = runCli({"train", runFile, "--workspace", workspace(), "--set", "data.path=" + broken,
                "--set", "tracking.run_name=notidx"});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("field 'data.path'") && r.err.contains(broken + "/train-images-idx3-ubyte: bad magic"),
             qPrintable(r.err));
    QVERIFY(!store()->findRun("notidx").has_value());

    // Past 1 MiB a table is checked by its first rows and its last ones: a row with a field too
    // few in the middle is the worker's to find.
    QFile source(QStringLiteral(TW_SOURCE_DIR "/resources/examples/data/houses.csv"));
    QVERIFY(source.open(QIODevice::ReadOnly));
    QList<QByteArray> lines = source.readAll().trimmed().split('\n');
    const QByteArray header = lines.takeFirst();
    QByteArray rows;
    while (rows.size() < 1.2 * (1 << 20)) rows += lines.join('\n') + '\n';
    const qsizetype middle = rows.indexOf('\n', rows.size() / 2) + 1;
    rows.remove(rows.indexOf(',', middle), rows.indexOf(',', rows.indexOf(',', middle) + 1) - rows.indexOf(',', middle));
    QFile table(m_dir.path() + "/ragged.csv");
    QVERIFY(table.open(QIODevice::WriteOnly));
    table.write(header + '\n' + rows);
    table.close();
    r = runCli({"train", QStringLiteral(TW_SOURCE_DIR "/resources/examples/houses_regression.run.yaml"), "--workspace",
                workspace(), "--set", "data.path=" + table.fileName(), "--set", "tracking.run_name=baddata"});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(table.fileName() + ":") && r.err.contains("6 fields, the header has 7"), qPrintable(r.err));
    auto run = store()->findRun("baddata");
    QVERIFY(run.has_value());
    QCOMPARE(run->status, RunStatus::Failed);
    QVERIFY2(QString::fromStdString(run->statusMessage).contains("loading data"), run->statusMessage.c_str());
  }

  void killedWorkerMarksTheRunFailed() {
    const QString runFile = writeRunFile(m_dir.path());
    QProcess cli;
    cli.start(TW_BIN_DIR "/torchwright", {"train", runFile, "--workspace", workspace(), "--set",
                                          "tracking.run_name=victim", "--set", "train.epochs=500"});
    QVERIFY(cli.waitForStarted());
    int64_t runId = 0;
    QTRY_VERIFY_WITH_TIMEOUT(([&] {
                               auto run = store()->findRun("victim");
                               if (!run || run->status != RunStatus::Running) return false;
                               runId = run->id;
                               return !store()->metricPoints(run->id, "train/loss").empty();
                             }()),
                             120000);
    QProcess pgrep;
    pgrep.start("pgrep", {"-f", "torchwright-worker --workspace " + workspace()});
    QVERIFY(pgrep.waitForFinished());
    const QStringList pids = QString::fromUtf8(pgrep.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(pids.size(), 1);
    QCOMPARE(::kill(pids[0].toInt(), SIGKILL), 0);
    QVERIFY(cli.waitForFinished(60000));
    QCOMPARE(cli.exitCode(), 1);
    QVERIFY(QString::fromUtf8(cli.readAllStandardError()).contains("killed by signal 9"));
    auto run = store()->run(runId);
    QCOMPARE(run->status, RunStatus::Failed);
    QVERIFY(!store()->metricPoints(runId, "train/loss").empty());  // what was recorded stays
  }

  void sigtermStopsGracefully() {
    const QString runFile = writeRunFile(m_dir.path());
    QProcess cli;
    cli.start(TW_BIN_DIR "/torchwright", {"train", runFile, "--workspace", workspace(), "--set",
                                          "tracking.run_name=stopped", "--set", "train.epochs=500"});
    QVERIFY(cli.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(([&] {
                               auto run = store()->findRun("stopped");
                               return run && !store()->metricPoints(run->id, "train/loss").empty();
                             }()),
                             120000);
    cli.terminate();  // SIGTERM to the CLI, which forwards it to the worker
    QVERIFY(cli.waitForFinished(60000));
    QCOMPARE(cli.exitCode(), 0);
    auto run = store()->findRun("stopped");
    QCOMPARE(run->status, RunStatus::Killed);
    QVERIFY(run->endMs > 0);
  }
};

QTEST_GUILESS_MAIN(TestCliTrain)
#include "test_cli_train.moc"
