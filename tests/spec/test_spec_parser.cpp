// The model file format: sequential shorthand, explicit DAGs, blocks, `layers:`, round trips,
// source locations, and the example models that ship with Torchwright.

#include "core/spec/analysis.h"
#include "core/spec/model_spec.h"

#include <QDir>
#include <QtTest>

using namespace tw::spec;

namespace {

std::vector<std::string> inputsOf(const ModelSpec &spec, const std::string &id) {
  const Node *node = spec.find(id);
  return node ? node->inputs : std::vector<std::string>{"<missing node " + id + ">"};
}

using Ids = std::vector<std::string>;

}  // namespace

class TestSpecParser : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void sequentialShorthand() {
    const ModelSpec spec = parseModelYaml(
        "name: mlp\n"
        "nodes:\n"
        "  - {id: x, op: Input, shape: [784]}\n"
        "  - {id: fc1, op: Linear, out_features: 256}\n"
        "  - {id: act, op: ReLU}\n"
        "  - {id: fc2, op: Linear, out_features: 10}\n");
    QCOMPARE(spec.name, std::string("mlp"));
    QCOMPARE(spec.nodes.size(), size_t(4));
    QVERIFY(inputsOf(spec, "x").empty());
    QCOMPARE(inputsOf(spec, "fc1"), Ids{"x"});
    QCOMPARE(inputsOf(spec, "act"), Ids{"fc1"});
    QCOMPARE(inputsOf(spec, "fc2"), Ids{"act"});
    QCOMPARE(spec.output, std::string("fc2"));
    QCOMPARE(std::get<int64_t>(spec.find("fc1")->params.at("out_features")), int64_t(256));
    QCOMPARE(std::get<IntList>(spec.find("x")->params.at("shape")), IntList{784});
  }

  void explicitDagWithResidual() {
    const ModelSpec spec = parseModelYaml(
        "nodes:\n"
        "  - {id: x, op: Input, shape: [64]}\n"
        "  - {id: a, op: Linear, out_features: 64}\n"
        "  - {id: b, op: ReLU}\n"
        "  - {id: sum, op: Add, inputs: [x, b]}\n"
        "  - {id: side, op: Linear, out_features: 32, inputs: x}\n"
        "  - {id: cat, op: Concat, inputs: [sum, side], dim: 1}\n"
        "  - {id: head, op: Linear, out_features: 2, inputs: [sum]}\n"
        "output: cat\n");
    QCOMPARE(inputsOf(spec, "sum"), (Ids{"x", "b"}));
    QCOMPARE(inputsOf(spec, "side"), Ids{"x"});
    QCOMPARE(inputsOf(spec, "cat"), (Ids{"sum", "side"}));
    QCOMPARE(spec.output, std::string("cat"));
    const Analysis a = analyze(spec);
    QVERIFY2(a.ok(), formatDiagnostics(a.diagnostics).c_str());
    QCOMPARE(a.find("cat")->outputShape, Shape{96});
    QCOMPARE(a.output, std::string("cat"));
  }

  void blocksWithParamsAndReferences() {
    const ModelSpec spec = parseModelYaml(
        "blocks:\n"
        "  dense:\n"
        "    params: {width: 128, p: 0.1}\n"
        "    inputs: [x]\n"
        "    nodes:\n"
        "      - {id: fc, op: Linear, out_features: $width, inputs: [x]}\n"
        "      - {id: act, op: ReLU}\n"
        "      - {id: drop, op: Dropout, p: $p}\n"
        "    output: drop\n"
        "  residual:\n"
        "    params: {width: 16}\n"
        "    inputs: [x]\n"
        "    nodes:\n"
        "      - {id: inner, block: dense, width: $width, p: 0.0}\n"
        "      - {id: sum, op: Add, inputs: [x, inner]}\n"
        "nodes:\n"
        "  - {id: image, op: Input, shape: [16]}\n"
        "  - {id: h1, block: dense, width: 256}\n"
        "  - {id: h2, block: dense, params: {p: 0.5}}\n"
        "  - {id: r, block: residual, inputs: [h2]}\n"
        "  - {id: skip, op: Add, inputs: [h2, r]}\n"
        "  - {id: out, op: Linear, out_features: 3, inputs: [h1]}\n");
    QVERIFY(spec.find("h1") == nullptr);
    QCOMPARE(inputsOf(spec, "h1.fc"), Ids{"image"});
    QCOMPARE(inputsOf(spec, "h1.act"), Ids{"h1.fc"});
    QCOMPARE(inputsOf(spec, "h2.fc"), Ids{"h1.drop"});  // previous node = the instance's output
    QCOMPARE(std::get<int64_t>(spec.find("h1.fc")->params.at("out_features")), int64_t(256));
    QCOMPARE(std::get<double>(spec.find("h1.drop")->params.at("p")), 0.1);
    QCOMPARE(std::get<int64_t>(spec.find("h2.fc")->params.at("out_features")), int64_t(128));
    QCOMPARE(std::get<double>(spec.find("h2.drop")->params.at("p")), 0.5);
    // Nested instance: residual's `inner` is itself a dense block bound to residual's input.
    QCOMPARE(inputsOf(spec, "r.inner.fc"), Ids{"h2.drop"});
    QCOMPARE(std::get<int64_t>(spec.find("r.inner.fc")->params.at("out_features")), int64_t(16));
    QCOMPARE(inputsOf(spec, "r.sum"), (Ids{"h2.drop", "r.inner.drop"}));
    QCOMPARE(inputsOf(spec, "skip"), (Ids{"h2.drop", "r.sum"}));
    QCOMPARE(inputsOf(spec, "out"), Ids{"h1.drop"});
    QCOMPARE(spec.output, std::string("out"));
    const Analysis a = analyze(spec);
    QVERIFY2(!a.ok(), "r.sum adds [16] to [128]: the analysis must see through the blocks");
    QCOMPARE(a.diagnostics.size(), size_t(1));
    QCOMPARE(a.diagnostics[0].node, std::string("r.sum"));
  }

  void instanceAsModelOutput() {
    const ModelSpec spec = parseModelYaml(
        "blocks:\n"
        "  head: {inputs: [x], nodes: [{id: fc, op: Linear, out_features: 4}, {id: sm, op: Softmax}], output: fc}\n"
        "nodes:\n"
        "  - {id: x, op: Input, shape: [8]}\n"
        "  - {id: h, block: head}\n");
    QCOMPARE(spec.output, std::string("h.fc"));  // the block's output, not its last node
    QCOMPARE(inputsOf(spec, "h.fc"), Ids{"x"});
  }

  void layersSynonymGeneratesIds() {
    const ModelSpec spec = parseModelYaml(
        "layers:\n"
        "  - {op: Input, shape: [10]}\n"
        "  - {op: Linear, out_features: 5}\n"
        "  - {id: act, op: ReLU}\n"
        "  - {op: Linear, out_features: 2}\n");
    Ids ids;
    for (const Node &n : spec.nodes) ids.push_back(n.id);
    QCOMPARE(ids, (Ids{"input_0", "linear_1", "act", "linear_3"}));
    QCOMPARE(inputsOf(spec, "linear_3"), Ids{"act"});
    QVERIFY(analyze(spec).ok());
  }

  void roundTripThroughToYaml() {
    const ModelSpec spec = parseModelYaml(
        "name: rt\n"
        "blocks:\n"
        "  b: {params: {k: 3}, inputs: [x], nodes: [{id: c, op: Conv2d, out_channels: 4, kernel_size: $k}]}\n"
        "nodes:\n"
        "  - {id: x, op: Input, shape: [1, 8, 8], dtype: float32}\n"
        "  - {id: b1, block: b, k: 5}\n"
        "  - {id: bn, op: BatchNorm2d, eps: 0.001, affine: false}\n"
        "  - {id: odd, op: Dropout, p: '0.5'}\n"
        "  - {id: f, op: Flatten, inputs: [bn]}\n"
        "  - {id: cat, op: Concat, inputs: [f, f], dim: -1}\n"
        "  - {id: one, op: LeakyReLU, negative_slope: 1.0}\n"
        "output: one\n");
    const std::string text = toYaml(spec);
    const ModelSpec again = parseModelYaml(text);
    QCOMPARE(again.name, spec.name);
    QCOMPARE(again.output, spec.output);
    QCOMPARE(again.nodes.size(), spec.nodes.size());
    for (size_t i = 0; i < spec.nodes.size(); ++i) {
      QCOMPARE(again.nodes[i].id, spec.nodes[i].id);
      QCOMPARE(again.nodes[i].op, spec.nodes[i].op);
      QCOMPARE(again.nodes[i].inputs, spec.nodes[i].inputs);
      QVERIFY2(again.nodes[i].params == spec.nodes[i].params, (spec.nodes[i].id + " params differ:\n" + text).c_str());
    }
    // Types survive: a quoted number stays a string, 1.0 stays a float, -1 an int.
    QVERIFY(std::holds_alternative<std::string>(again.find("odd")->params.at("p")));
    QVERIFY(std::holds_alternative<double>(again.find("one")->params.at("negative_slope")));
    QCOMPARE(std::get<int64_t>(again.find("cat")->params.at("dim")), int64_t(-1));
    QCOMPARE(std::get<int64_t>(again.find("b1.c")->params.at("kernel_size")), int64_t(5));
    QCOMPARE(toYaml(again), text);
  }

  void fineTuningKeysOnNodesAndBlocks() {
    const ModelSpec spec = parseModelYaml(
        "blocks:\n"
        "  dense:\n"
        "    params: {f: 1.0}\n"
        "    inputs: [x]\n"
        "    nodes:\n"
        "      - {id: fc, op: Linear, out_features: 4}\n"
        "      - {id: norm, op: LayerNorm, lr_factor: $f}\n"
        "    output: norm\n"
        "nodes:\n"
        "  - {id: x, op: Input, shape: [6]}\n"
        "  - {id: backbone, block: dense, trainable: false}\n"
        "  - {id: mid, block: dense, f: 2, lr_factor: 0.1}\n"
        "  - {id: head, op: Linear, out_features: 3, lr_factor: 10}\n");
    // An instance's keys reach every member that does not set its own.
    QVERIFY(!spec.find("backbone.fc")->trainable);
    QVERIFY(!spec.find("backbone.norm")->trainable);
    QCOMPARE(spec.find("backbone.norm")->lrFactor, 1.0);
    QCOMPARE(spec.find("mid.fc")->lrFactor, 0.1);
    QCOMPARE(spec.find("mid.norm")->lrFactor, 2.0);
    QVERIFY(spec.find("mid.fc")->trainable);
    QCOMPARE(spec.find("head")->lrFactor, 10.0);
    QCOMPARE(spec.find("head")->locationOf("lr_factor").line, 13);
    const Analysis a = analyze(spec);
    QVERIFY(a.ok());
    QCOMPARE(a.trainableParams, a.totalParams - (6 * 4 + 4) - (4 + 4));
    QVERIFY(!a.find("backbone.fc")->trainable);
    QCOMPARE(a.find("head")->lrFactor, 10.0);
    // Written back beside params, read again the same.
    const ModelSpec again = parseModelYaml(toYaml(spec));
    for (const Node &node : spec.nodes) {
      QCOMPARE(again.find(node.id)->trainable, node.trainable);
      QCOMPARE(again.find(node.id)->lrFactor, node.lrFactor);
      QCOMPARE(again.find(node.id)->params, node.params);
    }
    const std::string summary = formatSummary(spec, a);
    QVERIFY2(summary.find("Non-trainable params: 36\n") != std::string::npos, summary.c_str());
    QVERIFY2(summary.find("Linear [frozen]") != std::string::npos, summary.c_str());
    QVERIFY2(summary.find("Linear [lr x10]") != std::string::npos, summary.c_str());
  }

  void recordsLineNumbers() {
    const ModelSpec spec = parseModelYaml(
        "name: lines\n"                         // 1
        "nodes:\n"                              // 2
        "  - id: x\n"                           // 3
        "    op: Input\n"                       // 4
        "    shape: [4]\n"                      // 5
        "  - id: fc\n"                          // 6
        "    op: Linear\n"                      // 7
        "    params:\n"                         // 8
        "      out_features: 3\n"               // 9
        "    bias: false\n",                    // 10
        "lines.yaml");
    const Node *x = spec.find("x");
    const Node *fc = spec.find("fc");
    QCOMPARE(x->where.line, 3);
    QCOMPARE(x->where.file, std::string("lines.yaml"));
    QCOMPARE(x->locationOf("shape").line, 5);
    QCOMPARE(fc->where.line, 6);
    QCOMPARE(fc->where.column, 5);
    QCOMPARE(fc->locationOf("op").line, 7);
    QCOMPARE(fc->locationOf("out_features").line, 9);
    QCOMPARE(fc->locationOf("bias").line, 10);
    QCOMPARE(fc->locationOf("no_such_field").line, 6);
    QCOMPARE(fc->paramLocations.size(), size_t(3));
  }

  void blockParameterLinesPointAtTheOverride() {
    const ModelSpec spec = parseModelYaml(
        "blocks:\n"
        "  d: {params: {w: 4}, inputs: [x], nodes: [{id: fc, op: Linear, out_features: $w}]}\n"
        "nodes:\n"
        "  - {id: x, op: Input, shape: [2]}\n"
        "  - id: a\n"
        "    block: d\n"
        "    w: 0\n");
    QCOMPARE(spec.find("a.fc")->locationOf("out_features").line, 7);
    QCOMPARE(spec.find("a.fc")->where.line, 2);
    const Analysis a = analyze(spec);
    QCOMPARE(a.diagnostics.size(), size_t(1));
    QCOMPARE(a.diagnostics[0].where.line, 7);
  }

  void readsFilesAndRejectsMissingOnes() {
    QVERIFY_THROWS_EXCEPTION(SpecError, parseModelFile("/nonexistent/model.yaml"));
  }

  void examplesAnalyzeCleanly() {
    QDir dir(QStringLiteral(TW_SOURCE_DIR "/resources/examples"));
    const QStringList files = dir.entryList({QStringLiteral("*.model.yaml")}, QDir::Files, QDir::Name);
    QVERIFY2(files.size() >= 3, "fashion_mlp, fashion_cnn and fashion_transformer ship with Torchwright");
    for (const QString &file : files) {
      const std::string path = dir.filePath(file).toStdString();
      ModelSpec spec;
      try {
        spec = parseModelFile(path);
      } catch (const SpecError &e) {
        QFAIL(e.what());
      }
      const Analysis a = analyze(spec);
      QVERIFY2(a.ok(), (path + ":\n" + formatDiagnostics(a.diagnostics)).c_str());
      // Ten Fashion-MNIST classes, or five for the fine-tuning example's halves.
      const bool half = file.startsWith(QStringLiteral("fashion_cnn5")) || file.startsWith(QStringLiteral("fashion_finetune"));
      QCOMPARE(a.find(a.output)->outputShape, Shape{half ? 5 : 10});
      QCOMPARE(a.find(a.nodes.front().id)->outputShape, (Shape{1, 28, 28}));
    }
    const Analysis mlp = analyze(parseModelFile(dir.filePath("fashion_mlp.model.yaml").toStdString()));
    QCOMPARE(mlp.totalParams, int64_t(235146));
    QVERIFY(mlp.find("h1.fc") && mlp.find("h2.drop"));
    const Analysis cnn = analyze(parseModelFile(dir.filePath("fashion_cnn.model.yaml").toStdString()));
    QCOMPARE(cnn.find("pool2")->outputShape, (Shape{64, 7, 7}));
    QCOMPARE(cnn.totalParams, int64_t(320 + 64 + 18496 + 128 + 803072 + 2570));
    const Analysis transformer = analyze(parseModelFile(dir.filePath("fashion_transformer.model.yaml").toStdString()));
    QCOMPARE(transformer.find("rows")->outputShape, (Shape{28, 28}));
    QCOMPARE(transformer.find("encoder2")->outputShape, (Shape{28, 64}));
    QCOMPARE(transformer.find("pool")->outputShape, Shape{64});
    // Linear 28->64, positions 28x64, two encoder layers (as torch counts them), Linear 64->10.
    QCOMPARE(transformer.totalParams, int64_t(1856 + 1792 + 2 * 33472 + 650));
  }
};

QTEST_APPLESS_MAIN(TestSpecParser)
#include "test_spec_parser.moc"
