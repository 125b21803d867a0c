// What a run does with its data, end to end through the real CLI and worker: the preprocessing
// record it writes beside its config, the warning for a classifier wider than the data, and the
// check of index inputs against an Embedding's range.

#include "cli_runner.h"

#include "core/config/run_config.h"
#include "core/data/data_splits.h"
#include "tracking/store.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

class TestCliData : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir m_dir;
  QString workspace() const { return m_dir.path() + "/ws"; }
  std::unique_ptr<tw::tracking::Store> store() const {
    return tw::tracking::Store::open((workspace() + "/tracking.db").toStdString());
  }

 private Q_SLOTS:
  void runWritesItsPreprocessingAndWarnsAboutSpareClasses() {
    const QString runFile = writeTextFile(m_dir.path() + "/spirals.yaml",
                                  "model:\n"
                                  "  name: wide\n"
                                  "  nodes:\n"
                                  "    - {id: x, op: Input, shape: [2]}\n"
                                  "    - {id: hidden, op: Linear, out_features: 16}\n"
                                  "    - {id: act, op: ReLU}\n"
                                  "    - {id: logits, op: Linear, out_features: 5}\n"
                                  "data: {dataset: spirals, samples: 300, classes: 3, noise: 0.1, batch_size: 32}\n"
                                  "train: {optimizer: adam, lr: 0.01, epochs: 2, seed: 3}\n"
                                  "tracking: {experiment: data, run_name: wide}\n");
    const QString warning = "output 'logits' gives 5 class scores but the data has 3 classes";
    const CliResult check = runCli({"check", runFile});
    QVERIFY2(check.exitCode == 0, qPrintable(check.all()));
    QVERIFY2(check.err.contains("warning: " + warning), qPrintable(check.all()));

    const CliResult r = runCli({"train", runFile, "--workspace", workspace()});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    QVERIFY2(r.err.contains(warning), qPrintable(r.all()));
    const auto run = store()->findRun("wide");
    QVERIFY(run);
    const QString runDir = QString::fromStdString(run->runDir);
    QVERIFY2(readTextFile(runDir + "/artifacts/worker.log").contains(warning), qPrintable(runDir));

    // The record is the one the data path made for this run's options and seed, byte for byte.
    const QString written = readTextFile(runDir + "/preprocessing.json");
    const tw::config::RunConfig config = tw::config::loadRunConfig(runFile.toStdString(), {});
    const tw::data::DataSplits splits = tw::data::loadDataSplits(config.data, config.train.seed);
    QCOMPARE(written, QString::fromStdString(tw::data::preprocessingJson(splits.preprocessing)));
    for (const char *part : {"\"dataset\": \"spirals\"", "\"input_shape\": [2]", "\"standardization\": \"per-feature\"",
                             "\"feature_names\": [\"x\", \"y\"]", "\"classes\": 3", "\"class_names\": [\"0\", \"1\", \"2\"]"})
      QVERIFY2(written.contains(part), part);
    bool recorded = false;
    // In the database too: the record itself, as the artifact's details.
    for (const auto &artifact : store()->artifacts(run->id))
      recorded = recorded || (artifact.path == "preprocessing.json" && QString::fromStdString(artifact.details) == written);
    QVERIFY(recorded);
  }

  void indexInputsBeyondTheEmbeddingNameNodeAndColumn() {
    writeTextFile(m_dir.path() + "/codes.csv", "a,b,y\n0,1,p\n1,2,q\n2,3,p\n3,4,q\n1,0,p\n2,1,q\n0,3,p\n3,2,q\n");
    const QString runFile = writeTextFile(m_dir.path() + "/codes.yaml",
                                  "model:\n"
                                  "  name: codes\n"
                                  "  nodes:\n"
                                  "    - {id: codes, op: Input, shape: [2], dtype: int64}\n"
                                  "    - {id: embed, op: Embedding, num_embeddings: 4, embedding_dim: 3}\n"
                                  "    - {id: flat, op: Flatten}\n"
                                  "    - {id: logits, op: Linear, out_features: 2}\n"
                                  "data: {dataset: csv, path: codes.csv, target: y, val_fraction: 0.25}\n"
                                  "train: {epochs: 1}\n"
                                  "tracking: {experiment: data, run_name: codes}\n");
    const CliResult r = runCli({"train", runFile, "--workspace", workspace()});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("column 'b' holds 4 (example 3), outside 0..3, the indices of Embedding 'embed' "
                            "(num_embeddings 4)"),
             qPrintable(r.all()));
    // Within the range, the codes reach the Embedding as they are: never standardised.
    writeTextFile(m_dir.path() + "/codes.csv", "a,b,y\n0,1,p\n1,2,q\n2,3,p\n3,0,q\n1,0,p\n2,1,q\n0,3,p\n3,2,q\n");
    const CliResult ok = runCli({"train", runFile, "--workspace", workspace(), "--set", "tracking.run_name=codes-ok"});
    QVERIFY2(ok.exitCode == 0, qPrintable(ok.all()));
    const QString written = readTextFile(QString::fromStdString(store()->findRun("codes-ok")->runDir) + "/preprocessing.json");
    QVERIFY2(written.contains("\"index_inputs\": true,\n  \"standardization\": \"none\""), qPrintable(written));
  }
};

QTEST_GUILESS_MAIN(TestCliData)
#include "test_cli_data.moc"
