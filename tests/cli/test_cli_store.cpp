// The CLI on a PostgreSQL tracking store: chosen by --store, TW_STORE or the workspace's
// workspace.yaml, used by the worker and a sweep's trials alike, and never printing a password.
#include "cli_runner.h"
#include "tests/tracking/pg_cluster.h"
#include "tracking/store.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using tw::tracking::RunStatus;
using tw::tracking::Store;
using tw_test::PgCluster;

namespace {

const QString kRunFile = QStringLiteral(TW_SOURCE_DIR "/resources/examples/fashion_mlp.run.yaml");

QStringList smallTraining() {
  return {"--set", "train.epochs=1", "--set", "data.train_limit=600", "--set", "data.test_limit=200"};
}

bool writeFile(const QString &path, const QByteArray &text) {
  QFile file(path);
  return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(text) == text.size();
}

}  // namespace

class TestCliStore : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    if (!PgCluster::shared()) QSKIP(qPrintable(PgCluster::unavailable()));
  }

  void trainRecordsIntoTheStoreItIsGiven() {
    const std::string url = PgCluster::shared()->createDatabase();
    QTemporaryDir workspace;
    const auto train = runCli(QStringList{"train", kRunFile, "--workspace", workspace.path(), "--store",
                                          QString::fromStdString(url)} +
                              smallTraining());
    QVERIFY2(train.exitCode == 0, qPrintable(train.all()));
    // Nothing went to a SQLite file in the workspace; the run folder is there as always.
    QVERIFY(!QFile::exists(workspace.filePath("tracking.db")));
    auto store = Store::open(url);
    const auto runs = store->listRuns();
    QCOMPARE(runs.size(), size_t(1));
    QCOMPARE(runs[0].status, RunStatus::Finished);
    QVERIFY(QFile::exists(QString::fromStdString(runs[0].runDir)));
    // The worker wrote the metrics there, every epoch's and the test set's.
    QVERIFY(!store->metricPoints(runs[0].id, "val/accuracy").empty());
    QVERIFY(!store->metricPoints(runs[0].id, "test/accuracy").empty());

    const auto list = runCli({"runs", "list", "--json", "--workspace", workspace.path(), "--store",
                              QString::fromStdString(url)});
    QVERIFY2(list.exitCode == 0, qPrintable(list.all()));
    const QJsonArray rows = QJsonDocument::fromJson(list.out.toUtf8()).array();
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows[0].toObject()["id"].toString().toStdString(), runs[0].uuid);
  }

  void environmentAndWorkspaceSettingsChooseTheStore() {
    const std::string url = PgCluster::shared()->createDatabase();
    {
      auto store = Store::open(url);
      tw::tracking::NewRun run;
      run.name = "recorded-elsewhere";
      store->createRun(run);
    }
    QTemporaryDir workspace;
    auto environment = QProcessEnvironment::systemEnvironment();
    environment.insert("TW_STORE", QString::fromStdString(url));
    const auto fromEnvironment = runCli({"runs", "list", "--workspace", workspace.path()}, 60000, environment);
    QVERIFY2(fromEnvironment.exitCode == 0, qPrintable(fromEnvironment.all()));
    QVERIFY2(fromEnvironment.out.contains("recorded-elsewhere"), qPrintable(fromEnvironment.all()));

    QVERIFY(writeFile(workspace.filePath("workspace.yaml"), "# shared by the team\nstore: " + QByteArray(url.c_str()) + "\n"));
    const auto fromSettings = runCli({"runs", "list", "--workspace", workspace.path()});
    QVERIFY2(fromSettings.exitCode == 0, qPrintable(fromSettings.all()));
    QVERIFY2(fromSettings.out.contains("recorded-elsewhere"), qPrintable(fromSettings.all()));
    QVERIFY(!QFile::exists(workspace.filePath("tracking.db")));
  }

  void passwordInTheWorkspaceSettingsIsRefused() {
    QTemporaryDir workspace;
    const QByteArray url = QByteArray("postgresql://") + PgCluster::kPasswordUser + ":" + PgCluster::kPassword +
                           "@/postgres?host=" + PgCluster::shared()->socketDir().toUtf8();
    QVERIFY(writeFile(workspace.filePath("workspace.yaml"), "\nstore: " + url + "\n"));
    const auto list = runCli({"runs", "list", "--workspace", workspace.path()});
    QCOMPARE(list.exitCode, 1);
    QVERIFY2(list.err.contains(workspace.filePath("workspace.yaml") + ":2: store"), qPrintable(list.all()));
    QVERIFY2(list.err.contains("holds a password"), qPrintable(list.all()));
    QVERIFY2(!list.all().contains(PgCluster::kPassword), qPrintable(list.all()));
  }

  void workspaceSettingsThatDoNotReadAreNamed() {
    QTemporaryDir workspace;
    QVERIFY(writeFile(workspace.filePath("workspace.yaml"), "- store\n- postgresql://tw@db/runs\n"));
    const auto list = runCli({"runs", "list", "--workspace", workspace.path()});
    QCOMPARE(list.exitCode, 1);
    QVERIFY2(list.err.contains(workspace.filePath("workspace.yaml") + ":1: expected settings"), qPrintable(list.all()));
    QVERIFY(writeFile(workspace.filePath("workspace.yaml"), "store:\n"));
    const auto empty = runCli({"runs", "list", "--workspace", workspace.path()});
    QCOMPARE(empty.exitCode, 1);
    QVERIFY2(empty.err.contains(workspace.filePath("workspace.yaml") + ":1: store: expected a store URL"),
             qPrintable(empty.all()));
  }

  void wrongPasswordOnTheCommandLineIsNeverPrinted() {
    QTemporaryDir workspace;
    const QString url = QString("postgresql://") + PgCluster::kPasswordUser + ":wrong-s3cret@/postgres?host=" +
                        PgCluster::shared()->socketDir();
    const auto list = runCli({"runs", "list", "--workspace", workspace.path(), "--store", url});
    QCOMPARE(list.exitCode, 1);
    QVERIFY2(list.err.contains("password authentication failed"), qPrintable(list.all()));
    QVERIFY2(!list.all().contains("wrong-s3cret"), qPrintable(list.all()));
  }

  void unknownStoreSchemeIsBadUsage() {
    QTemporaryDir workspace;
    const auto list = runCli({"runs", "list", "--workspace", workspace.path(), "--store", "mysql://tw:s3cret@db/runs"});
    QCOMPARE(list.exitCode, 2);
    QVERIFY2(list.err.contains("--store") && list.err.contains("'mysql'"), qPrintable(list.all()));
    QVERIFY2(!list.all().contains("s3cret"), qPrintable(list.all()));
  }

  void sweepTrialsShareTheStore() {
    const std::string url = PgCluster::shared()->createDatabase();
    QTemporaryDir workspace;
    const QString base = workspace.filePath("small.run.yaml");
    QVERIFY(writeFile(base, "model: " TW_SOURCE_DIR "/resources/examples/fashion_mlp.model.yaml\n"
                            "data: {dataset: fashion-mnist, val_fraction: 0.1, batch_size: 64, normalize: true, "
                            "train_limit: 600, test_limit: 200}\n"
                            "train: {optimizer: adam, lr: 0.001, epochs: 1, seed: 1, threads: 1}\n"));
    const QString sweep = workspace.filePath("small.sweep.yaml");
    QVERIFY(writeFile(sweep, QByteArray("base: ") + base.toUtf8() + "\n" +
                                 "objective: {metric: val/accuracy, direction: maximize}\n"
                                 "space:\n  train.lr: {type: float, low: 1.0e-3, high: 0.1, log: true}\n"
                                 "sampler: {type: random, seed: 3}\n"
                                 "budget: {trials: 4}\nparallel: 2\n"));
    const auto result = runCli(QStringList{"sweep", sweep, "--workspace", workspace.path(), "--store",
                                           QString::fromStdString(url)});
    QVERIFY2(result.exitCode == 0, qPrintable(result.all()));
    auto store = Store::open(url);
    const auto study = store->findStudy("small");
    QVERIFY(study);
    const auto trials = store->trials(study->id);
    QCOMPARE(trials.size(), size_t(4));
    for (const auto &trial : trials) {
      QCOMPARE(trial.state, std::string("COMPLETE"));
      QVERIFY(trial.runId > 0);
      QVERIFY(store->run(trial.runId));
    }
    QCOMPARE(store->listRuns().size(), size_t(4));
  }
};

QTEST_GUILESS_MAIN(TestCliStore)
#include "test_cli_store.moc"
