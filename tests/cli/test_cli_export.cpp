// `torchwright export` and `predict` end to end on a trained CNN (batch norm with its running statistics): the
// TorchScript file loads in python3-torch with its lineage, the ONNX file gives python3-torch's
// outputs in ONNX Runtime, both are artifacts of the run with their SHA-256, and bad requests are
// refused before anything is written. TorchScript from outside the workspace loads only with
// --trust-torchscript, a weights file holding code is refused, and no output is written through a link.
#include "cli_runner.h"

#include "tracking/store.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

namespace {

QString sha256Of(const QString &path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QString::fromLatin1(QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex());
}

QString runProgram(const QString &program, const QStringList &args, int *code) {
  QProcess p;
  p.setProcessChannelMode(QProcess::MergedChannels);
  p.start(program, args);
  p.waitForFinished(300000);
  *code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  return QString::fromUtf8(p.readAll());
}

}  // namespace

class TestCliExport : public QObject {
  Q_OBJECT

  QTemporaryDir m_dir;
  QString m_run;

  QString workspace() const { return m_dir.path() + "/ws"; }
  QString file(const QString &name) const { return m_dir.path() + "/" + name; }
  CliResult exportRun(const QStringList &extra) {
    return runCli(QStringList{"export", m_run, "--workspace", workspace()} + extra);
  }

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(m_dir.isValid());
    const auto r = runCli({"train", QStringLiteral(TW_SOURCE_DIR "/resources/examples/fashion_cnn.run.yaml"), "--set",
                           "train.epochs=1", "--set", "data.train_limit=1500", "--set", "data.test_limit=300", "--set",
                           "train.warmup_steps=0", "--workspace", workspace()});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    auto store = tw::tracking::Store::open((workspace() + "/tracking.db").toStdString());
    m_run = QString::fromStdString(store->listRuns().front().uuid);
  }

  void torchScriptLoadsInPythonAndOnnxAgreesInOnnxRuntime() {
    const auto ts = exportRun({"--format", "torchscript", "--out", file("cnn.pt")});
    QVERIFY2(ts.exitCode == 0, qPrintable(ts.all()));
    QVERIFY2(ts.out.contains("largest difference from the trained model"), qPrintable(ts.out));
    QVERIFY2(ts.out.contains("baked in"), qPrintable(ts.out));
    const auto onnx = exportRun({"--format", "onnx", "--opset", "13", "--out", file("cnn.onnx")});
    QVERIFY2(onnx.exitCode == 0, qPrintable(onnx.all()));
    QVERIFY2(onnx.out.contains("ONNX checker and shape inference passed (opset 13); largest difference from the "
                               "trained model"),
             qPrintable(onnx.out));
    const QRegularExpression difference("largest difference from the trained model ([0-9.e+-]+)");
    const auto match = difference.match(onnx.out);
    QVERIFY2(match.hasMatch() && match.captured(1).toDouble() <= 1e-4, qPrintable(onnx.out));

    // Both are artifacts of the run, each with the SHA-256 of the file on disk.
    auto store = tw::tracking::Store::open((workspace() + "/tracking.db").toStdString());
    const auto run = store->findRun(m_run.toStdString());
    QVERIFY(run);
    int found = 0;
    for (const auto &a : store->artifacts(run->id)) {
      const QString path = QString::fromStdString(a.path);
      if (path == file("cnn.pt") || path == file("cnn.onnx")) {
        ++found;
        QCOMPARE(QString::fromStdString(a.kind), path.endsWith(".pt") ? QString("export:torchscript") : QString("export:onnx"));
        QCOMPARE(QString::fromStdString(a.sha256), sha256Of(path));
      }
    }
    QCOMPARE(found, 2);

    // python3-torch loads the TorchScript file and reads its lineage; ONNX Runtime gives the same
    // outputs on the same raw inputs.
    QTemporaryDir cases;
    int code = 0;
    const QString scripts = QStringLiteral(TW_SOURCE_DIR "/tests/export/");
    const QString py =
        runProgram("/usr/bin/python3", {scripts + "torchscript_case.py", cases.path(), file("cnn.pt"), file("cnn.onnx")}, &code);
    QVERIFY2(code == 0, qPrintable(py));
    const QJsonObject meta = QJsonDocument::fromJson(py.trimmed().split('\n').last().toUtf8()).object();
    QCOMPARE(meta["run_id"].toString(), m_run);
    QCOMPARE(meta["preprocessing_baked"].toBool(), true);
    const QString ortDir = QStringLiteral(TW_ONNXRUNTIME_DIR);
    if (!QFile::exists(ortDir + "/node_modules/onnxruntime-node/package.json"))
      QFAIL(qPrintable("ONNX Runtime is not installed in " + ortDir + ": run packaging/install-test-tools.sh"));
    const QString ort = runProgram("node", {scripts + "check_onnx.mjs", cases.path(), ortDir}, &code);
    const QJsonObject result = QJsonDocument::fromJson(ort.trimmed().toUtf8()).object();
    QVERIFY2(result.contains("max_diff") && result["max_diff"].toDouble() <= 1e-4, qPrintable(ort));
  }

  // A model file exports without a run: with a checkpoint's weights it computes what the run's
  // own export computes (without the baked-in standardisation); beside it, `<stem>.weights.pt`
  // is taken by default; without weights the seed decides; weights that leave a tensor out are
  // refused with the list and nothing written.
  void modelFileExportsWithoutARun() {
    auto store = tw::tracking::Store::open((workspace() + "/tracking.db").toStdString());
    const QString runDir = QString::fromStdString(store->findRun(m_run.toStdString())->runDir);
    const QString model = QStringLiteral(TW_SOURCE_DIR "/resources/examples/fashion_cnn.model.yaml");
    const auto fromRun = exportRun({"--format", "torchscript", "--no-preprocessing", "--out", file("run-raw.pt")});
    QVERIFY2(fromRun.exitCode == 0, qPrintable(fromRun.all()));
    const auto fromFile = runCli({"export", model, "--format", "torchscript", "--weights", runDir + "/checkpoints/best.pt",
                                  "--out", file("file.pt")});
    QVERIFY2(fromFile.exitCode == 0, qPrintable(fromFile.all()));
    QVERIFY2(fromFile.out.contains("weights from " + runDir + "/checkpoints/best.pt"), qPrintable(fromFile.out));
    int code = 0;
    const QString same = runProgram(
        "/usr/bin/python3",
        {"-c", QStringLiteral("import torch, sys\ntorch.manual_seed(0)\nx = torch.randn(4, 1, 28, 28)\n"
                              "a = torch.jit.load(sys.argv[1])(x); b = torch.jit.load(sys.argv[2])(x)\n"
                              "print(float((a - b).abs().max()))\n"),
         file("run-raw.pt"), file("file.pt")},
        &code);
    QVERIFY2(code == 0 && same.trimmed().toDouble() <= 1e-5, qPrintable(same));  // the reload check's limit

    QTemporaryDir beside;
    QVERIFY(QFile::copy(model, beside.filePath("net.model.yaml")));
    QVERIFY(QFile::copy(runDir + "/checkpoints/best.pt", beside.filePath("net.weights.pt")));
    const auto besideOnnx = runCli({"export", beside.filePath("net.model.yaml"), "--format", "onnx", "--out", file("net.onnx")});
    QVERIFY2(besideOnnx.exitCode == 0 && besideOnnx.out.contains("weights from " + beside.filePath("net.weights.pt")),
             qPrintable(besideOnnx.all()));

    const auto seeded = runCli({"export", model, "--format", "onnx", "--out", file("seed42.onnx")});
    QVERIFY2(seeded.exitCode == 0 && seeded.out.contains("initialised from seed 42"), qPrintable(seeded.all()));
    QVERIFY(runCli({"export", model, "--format", "onnx", "--out", file("seed42b.onnx")}).exitCode == 0);
    QVERIFY(runCli({"export", model, "--format", "onnx", "--seed", "7", "--out", file("seed7.onnx")}).exitCode == 0);
    QCOMPARE(sha256Of(file("seed42b.onnx")), sha256Of(file("seed42.onnx")));
    QVERIFY(sha256Of(file("seed7.onnx")) != sha256Of(file("seed42.onnx")));

    QFile original(model);
    QVERIFY(original.open(QIODevice::ReadOnly));
    QFile renamed(file("renamed.model.yaml"));
    QVERIFY(renamed.open(QIODevice::WriteOnly));
    renamed.write(original.readAll().replace("id: logits", "id: classes").replace("output: logits", "output: classes"));
    renamed.close();
    const auto partial = runCli({"export", file("renamed.model.yaml"), "--format", "onnx", "--weights",
                                 runDir + "/checkpoints/best.pt", "--out", file("partial.onnx")});
    QCOMPARE(partial.exitCode, 1);
    QVERIFY2(partial.err.contains("does not give every tensor") && partial.err.contains("missing         classes.weight"),
             qPrintable(partial.err));
    QVERIFY(!QFile::exists(file("partial.onnx")));
    QCOMPARE(runCli({"export", model, "--format", "onnx", "--int8", "--out", file("x.onnx")}).exitCode, 2);
  }

  // predict on a model file: its data is standardised as the run on it was (statistics of the
  // same training split), so with the run's weights it scores what the run's own predict scores.
  void predictOnAModelFileMatchesTheRun() {
    auto store = tw::tracking::Store::open((workspace() + "/tracking.db").toStdString());
    const QString runDir = QString::fromStdString(store->findRun(m_run.toStdString())->runDir);
    const QStringList sameData{"--set", "data.train_limit=1500", "--set", "data.test_limit=300"};
    const auto fromRun = runCli(QStringList{"predict", m_run, "--workspace", workspace(), "--out", file("run.csv")});
    QVERIFY2(fromRun.exitCode == 0, qPrintable(fromRun.all()));
    const auto fromFile = runCli(QStringList{"predict", QStringLiteral(TW_SOURCE_DIR "/resources/examples/fashion_cnn.model.yaml"),
                                             "--data", QStringLiteral(TW_SOURCE_DIR "/resources/examples/fashion_cnn.run.yaml"),
                                             "--weights", runDir + "/checkpoints/best.pt", "--out", file("file.csv")} + sameData);
    QVERIFY2(fromFile.exitCode == 0, qPrintable(fromFile.all()));
    QVERIFY2(fromFile.out.contains("statistics fitted on this data's training split"), qPrintable(fromFile.out));
    const QRegularExpression accuracy("accuracy ([0-9.]+)  macro F1 ([0-9.]+)");
    const auto a = accuracy.match(fromRun.out), b = accuracy.match(fromFile.out);
    QVERIFY2(a.hasMatch() && b.hasMatch(), qPrintable(fromRun.out + fromFile.out));
    QCOMPARE(b.captured(0), a.captured(0));
    QCOMPARE(runCli({"predict", QStringLiteral(TW_SOURCE_DIR "/resources/examples/fashion_cnn.model.yaml"), "--out",
                     file("nodata.csv")}).exitCode, 2);
  }

  // int8: about a quarter of the float file, and ONNX Runtime's accuracy on real test images is
  // the one the export reported (simulated in LibTorch) and close to the float model's.
  void int8OnnxIsSmallAndRunsInOnnxRuntime() {
    const auto f = exportRun({"--format", "onnx", "--out", file("float.onnx")});
    QVERIFY2(f.exitCode == 0, qPrintable(f.all()));
    const auto q = exportRun({"--format", "onnx", "--int8", "--out", file("int8.onnx")});
    QVERIFY2(q.exitCode == 0, qPrintable(q.all()));
    // Checked against the simulation of its arithmetic, with the limit the check applied.
    const auto checked = QRegularExpression("largest difference from the int8 simulation ([0-9.e+-]+) \\(limit ([0-9.e+-]+)\\)")
                             .match(q.out);
    QVERIFY2(checked.hasMatch() && checked.captured(1).toDouble() <= checked.captured(2).toDouble(), qPrintable(q.out));
    // Calibrated on the first 1,024 of the run's 1,350 training examples (the README's figure).
    QVERIFY2(q.out.contains("int8: calibrated on 1,024 training examples"), qPrintable(q.out));
    const QRegularExpression report("test accuracy ([0-9.]+) \\(float ([0-9.]+)");
    const auto match = report.match(q.out);
    QVERIFY2(match.hasMatch(), qPrintable(q.out));
    const double reported = match.captured(1).toDouble(), reportedFloat = match.captured(2).toDouble();
    QVERIFY2(QFileInfo(file("int8.onnx")).size() <= 0.3 * QFileInfo(file("float.onnx")).size(),
             qPrintable(QString::number(QFileInfo(file("int8.onnx")).size())));

    QTemporaryDir images;
    int code = 0;
    const QString scripts = QStringLiteral(TW_SOURCE_DIR "/tests/export/");
    const QString slice = runProgram("/usr/bin/python3",
                                     {scripts + "fashion_slice.py", QStringLiteral(TW_FASHION_MNIST_DIR), images.path(), "300"}, &code);
    QVERIFY2(code == 0, qPrintable(slice));
    const QString ort = runProgram("node", {scripts + "onnx_accuracy.mjs", images.path(), QStringLiteral(TW_ONNXRUNTIME_DIR),
                                            file("float.onnx"), file("int8.onnx")}, &code);
    QVERIFY2(code == 0, qPrintable(ort));
    const QStringList lines = ort.trimmed().split('\n');
    QCOMPARE(lines.size(), 2);
    const double floatAccuracy = QJsonDocument::fromJson(lines[0].toUtf8()).object()["accuracy"].toDouble();
    const double int8Accuracy = QJsonDocument::fromJson(lines[1].toUtf8()).object()["accuracy"].toDouble();
    // The run's test split is the first 300 test images (data.test_limit), as here.
    QVERIFY2(std::abs(floatAccuracy - reportedFloat) < 1e-9, qPrintable(ort + q.out));
    QVERIFY2(std::abs(int8Accuracy - reported) <= 2.0 / 300, qPrintable(ort + q.out));
    QVERIFY2(int8Accuracy >= floatAccuracy - 0.03, qPrintable(ort));
  }

  void badRequestsWriteNothing() {
    const QString out = file("refused.onnx");
    auto r = exportRun({"--format", "onnx", "--opset", "12", "--out", out});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("--opset expects a whole number from 13 to 17"), qPrintable(r.err));
    r = exportRun({"--format", "keras", "--out", out});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("--format must be torchscript or onnx"), qPrintable(r.err));
    r = exportRun({"--format", "onnx", "--out", file("missing/model.onnx")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("missing does not exist"), qPrintable(r.err));
    r = exportRun({"--format", "torchscript", "--int8", "--out", out});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("--int8 applies to ONNX only"), qPrintable(r.err));
    r = exportRun({"--format", "torchscript", "--checkpoint", "last", "--opset", "17", "--out", out});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("--opset applies to ONNX only"), qPrintable(r.err));
    QVERIFY(!QFile::exists(out));
  }

  // predict on the run reproduces its recorded test accuracy, and the exported file (raw inputs,
  // standardisation baked in) gives the same rows.
  void predictMatchesTheRunAndItsExport() {
    const auto byRun = runCli({"predict", m_run, "--out", file("run.csv"), "--workspace", workspace()});
    QVERIFY2(byRun.exitCode == 0, qPrintable(byRun.all()));
    auto store = tw::tracking::Store::open((workspace() + "/tracking.db").toStdString());
    const auto run = store->findRun(m_run.toStdString());
    double recorded = -1;
    for (const auto &m : store->latestMetrics(run->id))
      if (m.key == "test/accuracy") recorded = m.value;
    QVERIFY2(byRun.out.contains(QString("accuracy %1 ").arg(recorded, 0, 'g', 4)), qPrintable(byRun.out));

    const auto exported = exportRun({"--format", "torchscript", "--out", file("predict.pt")});
    QVERIFY2(exported.exitCode == 0, qPrintable(exported.all()));
    const auto byFile = runCli({"predict", file("predict.pt"), "--out", file("file.csv"), "--set", "data.test_limit=300",
                                "--workspace", workspace()});
    QVERIFY2(byFile.exitCode == 0, qPrintable(byFile.all()));
    QVERIFY2(!byFile.err.contains("warning"), qPrintable(byFile.err));  // the workspace's own export
    QFile a(file("run.csv")), b(file("file.csv"));
    QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
    const QList<QByteArray> rowsA = a.readAll().split('\n'), rowsB = b.readAll().split('\n');
    QCOMPARE(rowsA.size(), 302);  // header, 300 rows, the final newline
    QCOMPARE(rowsB.size(), rowsA.size());
    QVERIFY(rowsA[0].startsWith("row,predicted,label,p_T-shirt/top,"));
    for (int i = 1; i < rowsA.size() - 1; ++i) {
      const QList<QByteArray> x = rowsA[i].split(','), y = rowsB[i].split(',');
      QCOMPARE(x.mid(0, 3), y.mid(0, 3));  // row, predicted class, label
      for (int k = 3; k < x.size(); ++k) QVERIFY(std::abs(x[k].toDouble() - y[k].toDouble()) < 1e-4);
    }
  }

  // TorchScript is code. A file this workspace exported (its SHA-256 recorded) loads; the same
  // file asked of another workspace, or a copy whose bytes differ from the recorded ones, is
  // refused naming the file and --trust-torchscript, nothing written; with the flag it loads and
  // the warning says it is code. The flag belongs to TorchScript files only.
  void torchScriptFromElsewhereLoadsOnlyWhenTrusted() {
    const auto exported = exportRun({"--format", "torchscript", "--out", file("ours.pt")});
    QVERIFY2(exported.exitCode == 0, qPrintable(exported.all()));
    const QStringList data{"--set", "data.test_limit=50"};
    auto r = runCli(QStringList{"predict", file("ours.pt"), "--out", file("ours.csv"), "--workspace", workspace()} + data);
    QVERIFY2(r.exitCode == 0 && !r.err.contains("warning"), qPrintable(r.all()));

    int code = 0;
    const QString resaved = runProgram(
        "/usr/bin/python3",
        {"-c", QStringLiteral("import sys, torch\nextra = {'torchwright.json': ''}\n"
                              "m = torch.jit.load(sys.argv[1], _extra_files=extra)\n"
                              "torch.jit.save(m, sys.argv[2], _extra_files=extra)\n"),
         file("ours.pt"), file("resaved.pt")},
        &code);
    QVERIFY2(code == 0, qPrintable(resaved));
    QVERIFY(sha256Of(file("resaved.pt")) != sha256Of(file("ours.pt")));
    const QString other = m_dir.path() + "/other-ws";  // a workspace that exported nothing
    for (const QStringList &source : {QStringList{file("ours.pt"), "--workspace", other},
                                      QStringList{file("resaved.pt"), "--workspace", workspace()}}) {
      r = runCli(QStringList{"predict"} + source + QStringList{"--out", file("untrusted.csv")} + data);
      QCOMPARE(r.exitCode, 1);
      QVERIFY2(r.err.contains(source[0] + " is TorchScript that this workspace") && r.err.contains("--trust-torchscript") &&
                   r.err.contains("TorchScript is code"),
               qPrintable(r.err));
      QVERIFY(!QFile::exists(file("untrusted.csv")));

      r = runCli(QStringList{"predict"} + source + QStringList{"--out", file("trusted.csv"), "--trust-torchscript"} + data);
      QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
      QVERIFY2(r.err.contains("warning: " + source[0] + " is TorchScript from outside this workspace") &&
                   r.err.contains("it is code"),
               qPrintable(r.err));
      QFile a(file("ours.csv")), b(file("trusted.csv"));
      QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
      QCOMPARE(b.readAll(), a.readAll());
      QFile::remove(file("trusted.csv"));
    }
    r = runCli({"predict", m_run, "--out", file("x.csv"), "--trust-torchscript", "--workspace", workspace()});
    QVERIFY2(r.exitCode == 2 && r.err.contains("--trust-torchscript applies to a TorchScript file"), qPrintable(r.all()));
    QVERIFY(runCli({"predict", "--help"}).out.contains("--trust-torchscript"));
  }

  // An export is written by rename: a symbolic or hard link planted at --out (to a file elsewhere)
  // is replaced, never written through. `..` and an absolute path in --out are the user's own
  // choice of place, taken as given: the file lands exactly there.
  void exportNeverWritesThroughALink() {
    QVERIFY(QDir(m_dir.path()).mkpath("links") && QDir(m_dir.path()).mkpath("victims"));
    QFile victim(file("victims/victim.onnx"));
    QVERIFY(victim.open(QIODevice::WriteOnly) && victim.write("not yours") == 9);
    victim.close();
    QVERIFY(QFile::link(file("victims/victim.onnx"), file("links/sym.onnx")));
    QVERIFY(::link(qPrintable(file("victims/victim.onnx")), qPrintable(file("links/hard.onnx"))) == 0);
    for (const char *name : {"links/sym.onnx", "links/hard.onnx"}) {
      const auto r = exportRun({"--format", "onnx", "--out", file(name)});
      QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
      const QFileInfo written(file(name));
      QVERIFY2(!written.isSymLink() && written.isFile() && written.size() > 9, name);
    }
    QVERIFY(victim.open(QIODevice::ReadOnly));
    QCOMPARE(victim.readAll(), QByteArray("not yours"));

    QProcess cli;
    cli.setWorkingDirectory(file("links"));
    cli.start(TW_BIN_DIR "/torchwright", {"export", m_run, "--workspace", workspace(), "--format", "onnx", "--out",
                                          "../victims/relative.onnx"});
    QVERIFY(cli.waitForFinished(300000));
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
    QVERIFY(QFileInfo(file("victims/relative.onnx")).isFile() && !QFile::exists(file("links/relative.onnx")));
    const auto absolute = exportRun({"--format", "onnx", "--out", file("victims/absolute.onnx")});
    QVERIFY2(absolute.exitCode == 0 && QFileInfo(file("victims/absolute.onnx")).isFile(), qPrintable(absolute.all()));
  }

  // A weights file is data: one whose TorchScript archive defines a method (which loading would
  // run) is refused before LibTorch reads it, for export and predict alike, nothing written.
  void weightsThatHoldCodeAreNotLoaded() {
    // torch.jit.script reads the class's source, so the script is a file, not `python3 -c`.
    QFile script(file("code_weights.py"));
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write("import sys, torch\nclass M(torch.nn.Module):\n"
                 "    def __init__(self):\n        super().__init__()\n"
                 "        self.w = torch.nn.Parameter(torch.zeros(2))\n"
                 "    def forward(self, x):\n        return x\n"
                 "torch.jit.save(torch.jit.script(M()), sys.argv[1])\n");
    script.close();
    int code = 0;
    const QString made = runProgram("/usr/bin/python3", {script.fileName(), file("code.weights.pt")}, &code);
    QVERIFY2(code == 0, qPrintable(made));
    const QString model = QStringLiteral(TW_SOURCE_DIR "/resources/examples/fashion_cnn.model.yaml");
    for (const QStringList &command :
         {QStringList{"export", model, "--format", "onnx", "--weights", file("code.weights.pt"), "--out", file("code.onnx")},
          QStringList{"predict", model, "--data", QStringLiteral(TW_SOURCE_DIR "/resources/examples/fashion_cnn.run.yaml"),
                      "--weights", file("code.weights.pt"), "--out", file("code.csv")}}) {
      const auto r = runCli(command);
      QCOMPARE(r.exitCode, 1);
      QVERIFY2(r.err.contains(file("code.weights.pt") + "' holds TorchScript code") && r.err.contains("defines a method"),
               qPrintable(r.err));
    }
    QVERIFY(!QFile::exists(file("code.onnx")) && !QFile::exists(file("code.csv")));
  }

  void predictRefusesDataOfAnotherShape() {
    const auto r = runCli({"predict", m_run, "--out", file("spirals.csv"), "--set", "data.dataset=spirals",
                           "--workspace", workspace()});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("the data's examples are [N, 2], the model takes [N, 1, 28, 28]"), qPrintable(r.err));
    QVERIFY(!QFile::exists(file("spirals.csv")));
  }

  // The registry: an export registers with its run's lineage, versions count up, promotion can
  // archive the version it replaces, and a file that is not a recorded export is refused.
  void registeredVersionsKeepTheirLineage() {
    const auto exported = exportRun({"--format", "onnx", "--out", file("registry.onnx")});
    QVERIFY2(exported.exitCode == 0, qPrintable(exported.all()));
    auto models = [&](const QStringList &args) { return runCli(QStringList{"models"} + args + QStringList{"--workspace", workspace()}); };
    auto r = models({"register", "fashion", file("registry.onnx"), "--description", "the CNN"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    QVERIFY2(r.out.contains("registered fashion version 1"), qPrintable(r.out));
    r = models({"register", "fashion", file("registry.onnx")});
    QVERIFY2(r.out.contains("registered fashion version 2"), qPrintable(r.all()));
    QCOMPARE(models({"promote", "fashion", "1"}).exitCode, 0);
    r = models({"promote", "fashion", "2", "--archive-existing"});
    QVERIFY2(r.out.contains("fashion version 1: archived") && r.out.contains("fashion version 2: production"),
             qPrintable(r.all()));

    r = models({"show", "fashion", "2", "--json"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    const QJsonObject v = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(v["stage"].toString(), QString("production"));
    QCOMPARE(v["run"].toObject()["id"].toString(), m_run);
    QCOMPARE(v["sha256"].toString(), sha256Of(file("registry.onnx")));
    QCOMPARE(v["file"].toString(), QString("unchanged"));
    QCOMPARE(v["export"].toObject()["opset"].toInt(), 17);
    QVERIFY(v["metrics"].toObject().contains("test/accuracy"));
    r = models({"show", "fashion", "2"});
    QVERIFY2(r.out.contains("the run's configuration (as registered):"), qPrintable(r.out));

    r = models({"list", "--json"});
    const QJsonArray list = QJsonDocument::fromJson(r.out.toUtf8()).array();
    QCOMPARE(list.size(), 1);
    QCOMPARE(list[0].toObject()["production"].toInt(), 2);
    QCOMPARE(list[0].toObject()["description"].toString(), QString("the CNN"));

    QFile other(file("not-an-export.onnx"));
    QVERIFY(other.open(QIODevice::WriteOnly));
    other.write("not a model");
    other.close();
    r = models({"register", "fashion", file("not-an-export.onnx")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("is not an export recorded in this workspace"), qPrintable(r.err));
    QCOMPARE(models({"show", "nosuch"}).exitCode, 1);
    QCOMPARE(models({"promote", "fashion", "9"}).exitCode, 1);
  }

  // A CSV regression run: predict prints R2 and writes predicted beside true values; a table whose
  // columns differ from the model's is refused naming the first difference; a file that is not
  // TorchScript is refused as such.
  void predictOnCsvNamesWhatDiffers() {
    const QString ws = m_dir.path() + "/houses";
    auto r = runCli({"train", QStringLiteral(TW_SOURCE_DIR "/resources/examples/houses_regression.run.yaml"), "--set",
                     "train.epochs=3", "--set", "tracking.run_name=houses", "--workspace", ws});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    r = runCli({"predict", "houses", "--out", file("houses.csv"), "--workspace", ws});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    QVERIFY2(r.out.contains("R2 "), qPrintable(r.out));
    QFile out(file("houses.csv"));
    QVERIFY(out.open(QIODevice::ReadOnly));
    QCOMPARE(out.readLine().trimmed(), QByteArray("row,predicted_0,target_0"));

    // The same table with its district and garden columns swapped: as many features, in another
    // order, and predict says where they part.
    QFile source(QStringLiteral(TW_SOURCE_DIR "/resources/examples/data/houses.csv"));
    QVERIFY(source.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = source.readAll().split('\n');
    const int garden = static_cast<int>(lines.front().split(',').indexOf("garden"));
    const int district = static_cast<int>(lines.front().split(',').indexOf("district"));
    QVERIFY(garden >= 0 && district >= 0);
    QFile changed(file("swapped.csv"));
    QVERIFY(changed.open(QIODevice::WriteOnly));
    for (const QByteArray &line : lines) {
      if (line.isEmpty()) continue;
      QList<QByteArray> fields = line.split(',');
      fields.swapItemsAt(garden, district);
      changed.write(fields.join(',') + "\n");
    }
    changed.close();
    r = runCli({"predict", "houses", "--out", file("changed.csv"), "--set", "data.path=" + file("swapped.csv"),
                "--workspace", ws});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("feature 4 of the data is 'garden=") && r.err.contains("the model's is 'district="),
             qPrintable(r.err));
    QVERIFY(!QFile::exists(file("changed.csv")));

    r = runCli({"predict", file("houses.csv"), "--out", file("nonsense.csv")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("is not a TorchScript file"), qPrintable(r.err));
  }

  // A checkpoint holding a NaN exports nothing in any format: the int8 quantizer would turn the
  // NaN into a number, and the int8 file, compared with a simulation that does the same, would
  // pass its check; the trained model's own outputs on the check examples are checked first.
  void nonFiniteWeightsExportNothing() {
    auto store = tw::tracking::Store::open((workspace() + "/tracking.db").toStdString());
    const QString best = QString::fromStdString(store->findRun(m_run.toStdString())->runDir) + "/checkpoints/best.pt";
    const QString aside = file("best.pt.aside");
    QVERIFY(QFile::copy(best, aside));
    struct Restore {
      QString from, to;
      ~Restore() {
        QFile::remove(to);
        QFile::rename(from, to);
      }
    } restore{aside, best};
    int code = 0;
    const QString poisoned = runProgram(
        "/usr/bin/python3",
        {"-c", QStringLiteral("import sys, torch\nm = torch.jit.load(sys.argv[1])\nwith torch.no_grad():\n"
                              "    dict(m.model.named_parameters())['logits.weight'][3, 7] = float('nan')\n"
                              "torch.jit.save(m, sys.argv[1])\n"),
         best},
        &code);
    QVERIFY2(code == 0, qPrintable(poisoned));
    for (const QStringList &format : {QStringList{"onnx", "--int8"}, QStringList{"onnx"}, QStringList{"torchscript"}}) {
      const auto r = exportRun(QStringList{"--format"} + format + QStringList{"--out", file("nan.out")});
      QVERIFY2(r.exitCode == 1, qPrintable(format.join(' ') + ": " + r.all()));
      QVERIFY2(r.err.contains("the trained model's outputs on 64 test examples are not finite (NaN or infinity)"),
               qPrintable(r.err));
      QVERIFY(!QFile::exists(file("nan.out")));
    }
  }

  void aRunWithoutTheCheckpointIsRefused() {
    auto store = tw::tracking::Store::open((workspace() + "/tracking.db").toStdString());
    const auto run = store->findRun(m_run.toStdString());
    const QString best = QString::fromStdString(run->runDir) + "/checkpoints/best.pt";
    const QString aside = best + ".aside";
    QVERIFY(QFile::rename(best, aside));
    const auto r = exportRun({"--format", "onnx", "--out", file("nobest.onnx")});
    QVERIFY(QFile::rename(aside, best));
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("has no best checkpoint"), qPrintable(r.err));
    QVERIFY(!QFile::exists(file("nobest.onnx")));
  }
};

QTEST_GUILESS_MAIN(TestCliExport)
#include "test_cli_export.moc"
