// `check`, `train` and `launch` refuse a run the validator rejects, before any run is recorded:
// the workspace stays without a tracking database. The machine's GPUs and memory are pinned with
// the validator's test variables, so nothing depends on this machine's hardware.

#include "cli_runner.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

const QString kMlpRun = QStringLiteral(TW_SOURCE_DIR "/resources/examples/fashion_mlp.run.yaml");
const QString kCnnRun = QStringLiteral(TW_SOURCE_DIR "/resources/examples/fashion_cnn.run.yaml");

// Sets an environment variable for the CLI processes a test slot starts, and removes it after.
class ScopedEnv {
 public:
  ScopedEnv(const char *name, const QByteArray &value) : m_name(name) { qputenv(name, value); }
  ~ScopedEnv() { qunsetenv(m_name); }

 private:
  const char *m_name;
};

}  // namespace

class TestCliRefusals : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void checkPrintsMemoryEstimate() {
    auto r = runCli({"check", kMlpRun});
    QVERIFY2(r.out.contains("Memory estimate (per rank; batch"), qPrintable(r.all()));
    for (const char *row : {"parameters", "gradients", "optimiser state (2x)", "activations", "total"})
      QVERIFY2(r.out.contains(row), qPrintable(r.out));
  }

  void checkRefusesMissingData() {
    QTemporaryDir dir;
    const QString missing = dir.filePath("absent.csv");
    auto r = runCli({"check", kMlpRun, "--set", "data.dataset=csv", "--set", "data.path=" + missing});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("field 'data.path'") && r.err.contains(missing), qPrintable(r.err));
  }

  void checkRefusesCrossFieldMistakes_data() {
    QTest::addColumn<QString>("setting");
    QTest::addColumn<QString>("field");
    QTest::newRow("multistep") << "train.schedule=multistep" << "train.milestones";
    QTest::newRow("monitor") << "train.monitor=val/r2" << "train.monitor";
    QTest::newRow("loss") << "train.loss=huber" << "train.loss";
    QTest::newRow("device") << "train.device=gpu" << "train.device";
  }
  void checkRefusesCrossFieldMistakes() {
    QFETCH(QString, setting);
    QFETCH(QString, field);
    auto r = runCli({"check", kMlpRun, "--set", setting});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("field '" + field + "'"), qPrintable(r.err));
  }

  // cuda:N beyond the machine's GPUs, and cuda without any, are refused before a run exists.
  void trainRefusesMissingGpu_data() {
    QTest::addColumn<QByteArray>("gpus");
    QTest::addColumn<QString>("device");
    QTest::addColumn<QString>("message");
    QTest::newRow("cuda:2 of 2") << QByteArray("2") << "cuda:2" << "this machine has 2 GPUs";
    QTest::newRow("cuda of none") << QByteArray("0") << "cuda" << "this machine has no GPU";
  }
  void trainRefusesMissingGpu() {
    QFETCH(QByteArray, gpus);
    QFETCH(QString, device);
    QFETCH(QString, message);
    ScopedEnv pinned("TORCHWRIGHT_TEST_GPUS", gpus);
    QTemporaryDir workspace;
    for (const char *command : {"train", "launch"}) {
      auto r = runCli({command, kMlpRun, "--set", "train.device=" + device, "--workspace", workspace.path()});
      QVERIFY2(r.exitCode == 1, qPrintable(r.all()));
      QVERIFY2(r.err.contains("field 'train.device'") && r.err.contains(message), qPrintable(r.err));
      QVERIFY2(!QFile::exists(workspace.filePath("tracking.db")), "a run was recorded");
    }
  }

  // The bundled CNN needs tens of MiB; on a device of 8 MiB it is refused, saying by how much,
  // without a byte of it allocated and without a run row.
  void trainRefusesWhatCannotFit() {
    ScopedEnv pinned("TORCHWRIGHT_TEST_MEMORY_MB", "8");
    QTemporaryDir workspace;
    for (const char *command : {"check", "train", "launch"}) {
      auto r = runCli({command, kCnnRun, "--workspace", workspace.path()});
      QVERIFY2(r.exitCode == 1, qPrintable(r.all()));
      QVERIFY2(r.err.contains("this machine's RAM has 8.0 MiB") && r.err.contains("too much"), qPrintable(r.err));
      QVERIFY2(!QFile::exists(workspace.filePath("tracking.db")), "a run was recorded");
    }
  }

  // Data that lies about itself is refused by the validator, naming the file and what is wrong,
  // before a run is recorded (the worker's loader finds the same, but only after the run row
  // exists): an IDX images file whose header announces more images than it holds, plain and
  // gzipped; labels that count other than the images; a CSV table whose last row is cut short,
  // small (scanned whole) and past 1 MiB (its first rows scanned, its last ones counted); a large
  // table with text in a numeric column among its first rows.
  void trainRefusesDataThatLies_data() {
    QTest::addColumn<QString>("damage");
    QTest::addColumn<QString>("file");     // the file the message names
    QTest::addColumn<QString>("message");
    QTest::newRow("idx images truncated") << "images" << "train-images-idx3-ubyte"
                                          << "truncated: the header announces 100 images (78416 bytes) but the file "
                                             "holds 70576 bytes, 90 whole images";
    QTest::newRow("idx images truncated, gzip") << "images.gz" << "train-images-idx3-ubyte.gz"
                                                << "truncated: the header announces 100 images";
    QTest::newRow("idx labels fewer than images") << "labels" << "train-labels-idx1-ubyte"
                                                  << "image and label counts differ";
    QTest::newRow("csv last row cut") << "csv" << "houses.csv" << "2001: 3 fields, the header has 7";
    QTest::newRow("csv past 1 MiB, last row cut") << "big csv" << "houses.csv"
                                                  << "has 3 fields, the header has 7 (the file ends inside a row";
    QTest::newRow("csv past 1 MiB, text in a numeric column") << "big csv text" << "houses.csv"
                                                              << ":2: column 'rooms': 'four' is not a number";
  }
  void trainRefusesDataThatLies() {
    QFETCH(QString, damage);
    QFETCH(QString, file);
    QFETCH(QString, message);
    QTemporaryDir data, workspace;
    QString run = kMlpRun;
    QStringList settings{"--set", "data.path=" + data.path(), "--set", "data.batch_size=16"};
    if (damage.contains("csv")) {
      QFile source(QStringLiteral(TW_SOURCE_DIR "/resources/examples/data/houses.csv"));
      QVERIFY(source.open(QIODevice::ReadOnly));
      QList<QByteArray> lines = source.readAll().trimmed().split('\n');  // header + 2,000 rows
      QByteArray header = lines.takeFirst(), rows;
      while (rows.size() < (damage.startsWith("big") ? 1.2 * (1 << 20) : 1)) rows += lines.join('\n') + '\n';
      if (damage.endsWith("text")) rows.replace(rows.indexOf(",7,"), 3, ",four,");  // the first row's rooms
      else  // the last row keeps its first three fields, as a copy cut short would
        rows.truncate(rows.indexOf(',', rows.indexOf(',', rows.indexOf(',', rows.lastIndexOf('\n', rows.size() - 2)) + 1) + 1));
      QFile table(data.filePath(file));
      QVERIFY(table.open(QIODevice::WriteOnly));
      table.write(header + '\n' + rows);
      table.close();
      run = QStringLiteral(TW_SOURCE_DIR "/resources/examples/houses_regression.run.yaml");
      settings = QStringList{"--set", "data.path=" + data.filePath(file)};
    } else {
      // A 28x28 set of 100 training and 20 test images, one file of it damaged.
      const auto idx = [](uint32_t magic, QList<uint32_t> dims, int items, int itemBytes) {
        QByteArray bytes;
        for (uint32_t v : QList<uint32_t>{magic} + dims)
          for (int shift : {24, 16, 8, 0}) bytes.append(char(v >> shift));
        for (int i = 0; i < items * itemBytes; ++i) bytes.append(char(itemBytes == 1 ? i % 10 : i % 251));
        return bytes;
      };
      const auto write = [&](const QString &name, const QByteArray &bytes, bool gzip) {
        QFile f(data.filePath(name));
        if (!f.open(QIODevice::WriteOnly)) return false;
        f.write(bytes);
        f.close();
        return !gzip || QProcess::execute("gzip", {"-n", data.filePath(name)}) == 0;
      };
      const int trainImages = damage.startsWith("images") ? 90 : 100, trainLabels = damage == "labels" ? 90 : 100;
      QVERIFY(write("train-images-idx3-ubyte", idx(0x803, {100, 28, 28}, trainImages, 784), damage == "images.gz"));
      QVERIFY(write("train-labels-idx1-ubyte", idx(0x801, {uint32_t(trainLabels)}, trainLabels, 1), false));
      QVERIFY(write("t10k-images-idx3-ubyte", idx(0x803, {20, 28, 28}, 20, 784), false));
      QVERIFY(write("t10k-labels-idx1-ubyte", idx(0x801, {20}, 20, 1), false));
    }
    for (const char *command : {"train", "launch"}) {
      auto r = runCli(QStringList{command, run, "--workspace", workspace.path()} + settings);
      QVERIFY2(r.exitCode == 1, qPrintable(r.all()));
      QVERIFY2(r.err.contains("field 'data.path'") && r.err.contains(data.filePath(file)) && r.err.contains(message),
               qPrintable(r.err));
      QVERIFY2(!QFile::exists(workspace.filePath("tracking.db")), "a run was recorded");
    }
  }
};

QTEST_GUILESS_MAIN(TestCliRefusals)
#include "test_cli_refusals.moc"
