// `torchwright runs`: how a person names a run (a name or any unique prefix of its id), what an
// ambiguous name says, and the JSON forms of `runs list` and `runs show`, on a workspace whose
// runs the test records itself.

#include "cli_runner.h"

#include "tracking/store.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using tw::tracking::RunStatus;

class TestCliRuns : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir m_dir;
  std::vector<tw::tracking::RunRecord> m_runs;  // alpha, twin, twin

  QString workspace() const { return m_dir.path(); }
  CliResult runs(QStringList arguments) {
    return runCli(QStringList{"runs"} + arguments + QStringList{"--workspace", workspace()});
  }
  // The shortest prefix of run i's id that no other run's id starts with.
  QString shortestUniquePrefix(size_t i) const {
    const std::string &id = m_runs[i].uuid;
    for (size_t length = 1; length <= id.size(); ++length) {
      bool unique = true;
      for (size_t j = 0; j < m_runs.size(); ++j)
        unique = unique && (j == i || m_runs[j].uuid.compare(0, length, id, 0, length) != 0);
      if (unique) return QString::fromStdString(id.substr(0, length));
    }
    return {};
  }

 private Q_SLOTS:
  void initTestCase() {
    auto store = tw::tracking::Store::open((workspace() + "/tracking.db").toStdString());
    for (const char *name : {"alpha", "twin", "twin"}) {
      tw::tracking::NewRun run;
      run.experiment = "e";
      run.name = name;
      m_runs.push_back(store->createRun(run));
    }
    store->setStatus(m_runs[0].id, RunStatus::Running);
    store->writeMetrics(m_runs[0].id, {{"val/accuracy", 3, 0.875, 0}, {"train/loss", 3, 0.25, 0}});
    store->setStatus(m_runs[0].id, RunStatus::Failed, "loading data: \"quoted\"\nand a second line");
    store->setParams(m_runs[0].id, {{"train.lr", "0.001"}});
    store->setTag(m_runs[0].id, "label.baseline", "");
  }

  void anyUniquePrefixNamesARun() {
    const QString prefix = shortestUniquePrefix(0);
    // Three random ids almost always differ in their first three digits; four used to be required.
    if (prefix.size() >= 4) QSKIP("the random run ids share their first three digits; nothing shorter to try");
    const auto r = runs({"show", prefix});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    QVERIFY2(r.out.contains(QString::fromStdString(m_runs[0].uuid)), qPrintable(r.out));
  }

  void ambiguousNameListsTheCandidates() {
    const auto r = runs({"show", "twin"});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("'twin' is ambiguous: it matches 2 runs"), qPrintable(r.err));
    QVERIFY2(r.err.contains(QString::fromStdString(m_runs[1].uuid)), qPrintable(r.err));
    QVERIFY2(r.err.contains(QString::fromStdString(m_runs[2].uuid)), qPrintable(r.err));
    // Each is reachable by its id.
    QCOMPARE(runs({"show", QString::fromStdString(m_runs[2].uuid.substr(0, 8))}).exitCode, 0);
  }

  void unknownRunSaysSo() {
    const auto r = runs({"tag", "no-such-run", "x"});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("no run matches 'no-such-run'"), qPrintable(r.err));
  }

  void listAsJson() {
    const auto r = runs({"list", "--json"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8(), &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString() + ": " + r.out));
    const QJsonArray list = doc.array();
    QCOMPARE(list.size(), 3);
    QJsonObject alpha;
    for (const auto &v : list)
      if (v.toObject()["name"] == "alpha") alpha = v.toObject();
    QCOMPARE(alpha["id"].toString(), QString::fromStdString(m_runs[0].uuid));
    QCOMPARE(alpha["status"].toString(), QString("FAILED"));
    QCOMPARE(alpha["status_message"].toString(), QString("loading data: \"quoted\"\nand a second line"));
    QCOMPARE(alpha["labels"].toArray(), QJsonArray{"baseline"});
    QCOMPARE(alpha["latest"].toObject()["val/accuracy"].toObject()["value"].toDouble(), 0.875);
    QCOMPARE(runs({"list", "--json", "--limit", "1"}).out.count("\"id\""), 1);
  }

  void showAsJson() {
    const auto r = runs({"show", "alpha", "--json"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8(), &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString() + ": " + r.out));
    const QJsonObject run = doc.object();
    QCOMPARE(run["name"].toString(), QString("alpha"));
    QCOMPARE(run["params"].toObject()["train.lr"].toString(), QString("0.001"));
    QVERIFY(run["tags"].toObject().contains("label.baseline"));
    QCOMPARE(run["metrics"].toObject()["train/loss"].toObject()["step"].toInt(), 3);
    QVERIFY(run["artifacts"].isArray());
  }

  // `runs export`: --to is required and checked before anything is read; a folder already
  // exported is refused until --force; each run says where it went.
  void exportWritesEachRunWhereItsToolReadsIt() {
    const QString out = m_dir.path() + "/exported";
    QCOMPARE(runs({"export", "alpha", out}).exitCode, 2);
    const auto wrongFormat = runs({"export", "alpha", out, "--to", "wandb"});
    QCOMPARE(wrongFormat.exitCode, 2);
    QVERIFY2(wrongFormat.err.contains("--to takes tensorboard or mlflow"), qPrintable(wrongFormat.err));
    QVERIFY(!QFileInfo::exists(out));
    const auto tb = runs({"export", "alpha", out + "/tb", "--to", "tensorboard"});
    QVERIFY2(tb.exitCode == 0, qPrintable(tb.all()));
    const QString folder = out + "/tb/alpha_" + QString::fromStdString(m_runs[0].uuid.substr(0, 8));
    QVERIFY2(tb.out.contains("exported alpha to " + folder), qPrintable(tb.out));
    // These runs were recorded without a configuration: no graph, said, and the rest exported.
    QVERIFY2(tb.out.contains("no model graph for alpha: the run has no recorded configuration"), qPrintable(tb.out));
    QCOMPARE(QDir(folder).entryList({"events.out.tfevents.*"}, QDir::Files).size(), 1);
    const auto again = runs({"export", "alpha", out + "/tb", "--to", "tensorboard"});
    QCOMPARE(again.exitCode, 1);
    QVERIFY2(again.err.contains("exists (export it again with --force to replace it)"), qPrintable(again.err));
    QCOMPARE(runs({"export", "alpha", out + "/tb", "--to", "tensorboard", "--force"}).exitCode, 0);
    const auto ml = runs({"export", "alpha", QString::fromStdString(m_runs[1].uuid), out + "/mlruns", "--to", "mlflow"});
    QVERIFY2(ml.exitCode == 0, qPrintable(ml.all()));
    QCOMPARE(ml.out.count("exported "), 2);
    QVERIFY(QFileInfo(out + "/mlruns/1/" + QString::fromStdString(m_runs[1].uuid) + "/meta.yaml").isFile());
    QVERIFY(QFileInfo(out + "/mlruns/1/" + QString::fromStdString(m_runs[0].uuid) + "/metrics/val/accuracy").isFile());

    // Into a workspace that has no database yet; the second import finds the runs again.
    const QString elsewhere = m_dir.path() + "/elsewhere";
    QCOMPARE(runCli({"runs", "import", "wandb", out + "/mlruns", "--workspace", elsewhere}).exitCode, 2);
    const auto first = runCli({"runs", "import", "mlflow", out + "/mlruns", "--workspace", elsewhere});
    QVERIFY2(first.exitCode == 0, qPrintable(first.all()));
    QVERIFY2(first.out.contains("imported alpha (" + QString::fromStdString(m_runs[0].uuid.substr(0, 8)) + ", 2 metric points)"),
             qPrintable(first.out));
    const auto second = runCli({"runs", "import", "mlflow", out + "/mlruns", "--workspace", elsewhere});
    QCOMPARE(second.out.count("found again"), 2);
    const auto missing = runCli({"runs", "import", "csv", out + "/none.csv", "--workspace", elsewhere});
    QCOMPARE(missing.exitCode, 1);
    QVERIFY2(missing.err.contains("cannot read"), qPrintable(missing.err));
  }
};

QTEST_GUILESS_MAIN(TestCliRuns)
#include "test_cli_runs.moc"
