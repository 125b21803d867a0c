// The model fields a sweep may search, and their values written into a model: plain nodes, block
// instances (nested too), `layers:` lists with generated ids, `params:` maps, quoted text.
#include "core/spec/analysis.h"
#include "core/sweep/model_fields.h"

#include <yaml-cpp/yaml.h>

#include <QtTest>

using namespace tw;

namespace {

const char *kNested = R"(name: nested
blocks:
  dense:
    params: {width: 64, p: 0.1, note: '12'}
    inputs: [x]
    nodes:
      - {id: fc, op: Linear, out_features: $width, inputs: [x]}
      - {id: drop, op: Dropout, params: {p: $p}}
  pair:
    params: {size: 32}
    inputs: [x]
    nodes:
      - {id: a, block: dense, width: $size, inputs: [x]}
      - {id: b, block: dense, width: $size}
nodes:
  - {id: x, op: Input, shape: [8]}
  - {id: twin, block: pair, size: 16}
  - {id: out, op: Linear, params: {out_features: 3}}
)";

const sweep::ModelField *find(const std::vector<sweep::ModelField> &fields, const std::string &key) {
  for (const auto &f : fields)
    if (f.key == key) return &f;
  return nullptr;
}

}  // namespace

class TestModelFields : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void fieldsOfPlainNodesAndBlockInstances() {
    const auto fields = sweep::modelFields(kNested);
    const sweep::ModelField *size = find(fields, "model.twin.size");
    QVERIFY(size);
    QCOMPARE(size->block, std::string("pair"));
    QCOMPARE(size->current, std::string("16"));
    // Through both nested instances to the Linear inside dense.
    QCOMPARE(size->params.size(), size_t(2));
    QCOMPARE(size->params[0]->name, std::string("out_features"));
    const sweep::ModelField *out = find(fields, "model.out.out_features");
    QVERIFY(out && out->op == "Linear" && out->current == "3");
    QVERIFY(find(fields, "model.out.bias"));
    QVERIFY(!find(fields, "model.out.in_features"));  // inferred
    QVERIFY(!find(fields, "model.x.shape"));          // a list
  }

  void layersListsUseTheGeneratedIds() {
    const char *layers = "layers:\n  - {op: Input, shape: [4]}\n  - {op: Linear, out_features: 8}\n"
                         "  - {op: ReLU}\n  - {op: Linear, out_features: 2}\n";
    const auto fields = sweep::modelFields(layers);
    QVERIFY(find(fields, "model.linear_1.out_features"));
    QVERIFY(find(fields, "model.linear_3.out_features"));
    YAML::Node root = YAML::Load(layers);
    QVERIFY(sweep::setModelField(root, "linear_1", "out_features", "5"));
    YAML::Emitter out;
    out << root;
    const spec::ModelSpec model = spec::parseModelYaml(out.c_str());
    QCOMPARE(spec::getInt(model.find("linear_1")->params, "out_features"), int64_t(5));
  }

  void valuesGoWhereTheModelWritesThem() {
    YAML::Node root = YAML::Load(kNested);
    QVERIFY(sweep::setModelField(root, "out", "out_features", "5"));
    QVERIFY(sweep::setModelField(root, "twin", "size", "24"));
    QVERIFY(!sweep::setModelField(root, "nope", "size", "24"));
    QCOMPARE(root["nodes"][2]["params"]["out_features"].as<int>(), 5);
    QVERIFY(!root["nodes"][2]["out_features"]);  // not a second, conflicting key
    YAML::Emitter out;
    out << root;
    const spec::Analysis analysis = spec::analyze(spec::parseModelYaml(out.c_str()));
    QVERIFY2(analysis.ok(), spec::formatDiagnostics(analysis.diagnostics).c_str());
    QCOMPARE(analysis.find("twin.a.fc")->outputShape.back(), int64_t(24));
    QCOMPARE(analysis.find("twin.b.fc")->outputShape.back(), int64_t(24));
    QCOMPARE(analysis.find("out")->outputShape.back(), int64_t(5));
  }

  void problemsPointAtWhatToSearch_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("expected");
    QTest::newRow("found") << "model.twin.size" << "";
    QTest::newRow("no field") << "model.model" << "model.<node id>.<field>";
    QTest::newRow("unknown node") << "model.twim.size" << "the model has no node 'twim' (did you mean 'twin'?)";
    QTest::newRow("a block member") << "model.twin.a.width"
                                    << "'twin.a' is a member of block instance 'twin' (block pair), whose definition "
                                       "every instance shares; its width is the block parameter 'size': search "
                                       "model.twin.size";
    QTest::newRow("an op without the field") << "model.out.width" << "node 'out' (Linear) has no parameter 'width'";
  }
  void problemsPointAtWhatToSearch() {
    QFETCH(QString, key);
    QFETCH(QString, expected);
    const QString problem =
        QString::fromStdString(sweep::modelFieldProblem(sweep::modelFields(kNested), kNested, key.toStdString()));
    if (expected.isEmpty()) QVERIFY2(problem.isEmpty(), qPrintable(problem));
    else QVERIFY2(problem.contains(expected), qPrintable(problem));
  }
};

QTEST_APPLESS_MAIN(TestModelFields)
#include "test_model_fields.moc"
