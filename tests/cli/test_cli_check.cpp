// `torchwright check`: the per-node table for a valid model, precise messages and exit 1 otherwise.

#include "cli_runner.h"

#include <QTemporaryDir>
#include <QtTest>

class TestCliCheck : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void validModelPrintsTable() {
    auto r = runCli({"check", TW_SOURCE_DIR "/resources/examples/fashion_mlp.model.yaml"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    QVERIFY2(r.out.contains("Linear"), qPrintable(r.out));
    QVERIFY2(r.out.contains("235,146"), qPrintable(r.out));  // 784-256-128-10
    QVERIFY(r.out.contains("[N, 10]"));
  }

  void runFileChecksItsModel() {
    auto r = runCli({"check", TW_SOURCE_DIR "/resources/examples/fashion_mlp.run.yaml"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    QVERIFY(r.out.contains("235,146"));
  }

  void invalidModelNamesNodeAndField() {
    QTemporaryDir dir;
    const QString path = dir.path() + "/bad.yaml";
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("nodes:\n"
               "  - {id: image, op: Input, shape: [1, 28, 28]}\n"
               "  - {id: flat, op: Flatten}\n"
               "  - {id: fc1, op: Linear, in_features: 100, out_features: 10}\n");
    file.close();
    auto r = runCli({"check", path});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("bad.yaml:4"), qPrintable(r.err));
    QVERIFY2(r.err.contains("fc1"), qPrintable(r.err));
    QVERIFY2(r.err.contains("in_features"), qPrintable(r.err));
    QVERIFY2(r.err.contains("784"), qPrintable(r.err));
    // Every diagnostic, the last one included, is a line of its own.
    QVERIFY2(r.err.endsWith("\n"), qPrintable(r.err));
    for (const QString &line : r.err.split('\n', Qt::SkipEmptyParts))
      QVERIFY2(line.startsWith(path) != line.contains("problem(s) found"), qPrintable(line));
  }

  void syntaxErrorEndsWithANewline() {
    QTemporaryDir dir;
    const QString path = dir.path() + "/tabs.yaml";
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("nodes:\n\t- {id: image, op: Input, shape: [4]}\n");
    file.close();
    auto r = runCli({"check", path});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err == path + ":2:1: invalid YAML: a tab in the indentation: YAML indents with spaces only (replace "
                             "the tab with spaces)\n",
             qPrintable(r.err));
  }

  void unknownCommandIsUsageError() {
    auto r = runCli({"frobnicate"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("unknown command"));
  }
};

QTEST_GUILESS_MAIN(TestCliCheck)
#include "test_cli_check.moc"
