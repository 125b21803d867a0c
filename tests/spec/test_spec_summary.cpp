// The torchinfo-like table `torchwright check` prints.

#include "core/spec/analysis.h"

#include <QtTest>

using namespace tw::spec;

class TestSpecSummary : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void mlpTable() {
    const ModelSpec spec = parseModelYaml(
        "name: mlp\n"
        "nodes:\n"
        "  - {id: image, op: Input, shape: [1, 28, 28]}\n"
        "  - {id: flat, op: Flatten}\n"
        "  - {id: fc1, op: Linear, out_features: 256}\n"
        "  - {id: relu1, op: ReLU}\n"
        "  - {id: fc2, op: Linear, out_features: 128}\n"
        "  - {id: relu2, op: ReLU}\n"
        "  - {id: fc3, op: Linear, out_features: 10}\n");
    const Analysis a = analyze(spec);
    QVERIFY(a.ok());
    QCOMPARE(a.totalParams, int64_t(235146));
    const QString table = QString::fromStdString(formatSummary(spec, a));
    const QStringList lines = table.split('\n');
    auto rowOf = [&](const QString &id) {
      for (const QString &line : lines)
        if (line.startsWith(id + ' ')) return line.simplified();
      return QString();
    };
    QVERIFY2(table.contains(QStringLiteral("Model: mlp")), qPrintable(table));
    QVERIFY(rowOf("Node").startsWith(QStringLiteral("Node Op Output shape Params Share")));
    QCOMPARE(rowOf("image"), QStringLiteral("image Input [N, 1, 28, 28] 0 0.0%"));
    QCOMPARE(rowOf("flat"), QStringLiteral("flat Flatten [N, 784] 0 0.0%"));
    QCOMPARE(rowOf("fc1"), QStringLiteral("fc1 Linear [N, 256] 200,960 85.5%"));
    QCOMPARE(rowOf("fc2"), QStringLiteral("fc2 Linear [N, 128] 32,896 14.0%"));
    QCOMPARE(rowOf("fc3"), QStringLiteral("fc3 Linear [N, 10] 1,290 0.5%"));
    QVERIFY2(table.contains(QStringLiteral("Total params: 235,146\n")), qPrintable(table));
    QVERIFY(table.contains(QStringLiteral("Trainable params: 235,146\n")));
    QVERIFY(table.contains(QStringLiteral("Params size (MB): 0.94")));
    // Columns line up: every row starts its Op column at the same offset.
    const int opColumn = lines[2].indexOf(QStringLiteral("Op"));
    for (const QString &line : lines)
      if (line.startsWith(QStringLiteral("fc")) || line.startsWith(QStringLiteral("relu")))
        QCOMPARE(line.indexOf(QStringLiteral("Linear")) == opColumn || line.indexOf(QStringLiteral("ReLU")) == opColumn,
                 true);
  }

  void invalidModelListsProblems() {
    const ModelSpec spec = parseModelYaml("nodes:\n  - {id: x, op: Input, shape: [4]}\n  - {id: fc, op: Linear}\n");
    const Analysis a = analyze(spec);
    const std::string table = formatSummary(spec, a);
    QVERIFY2(table.find("1 problem(s)") != std::string::npos, table.c_str());
    QVERIFY(table.find("missing required parameter 'out_features'") != std::string::npos);
    QVERIFY(table.find("fc ") != std::string::npos);
  }
};

QTEST_APPLESS_MAIN(TestSpecSummary)
#include "test_spec_summary.moc"
