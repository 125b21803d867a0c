// `torchwright import` end to end: the CLI hands the file to the worker, which writes a model file
// that `check` accepts and a weights file that `train.init_from` takes whole; the report names
// every ONNX node (as text and as JSON); usage errors exit 2, refused files exit 1 with nothing
// written. The ONNX files come from python3-torch (tests/import/make_onnx.py): a Fashion-MNIST-
// shaped network with folded shape arithmetic, and one with operators the registry lacks.
#include "cli_runner.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

namespace {

// ONNX written by hand in protobuf's wire format (this test links no ONNX library): y = x W^T + b
// as one Gemm, x [N, 4], W [3, 4] kept in an external file at `location`, b inline.
QByteArray varint(quint64 v) {
  QByteArray out;
  do {
    out.append(char((v & 0x7f) | (v > 0x7f ? 0x80 : 0)));
    v >>= 7;
  } while (v);
  return out;
}
QByteArray number(int field, qint64 v) { return varint(quint64(field) << 3) + varint(quint64(v)); }
QByteArray bytes(int field, const QByteArray &b) { return varint(quint64(field) << 3 | 2) + varint(quint64(b.size())) + b; }

QByteArray gemmWithExternalWeight(const QByteArray &location) {
  const QByteArray w = number(1, 3) + number(1, 4) + number(2, 1) + bytes(8, "w") +
                       bytes(13, bytes(1, "location") + bytes(2, location)) + number(14, 1);
  const QByteArray b = number(1, 3) + number(2, 1) + bytes(8, "b") + bytes(9, QByteArray(12, '\0'));
  auto tensorType = [](const QByteArray &dims) { return bytes(2, bytes(1, number(1, 1) + bytes(2, dims))); };
  const QByteArray x = bytes(1, "x") + tensorType(bytes(1, bytes(2, "N")) + bytes(1, number(1, 4)));
  const QByteArray y = bytes(1, "y") + tensorType(bytes(1, bytes(2, "N")) + bytes(1, number(1, 3)));
  const QByteArray node = bytes(1, "x") + bytes(1, "w") + bytes(1, "b") + bytes(2, "y") + bytes(3, "fc") +
                          bytes(4, "Gemm") + bytes(5, bytes(1, "transB") + number(3, 1) + number(20, 2));
  const QByteArray graph = bytes(1, node) + bytes(2, "g") + bytes(5, w) + bytes(5, b) + bytes(11, x) + bytes(12, y);
  return number(1, 7) + bytes(8, bytes(1, "") + number(2, 13)) + bytes(7, graph);
}

}  // namespace

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

  // Names that must stay in their folder (config/safe_path.h): an ONNX file's external data
  // names its file, and `..`, an absolute path, a symbolic link out and a hard link are each
  // refused with the tensor and the reason, nothing written; a file beside the model is read.
  void externalDataStaysInTheModelsFolder() {
    QVERIFY(QDir(m_dir.path()).mkpath("ext") && QDir(m_dir.path()).mkpath("outside"));
    QByteArray floats;
    for (int i = 0; i < 12; ++i) {
      const float v = 0.25f * float(i);
      floats.append(reinterpret_cast<const char *>(&v), sizeof v);
    }
    for (const QString &name : {path("ext/weights.bin"), path("outside/weights.bin")}) {
      QFile f(name);
      QVERIFY(f.open(QIODevice::WriteOnly) && f.write(floats) == floats.size());
    }
    QVERIFY(QFile::link(path("outside/weights.bin"), path("ext/link.bin")));
    QVERIFY(::link(qPrintable(path("outside/weights.bin")), qPrintable(path("ext/hard.bin"))) == 0);
    auto model = [&](const QString &stem, const QString &location) {
      QFile f(path("ext/" + stem + ".onnx"));
      if (f.open(QIODevice::WriteOnly)) f.write(gemmWithExternalWeight(location.toUtf8()));
      return f.fileName();
    };
    const auto inside = runCli({"import", model("inside", "weights.bin"), "-o", path("ext/inside.model.yaml")});
    QVERIFY2(inside.exitCode == 0, qPrintable(inside.all()));
    QVERIFY(QFile::exists(path("ext/inside.weights.pt")));
    const QList<QPair<QString, QString>> escapes{{"../outside/weights.bin", "climbs out of"},
                                                  {path("outside/weights.bin"), "is an absolute path"},
                                                  {"link.bin", "through a symbolic link"},
                                                  {"hard.bin", "is a hard link"}};
    int n = 0;
    for (const auto &[location, why] : escapes) {
      const QString stem = QString("escape%1").arg(n++);
      const auto r = runCli({"import", model(stem, location), "-o", path("ext/" + stem + ".model.yaml")});
      QVERIFY2(r.exitCode == 1, qPrintable(location + ": " + r.all()));
      QVERIFY2(r.err.contains(stem + ".onnx: tensor 'w' keeps its data in '" + location + "'") && r.err.contains(why),
               qPrintable(r.err));
      QVERIFY(!QFile::exists(path("ext/" + stem + ".model.yaml")) && !QFile::exists(path("ext/" + stem + ".weights.pt")));
    }
  }

  // The model file and its weights are written by rename: a link planted at either name (to a
  // file elsewhere) is replaced, and the file it pointed at keeps its bytes.
  void importNeverWritesThroughALink() {
    QVERIFY(QDir(m_dir.path()).mkpath("linked") && QDir(m_dir.path()).mkpath("victims"));
    for (const char *victim : {"victims/model.yaml", "victims/weights.pt"}) {
      QFile f(path(victim));
      QVERIFY(f.open(QIODevice::WriteOnly) && f.write("not yours") == 9);
    }
    QVERIFY(QFile::link(path("victims/model.yaml"), path("linked/sym.model.yaml")));
    QVERIFY(QFile::link(path("victims/weights.pt"), path("linked/sym.weights.pt")));
    QVERIFY(::link(qPrintable(path("victims/model.yaml")), qPrintable(path("linked/hard.model.yaml"))) == 0);
    QVERIFY(::link(qPrintable(path("victims/weights.pt")), qPrintable(path("linked/hard.weights.pt"))) == 0);
    for (const char *stem : {"sym", "hard"}) {
      const QString out = path(QString("linked/%1.model.yaml").arg(stem));
      const auto r = runCli({"import", path("folding.onnx"), "-o", out});
      QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
      for (const QString &written : {out, path(QString("linked/%1.weights.pt").arg(stem))}) {
        const QFileInfo info(written);
        QVERIFY2(!info.isSymLink() && info.isFile() && info.size() > 9, qPrintable(written));
      }
    }
    for (const char *victim : {"victims/model.yaml", "victims/weights.pt"}) {
      QFile f(path(victim));
      QVERIFY(f.open(QIODevice::ReadOnly));
      QCOMPARE(f.readAll(), QByteArray("not yours"));
    }
  }
};

QTEST_GUILESS_MAIN(TestCliImport)
#include "test_cli_import.moc"
