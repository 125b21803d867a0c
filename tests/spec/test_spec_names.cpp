// Node ids, block names and model names keep to letters, digits, '_', '-' and '.', starting with
// a letter: they become metric keys, file names and ONNX names. A name outside the set is an
// error naming the file, the line and the name.

#include "core/spec/model_spec.h"
#include "core/spec/names.h"

#include <QtTest>

using namespace tw::spec;

namespace {

// The one diagnostic parsing `yaml` gives, formatted; empty when it parses.
QString parseError(const std::string &yaml) {
  try {
    parseModelYaml(yaml, "names.yaml");
  } catch (const SpecError &e) {
    return QString::fromStdString(formatDiagnostics(e.diagnostics()));
  }
  return {};
}

}  // namespace

class TestSpecNames : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void portableNames_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("portable");
    for (const char *ok : {"x", "conv1", "h1.fc", "dense.fc1", "a-b_c.d", "Z9"}) QTest::newRow(ok) << ok << true;
    for (const char *bad : {"", "1st", "_x", ".x", "-x", "a b", "a/b", "a:b", "ä", "a\tb", "x\"y", "a,b"})
      QTest::newRow(qPrintable(QStringLiteral("bad '%1'").arg(bad))) << QString::fromUtf8(bad) << false;
  }
  void portableNames() {
    QFETCH(QString, name);
    QFETCH(bool, portable);
    QCOMPARE(isPortableName(name.toStdString()), portable);
    QCOMPARE(portableNameProblem("node id", name.toStdString()).empty(), portable);
  }

  void parserRefusesNamesWithFileLineAndName_data() {
    QTest::addColumn<QString>("yaml");
    QTest::addColumn<QString>("expected");
    QTest::newRow("node id") << "nodes:\n  - {id: x, op: Input, shape: [4]}\n  - {id: 'my layer', op: ReLU}\n"
                             << "names.yaml:3:10: node 'my layer', field 'id': node id 'my layer' may contain only";
    QTest::newRow("id with a slash") << "nodes:\n  - {id: x, op: Input, shape: [4]}\n  - {id: a/b, op: ReLU}\n"
                                     << "names.yaml:3:10: node 'a/b', field 'id'";
    QTest::newRow("numeric id") << "nodes:\n  - {id: 1, op: Input, shape: [4]}\n"
                                << "names.yaml:2:10: node '1', field 'id': node id '1'";
    QTest::newRow("model name") << "name: my model\nnodes:\n  - {id: x, op: Input, shape: [4]}\n"
                                << "names.yaml:1:7: field 'name': model name 'my model'";
    QTest::newRow("block name") << "blocks:\n  dense block:\n    nodes:\n      - {id: fc, op: Linear, out_features: 2}\n"
                                   "nodes:\n  - {id: x, op: Input, shape: [4]}\n  - {id: h, block: dense block}\n"
                                << "names.yaml:2:3: field 'blocks': block name 'dense block'";
    QTest::newRow("block member") << "blocks:\n  dense:\n    nodes:\n      - {id: 'f c', op: Linear, out_features: 2}\n"
                                     "nodes:\n  - {id: x, op: Input, shape: [4]}\n  - {id: h, block: dense}\n"
                                  << "names.yaml:4:14: node 'f c', field 'id': block 'dense': node id 'f c'";
  }
  void parserRefusesNamesWithFileLineAndName() {
    QFETCH(QString, yaml);
    QFETCH(QString, expected);
    const QString error = parseError(yaml.toStdString());
    QVERIFY2(error.contains(expected), qPrintable(error));
    QCOMPARE(error.count(QLatin1Char('\n')), 0);  // reported once, also for a block used twice
  }

  // Block instances' dotted ids and ids generated for `layers:` stay valid.
  void dottedAndGeneratedIdsPass() {
    const ModelSpec spec = parseModelYaml("name: mlp-2.v1\n"
                                          "blocks:\n  dense:\n    nodes:\n      - {id: fc, op: Linear, out_features: 2}\n"
                                          "      - {id: act, op: ReLU}\n"
                                          "layers:\n  - {op: Input, shape: [4]}\n  - {id: h1, block: dense}\n"
                                          "  - {block: dense}\n  - {op: Linear, out_features: 3}\n",
                                          "ok.yaml");
    QVERIFY(spec.find("h1.fc") && spec.find("dense_2.act") && spec.find("linear_3"));
    for (const Node &node : spec.nodes) QVERIFY2(isPortableName(node.id), node.id.c_str());
  }
};

QTEST_GUILESS_MAIN(TestSpecNames)
#include "test_spec_names.moc"
