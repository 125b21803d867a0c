// Sizes and counts beyond int64 are errors naming the node, never wrapped, negative counts.

#include "core/spec/analysis.h"
#include "core/spec/checked_math.h"
#include "core/spec/registry.h"

#include <QtTest>

#include <limits>

using namespace tw::spec;

namespace {

const Diagnostic *only(const Analysis &a) { return a.diagnostics.size() == 1 ? &a.diagnostics.front() : nullptr; }

}  // namespace

class TestSpecLimits : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void checkedArithmetic() {
    const int64_t big = std::numeric_limits<int64_t>::max();
    QCOMPARE(checkedMul(3, 4, "x"), int64_t(12));
    QCOMPARE(checkedAdd(big - 1, 1, "x"), big);
    QCOMPARE(checkedNumel({2, 3, 4}, "x"), int64_t(24));
    QVERIFY_THROWS_EXCEPTION(ShapeError, checkedMul(big / 2 + 1, 2, "x"));
    QVERIFY_THROWS_EXCEPTION(ShapeError, checkedAdd(big, 1, "x"));
    QVERIFY_THROWS_EXCEPTION(ShapeError, checkedNumel({1 << 30, 1 << 30, 1 << 30}, "x"));
    QVERIFY_THROWS_EXCEPTION(ShapeError, numel({int64_t(1) << 40, int64_t(1) << 40}));
  }

  // Each of these wrapped to a negative or nonsense count before.
  void hugeModelsNameTheNode_data() {
    QTest::addColumn<QString>("yaml");
    QTest::addColumn<QString>("node");
    QTest::addColumn<int>("line");
    QTest::newRow("Linear") << "nodes:\n"
                               "  - {id: x, op: Input, shape: [4000000000000]}\n"
                               "  - {id: fc, op: Linear, out_features: 4000000000000}\n"
                            << "fc" << 3;
    QTest::newRow("Conv2d") << "nodes:\n"
                               "  - {id: x, op: Input, shape: [3000000000, 4, 4]}\n"
                               "  - {id: conv, op: Conv2d, out_channels: 4000000000, kernel_size: 3}\n"
                            << "conv" << 3;
    QTest::newRow("Conv2d output") << "nodes:\n"
                                      "  - {id: x, op: Input, shape: [1, 3000000000, 3000000000]}\n"
                                      "  - {id: conv, op: Conv2d, out_channels: 4000000000, kernel_size: 1}\n"
                                   << "conv" << 3;
    QTest::newRow("Input") << "nodes:\n"
                              "  - {id: x, op: Input, shape: [4000000000, 4000000000, 4000000000]}\n"
                              "  - {id: flat, op: Flatten}\n"
                           << "x" << 2;
    QTest::newRow("Embedding") << "nodes:\n"
                                  "  - {id: x, op: Input, shape: [4], dtype: int64}\n"
                                  "  - {id: emb, op: Embedding, num_embeddings: 9000000000000, embedding_dim: 9000000000}\n"
                               << "emb" << 3;
    QTest::newRow("total") << "nodes:\n"
                              "  - {id: x, op: Input, shape: [3000000000]}\n"
                              "  - {id: a, op: Linear, out_features: 3000000000}\n"
                              "  - {id: b, op: Linear, out_features: 3000000000}\n"
                           << "b" << 4;
  }
  void hugeModelsNameTheNode() {
    QFETCH(QString, yaml);
    QFETCH(QString, node);
    QFETCH(int, line);
    const Analysis a = analyze(parseModelYaml(yaml.toStdString(), "huge.yaml"));
    const Diagnostic *d = only(a);
    QVERIFY2(d, formatDiagnostics(a.diagnostics).c_str());
    QCOMPARE(QString::fromStdString(d->node), node);
    QCOMPARE(d->where.line, line);
    QVERIFY2(d->message.find("beyond int64") != std::string::npos, d->message.c_str());
    QVERIFY(a.totalParams >= 0);
    for (const NodeInfo &info : a.nodes) QVERIFY(info.paramCount >= 0);
  }

  // Flatten's own rule: merging dimensions whose product is beyond int64.
  void flattenRule() {
    const OpDef *flatten = Registry::instance().find("Flatten");
    QVERIFY(flatten);
    ParamMap p{{"start_dim", int64_t(1)}, {"end_dim", int64_t(-1)}};
    const Shape huge{int64_t(1) << 31, int64_t(1) << 31, int64_t(1) << 31};
    try {
      flatten->shape({huge}, p);
      QFAIL("no error");
    } catch (const ShapeError &e) {
      QVERIFY2(QString(e.what()).contains("beyond int64"), e.what());
    }
    QCOMPARE(flatten->shape({{2, 3, 4}}, p), (Shape{24}));
  }
};

QTEST_GUILESS_MAIN(TestSpecLimits)
#include "test_spec_limits.moc"
