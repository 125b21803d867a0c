// Fault injection: damaged files handed to the real CLI. A checkpoint cut short (for a resume, an
// export, train.init_from by run and by file), garbage bytes as IDX, CSV, image and shard data, a
// tracking database that is not SQLite (every command that opens one), and model files with a
// cycle or with 10,000 blocks nested in one another, or YAML nested 10,000 deep. Each must be a
// clear error: exit code 1, a message naming the file and what is wrong, nothing recorded where
// the check can come before recording (and otherwise the run FAILED with that message), and
// nothing already recorded lost (the damaged database is not written to; a run whose resume is
// refused keeps its status, reason and metrics). tests/reliability/README.md lists the cases.

#include "fault_helpers.h"

#include "tracking/store.h"

#include <QCryptographicHash>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

#include <signal.h>

using tw::tracking::RunStatus;

using tw::faults::CliOutcome;
using tw::faults::kCli;
using tw::faults::runCli;

namespace {

bool writeFile(const QString &path, const QByteArray &bytes) {
  QDir().mkpath(QFileInfo(path).absolutePath());
  QFile out(path);
  return out.open(QIODevice::WriteOnly) && out.write(bytes) == bytes.size();
}

QByteArray garbage(int size, quint32 seed) {
  QRandomGenerator random(seed);
  QByteArray bytes(size, '\0');
  for (char &b : bytes) b = static_cast<char>(random.bounded(256));
  return bytes;
}

QByteArray digestOf(const QString &path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256) : QByteArray();
}

size_t runCount(const QString &ws) {
  if (!QFile::exists(ws + "/tracking.db")) return 0;
  return tw::tracking::Store::open((ws + "/tracking.db").toStdString())->listRuns().size();
}

// A small PNG of gray stripes, made here so that the test needs no image tool.
QByteArray grayPng(int side) {
  QByteArray raw;
  for (int y = 0; y < side; ++y) {
    raw.append('\0');
    for (int x = 0; x < side; ++x) raw.append(static_cast<char>((x * 7 + y * 3) % 256));
  }
  auto be32 = [](quint32 v) {
    QByteArray b(4, '\0');
    for (int i = 0; i < 4; ++i) b[i] = static_cast<char>((v >> (24 - 8 * i)) & 0xff);
    return b;
  };
  auto chunk = [&](const QByteArray &type, const QByteArray &data) {
    const QByteArray body = type + data;
    quint32 crc = 0xffffffffu;
    for (const char c : body) {
      crc ^= static_cast<quint8>(c);
      for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    return be32(static_cast<quint32>(data.size())) + body + be32(~crc);
  };
  const QByteArray header = be32(static_cast<quint32>(side)) + be32(static_cast<quint32>(side)) + QByteArray("\x08\x00\x00\x00\x00", 5);
  // zlib stream with a stored (uncompressed) block: the header, the block, the Adler-32.
  QByteArray z("\x78\x01", 2);
  z.append('\x01');
  const quint16 len = static_cast<quint16>(raw.size());
  z.append(static_cast<char>(len & 0xff)).append(static_cast<char>(len >> 8));
  z.append(static_cast<char>(~len & 0xff)).append(static_cast<char>((~len >> 8) & 0xff));
  z.append(raw);
  quint32 a = 1, b = 0;
  for (const char c : raw) {
    a = (a + static_cast<quint8>(c)) % 65521;
    b = (b + a) % 65521;
  }
  z.append(be32((b << 16) | a));
  return QByteArray("\x89PNG\r\n\x1a\n", 8) + chunk("IHDR", header) + chunk("IDAT", z) + chunk("IEND", {});
}

}  // namespace

class TestCorruptFiles : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // A run killed mid-training keeps a last.pt; cut short, it is refused by every reader before
  // anything is recorded or changed.
  void truncatedCheckpointIsRefused() {
    QTemporaryDir dir;
    const QString ws = dir.path() + "/ws", runFile = dir.path() + "/run.yaml";
    QVERIFY(writeFile(runFile, tw::faults::tinyRunFile(40)));
    QProcess launcher;
    launcher.start(kCli, {"train", runFile, "--workspace", ws, "--set", "tracking.run_name=victim"});
    QVERIFY(launcher.waitForStarted());
    auto checkpointOf = [&]() -> QString {
      if (!QFile::exists(ws + "/tracking.db")) return {};
      const auto run = tw::tracking::Store::open((ws + "/tracking.db").toStdString())->findRun("victim");
      return run ? QString::fromStdString(run->runDir) + "/checkpoints/last.pt" : QString();
    };
    QTRY_VERIFY_WITH_TIMEOUT(!checkpointOf().isEmpty() && QFile::exists(checkpointOf()), 60000);
    const QString checkpoint = checkpointOf();
    const pid_t worker = tw::faults::workerOf(launcher.processId());
    QVERIFY(worker > 0 && ::kill(worker, SIGKILL) == 0);
    QVERIFY(launcher.waitForFinished(60000));
    QCOMPARE(launcher.exitCode(), 1);
    auto store = tw::tracking::Store::open((ws + "/tracking.db").toStdString());
    const auto before = *store->findRun("victim");
    QCOMPARE(before.status, RunStatus::Failed);
    const size_t pointsBefore = store->metricPoints(before.id, "train/loss").size();
    const size_t artifactsBefore = store->artifacts(before.id).size();
    QVERIFY(pointsBefore > 0);

    QFile file(checkpoint);
    QVERIFY(file.resize(file.size() / 2));

    const CliOutcome resumed = runCli({"train", "--resume", "victim", "--workspace", ws});
    QCOMPARE(resumed.exitCode, 1);
    QVERIFY2(resumed.output.contains(checkpoint) && resumed.output.contains("is truncated"), qPrintable(resumed.output));
    const auto after = *store->findRun("victim");
    QCOMPARE(after.status, RunStatus::Failed);
    QCOMPARE(after.statusMessage, before.statusMessage);
    QCOMPARE(store->metricPoints(after.id, "train/loss").size(), pointsBefore);

    const CliOutcome exported = runCli({"export", "victim", "--checkpoint", "last", "--format", "onnx", "--out",
                                     dir.path() + "/model.onnx", "--workspace", ws});
    QCOMPARE(exported.exitCode, 1);
    QVERIFY2(exported.output.contains(checkpoint) && exported.output.contains("is truncated"), qPrintable(exported.output));
    QVERIFY(!QFile::exists(dir.path() + "/model.onnx"));
    QCOMPARE(store->artifacts(after.id).size(), artifactsBefore);

    for (const QString &from : {QStringLiteral("run:victim@last"), checkpoint}) {
      const CliOutcome started = runCli({"train", runFile, "--workspace", ws, "--set", "train.init_from=" + from});
      QCOMPARE(started.exitCode, 1);
      QVERIFY2(started.output.contains(checkpoint) && started.output.contains("is truncated"), qPrintable(started.output));
      QCOMPARE(runCount(ws), size_t(1));
    }
  }

  void garbageData_data() {
    QTest::addColumn<QString>("source");
    QTest::addColumn<bool>("refusedBeforeRecording");
    // IDX headers and CSV headers are checked before a run is recorded; an image among many is
    // decoded by the worker (unless the check's sample of headers took it), and a shard's bytes
    // are checked against its manifest there: the run, when recorded, is FAILED saying why.
    QTest::newRow("idx") << "idx" << true;
    QTest::newRow("csv") << "csv" << true;
    QTest::newRow("image") << "image" << false;
    QTest::newRow("shard") << "shard" << false;
  }
  void garbageData() {
    QFETCH(QString, source);
    QFETCH(bool, refusedBeforeRecording);
    QTemporaryDir dir;
    const QString ws = dir.path() + "/ws";
    QString data, model = "    - {id: image, op: Input, shape: [1, 28, 28]}\n    - {id: flat, op: Flatten}\n", bad;
    if (source == "idx") {
      for (const char *name : {"train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte",
                               "t10k-labels-idx1-ubyte"})
        QVERIFY(writeFile(dir.path() + "/idx/" + name, garbage(4000, 1)));
      bad = dir.path() + "/idx/train-images-idx3-ubyte";
      data = "{dataset: fashion-mnist, path: '" + dir.path() + "/idx', batch_size: 20}";
    } else if (source == "csv") {
      bad = dir.path() + "/table.csv";
      QVERIFY(writeFile(bad, garbage(3000, 2)));
      data = "{dataset: csv, path: '" + bad + "', target: label, batch_size: 20}";
      model = "    - {id: x, op: Input, shape: [3]}\n";
    } else if (source == "image") {
      for (const char *label : {"a", "b"})
        for (int i = 0; i < 6; ++i) QVERIFY(writeFile(dir.path() + "/images/" + label + "/" + QString::number(i) + ".png", grayPng(16)));
      bad = dir.path() + "/images/a/7.png";
      QVERIFY(writeFile(bad, garbage(500, 3)));
      data = "{dataset: image-folder, path: '" + dir.path() + "/images', batch_size: 2, image_size: 16, channels: 1}";
      model = "    - {id: x, op: Input, shape: [1, 16, 16]}\n    - {id: flat, op: Flatten}\n";
    } else {
      const CliOutcome packed = runCli({"pack", "fashion-mnist", dir.path() + "/shards", "--set", "data.train_limit=600",
                                     "--set", "data.test_limit=100"});
      QVERIFY2(packed.exitCode == 0, qPrintable(packed.output));
      bad = dir.path() + "/shards/train-000000.tar";
      QFile shard(bad);
      QVERIFY(shard.open(QIODevice::ReadWrite));
      QVERIFY(shard.seek(shard.size() / 2));
      shard.write(garbage(4096, 4));
      shard.close();
      data = "{dataset: shards, path: '" + dir.path() + "/shards', batch_size: 20}";
    }
    const QString runFile = dir.path() + "/run.yaml";
    QVERIFY(writeFile(runFile, ("model:\n  nodes:\n" + model + "    - {id: logits, op: Linear, out_features: 10}\n"
                                "data: " + data + "\ntrain: {epochs: 1, threads: 1}\n").toUtf8()));
    const CliOutcome trained = runCli({"train", runFile, "--workspace", ws});
    QCOMPARE(trained.exitCode, 1);
    QVERIFY2(trained.output.contains(bad), qPrintable(trained.output));
    if (source == "csv")  // what it is, not a column it lacks
      QVERIFY2(trained.output.contains("this is not a CSV text file"), qPrintable(trained.output));
    if (refusedBeforeRecording) {
      QCOMPARE(runCount(ws), size_t(0));
    } else {
      const auto runs = runCount(ws) ? tw::tracking::Store::open((ws + "/tracking.db").toStdString())->listRuns()
                                     : std::vector<tw::tracking::RunRecord>{};
      QVERIFY(runs.size() <= 1);
      if (!runs.empty()) {
        QCOMPARE(runs[0].status, RunStatus::Failed);
        QVERIFY2(QString::fromStdString(runs[0].statusMessage).contains(bad), runs[0].statusMessage.c_str());
      }
    }
  }

  void databaseNotSqlite_data() {
    QTest::addColumn<QStringList>("command");
    const QStringList commands[] = {
        {"runs", "list"}, {"runs", "show", "r"}, {"runs", "tag", "r", "x"}, {"runs", "untag", "r", "x"},
        {"runs", "note", "r", "x"}, {"runs", "archive", "r"}, {"runs", "unarchive", "r"}, {"train", "@RUN"},
        {"train", "--resume", "r"}, {"launch", "@RUN"}, {"reproduce", "r"}, {"sweep", "@SWEEP"},
        {"study", "list"}, {"study", "show", "s"}, {"study", "create", "@SWEEP"}, {"study", "ask", "s"},
        {"study", "tell", "s", "0", "1"}, {"export", "r", "--format", "onnx", "--out", "@OUT"},
        {"predict", "r", "--out", "@OUT"}, {"models", "list"}, {"models", "show", "m"},
        {"models", "register", "m", "@RUN"}, {"models", "promote", "m", "1"}, {"models", "archive", "m", "1"}};
    for (const QStringList &command : commands) QTest::newRow(qPrintable(command.join(' '))) << command;
  }
  // Not SQLite at all, and SQLite's header over garbage: refused with the file named, and the
  // file left byte for byte as it was (no WAL beside it, nothing written into it).
  void databaseNotSqlite() {
    QFETCH(QStringList, command);
    QTemporaryDir dir;
    const QString runFile = dir.path() + "/run.yaml", sweepFile = dir.path() + "/search.sweep.yaml";
    QVERIFY(writeFile(runFile, tw::faults::tinyRunFile(1)));
    QVERIFY(writeFile(sweepFile, "base: run.yaml\nobjective: {metric: val/accuracy, direction: maximize}\n"
                                 "space:\n  train.lr: {type: float, low: 1.0e-4, high: 0.1, log: true}\n"
                                 "budget: {trials: 2}\n"));
    for (const QByteArray &content : {garbage(5000, 5), QByteArray("SQLite format 3\0", 16) + garbage(8176, 6)}) {
      const QString ws = dir.path() + "/ws";
      const QString db = ws + "/tracking.db";
      QVERIFY(writeFile(db, content));
      QStringList arguments = command;
      arguments.replaceInStrings("@RUN", runFile).replaceInStrings("@SWEEP", sweepFile);
      arguments.replaceInStrings("@OUT", dir.path() + "/out.file");
      const CliOutcome refused = runCli(arguments + QStringList{"--workspace", ws});
      QCOMPARE(refused.exitCode, 1);
      QVERIFY2(refused.output.contains(db) && (refused.output.contains("file is not a database") ||
                                             refused.output.contains("database disk image is malformed")),
               qPrintable(refused.output));
      QCOMPARE(digestOf(db), QCryptographicHash::hash(content, QCryptographicHash::Sha256));
      QVERIFY(!QFile::exists(db + "-wal"));
      QVERIFY(!QFile::exists(dir.path() + "/out.file"));
    }
  }

  void cycleInTheModel() {
    QTemporaryDir dir;
    const QString model = dir.path() + "/cycle.model.yaml";
    QVERIFY(writeFile(model, "name: cycle\nnodes:\n  - {id: image, op: Input, shape: [2]}\n"
                             "  - {id: a, op: Linear, out_features: 2, inputs: [c]}\n"
                             "  - {id: b, op: ReLU, inputs: [a]}\n  - {id: c, op: Add, inputs: [b, image]}\n"
                             "output: b\n"));
    const QString runFile = dir.path() + "/run.yaml";
    QVERIFY(writeFile(runFile, "model: " + model.toUtf8() +
                                   "\ndata: {dataset: blobs, batch_size: 8}\ntrain: {epochs: 1}\n"));
    for (const QStringList &command : {QStringList{"check", model}, QStringList{"train", runFile}}) {
      const CliOutcome refused = runCli(command + QStringList{"--workspace", dir.path() + "/ws"});
      QCOMPARE(refused.exitCode, 1);
      QVERIFY2(refused.output.contains(model) && refused.output.contains("cycle: 'a' -> 'b' -> 'c' -> 'a'"),
               qPrintable(refused.output));
    }
    QCOMPARE(runCount(dir.path() + "/ws"), size_t(0));
  }

  void deeplyNestedModel_data() {
    QTest::addColumn<QByteArray>("yaml");
    QTest::addColumn<QString>("expected");
    // Blocks instantiating blocks, 10,000 deep: each expansion recursed once per level and the
    // parser overflowed its stack (SIGSEGV) before kMaxBlockDepth.
    QByteArray blocks = "name: deep\nblocks:\n";
    constexpr int kDepth = 10000;
    for (int i = 0; i < kDepth; ++i) {
      blocks += "  b" + QByteArray::number(i) + ":\n    inputs: [x]\n    nodes: [{id: n, ";
      blocks += i + 1 < kDepth ? "block: b" + QByteArray::number(i + 1) : QByteArray("op: ReLU");
      blocks += ", inputs: [x]}]\n    output: n\n";
    }
    blocks += "nodes:\n  - {id: image, op: Input, shape: [2]}\n  - {id: top, block: b0, inputs: [image]}\noutput: top\n";
    QTest::newRow("10,000 nested blocks") << blocks << "blocks nest more than 64 levels deep here (b0 > b1 > ... > b63 > b64)";
    QTest::newRow("YAML lists 10,000 deep") << "name: deep\nnodes: " + QByteArray(kDepth, '[') + QByteArray(kDepth, ']') + "\n"
                                            << "nested too deeply";
    QByteArray maps = "name: deep\nnodes: ";
    for (int i = 0; i < kDepth; ++i) maps += "{a: ";
    maps += "1" + QByteArray(kDepth, '}') + "\n";
    QTest::newRow("YAML maps 10,000 deep") << maps << "nested too deeply";
  }
  void deeplyNestedModel() {
    QFETCH(QByteArray, yaml);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const QString model = dir.path() + "/deep.model.yaml";
    QVERIFY(writeFile(model, yaml));
    const QString runFile = dir.path() + "/run.yaml";
    QVERIFY(writeFile(runFile, "model: " + model.toUtf8() +
                                   "\ndata: {dataset: blobs, batch_size: 8}\ntrain: {epochs: 1}\n"));
    for (const QStringList &command : {QStringList{"check", model}, QStringList{"train", runFile}}) {
      const CliOutcome refused = runCli(command + QStringList{"--workspace", dir.path() + "/ws"});
      QCOMPARE(refused.exitCode, 1);
      QVERIFY2(refused.output.contains(model) && refused.output.contains(expected), qPrintable(refused.output.left(2000)));
    }
    QCOMPARE(runCount(dir.path() + "/ws"), size_t(0));
  }
};

QTEST_GUILESS_MAIN(TestCorruptFiles)
#include "test_corrupt_files.moc"
