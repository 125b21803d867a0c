// `check`, `train` and `launch` refuse a run the validator rejects, before any run is recorded:
// the workspace stays without a tracking database. The machine's GPUs and memory are pinned with
// the validator's test variables, so nothing depends on this machine's hardware.

#include "cli_runner.h"

#include <QDir>
#include <QFile>
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
};

QTEST_GUILESS_MAIN(TestCliRefusals)
#include "test_cli_refusals.moc"
