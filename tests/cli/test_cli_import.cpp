// `torchwright import` end to end: the CLI hands the file to the worker, which writes a model file
// that `check` accepts and a weights file that `train.init_from` takes whole; the report names
// every ONNX node (as text and as JSON); usage errors exit 2, refused files exit 1 with nothing
// written. The ONNX files come from python3-torch (tests/import/make_onnx.py): a Fashion-MNIST-
// shaped network with folded shape arithmetic, and one with operators the registry lacks.
#include "cli_runner.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

class TestCliImport : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;
  QString path(const QString &name) const { return m_dir.path() + "/" + name; }

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(m_dir.isValid() && QDir(m_dir.path()).mkpath("out"));
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start("/usr/bin/python3", {TW_SOURCE_DIR "/tests/import/make_onnx.py", m_dir.path(), "folding", "topk"});
    p.waitForFinished(120000);
    QVERIFY2(QFile::exists(path("folding.onnx")) && QFile::exists(path("topk.onnx")), qPrintable(QString(p.readAll())));
  }

  void usageErrorsExitTwo() {
    const auto help = runCli({"import", "--help"});
    QCOMPARE(help.exitCode, 0);
    QVERIFY2(help.out.startsWith("usage: torchwright import MODEL.onnx [-o NAME.model.yaml]"), qPrintable(help.out));
    for (const QStringList &arguments :
         {QStringList{"import"}, QStringList{"import", path("folding.onnx"), "--input-shape", "3,x"},
          QStringList{"import", path("folding.onnx"), "--opset", "13"},
          QStringList{"import", path("folding.onnx"), "-o", path("out/net.onnx")}}) {
      const auto r = runCli(arguments);
      QVERIFY2(r.exitCode == 2, qPrintable(arguments.join(' ') + ": " + r.all()));
      QVERIFY2(r.err.contains("usage: torchwright import"), qPrintable(r.err));
    }
  }

  void refusedFilesExitOneAndWriteNothing() {
    const auto missing = runCli({"import", path("absent.onnx")});
    QCOMPARE(missing.exitCode, 1);
    QVERIFY2(missing.err.contains("absent.onnx: no such file"), qPrintable(missing.err));
    const auto topk = runCli({"import", path("topk.onnx"), "-o", path("out/topk.model.yaml")});
    QCOMPARE(topk.exitCode, 1);
    QVERIFY2(topk.err.contains("topk.onnx: 3 nodes have no registry op, so nothing was imported") &&
                 topk.err.contains("TopK x2: '/TopK', '/TopK_1'") && topk.err.contains("CumSum x1: '/CumSum'"),
             qPrintable(topk.err));
    QVERIFY(!QFile::exists(path("out/topk.model.yaml")) && !QFile::exists(path("out/topk.weights.pt")));
  }

  void importsChecksAndTrainsFromTheWeights() {
    const auto r = runCli({"import", path("folding.onnx"), "-o", path("out/net.model.yaml")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    QVERIFY(QFile::exists(path("out/net.model.yaml")) && QFile::exists(path("out/net.weights.pt")));
    QVERIFY2(r.out.contains("what each of the 20 ONNX nodes became (8 mapped, 1 folded, 10 constants, 1 dropped)"),
             qPrintable(r.out));
    QVERIFY2(QRegularExpression(R"(/Reshape\s+Reshape\s+-> reshape \(Flatten\): \[N, -1\])").match(r.out).hasMatch(),
             qPrintable(r.out));
    QVERIFY2(QRegularExpression(R"(/Add\s+Add\s+-> folded into matmul \(Linear\): bias)").match(r.out).hasMatch(),
             qPrintable(r.out));

    const auto check = runCli({"check", path("out/net.model.yaml")});
    QVERIFY2(check.exitCode == 0, qPrintable(check.all()));

    QFile run(path("out/run.yaml"));
    QVERIFY(run.open(QIODevice::WriteOnly));
    run.write("model: net.model.yaml\n"
              "data: {dataset: fashion-mnist, train_limit: 600, test_limit: 100, batch_size: 100, val_fraction: 0.1}\n"
              "train: {optimizer: adam, lr: 0.001, epochs: 1, seed: 3, init_from: net.weights.pt}\n"
              "tracking: {experiment: imported}\n");
    run.close();
    const auto train = runCli({"train", path("out/run.yaml"), "--workspace", path("ws")});
    QVERIFY2(train.exitCode == 0, qPrintable(train.all()));
    const auto taken = QRegularExpression(R"(weights from \S*net\.weights\.pt: (\d+) of (\d+) tensors taken, 0 of another shape, 0 not in the file, 0 in the file unused)")
                           .match(train.out);
    QVERIFY2(taken.hasMatch() && taken.captured(1) == taken.captured(2), qPrintable(train.out));
  }

  void reportAsJson() {
    const auto r = runCli({"import", path("folding.onnx"), "-o", path("out/json.model.yaml"), "--json"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    const QJsonObject report = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(report["opset"].toInt(), 11);
    QCOMPARE(report["model_nodes"].toInt(), 9);
    const QJsonArray nodes = report["nodes"].toArray();
    QCOMPARE(nodes.size(), 21);  // the graph input and 20 nodes
    QMap<QString, int> fates;
    for (const auto &n : nodes) ++fates[n.toObject()["fate"].toString()];
    QCOMPARE(fates["mapped"], 9);
    QCOMPARE(fates["folded"], 1);
    QCOMPARE(fates["constant"], 10);
    QCOMPARE(fates["dropped"], 1);
  }
};

QTEST_GUILESS_MAIN(TestCliImport)
#include "test_cli_import.moc"
