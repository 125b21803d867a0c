// Every kind of problem in a model file is reported once, with its line, node, field and a
// message that says what was wrong and what was expected.

#include "core/spec/analysis.h"

#include <QtTest>

using namespace tw::spec;

namespace {

const char *kHeader = "nodes:\n  - {id: x, op: Input, shape: [784]}\n";  // lines 1-2; nodes start on line 3

std::string allMessages(const std::vector<Diagnostic> &diagnostics) { return formatDiagnostics(diagnostics); }

}  // namespace

class TestSpecValidation : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void analysisErrors_data() {
    QTest::addColumn<QString>("yaml");
    QTest::addColumn<QString>("message");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("node");
    QTest::addColumn<QString>("field");
    auto row = [](const char *name, std::string body, const char *message, int line, const char *node,
                  const char *field, bool header = true) {
      QTest::newRow(name) << QString::fromStdString((header ? kHeader : "") + body) << message << line << node << field;
    };
    row("unknown op", "  - {id: fc, op: Linaer, out_features: 10}\n", "unknown op 'Linaer'; did you mean 'Linear'?", 3,
        "fc", "op");
    row("duplicate id", "  - {id: a, op: ReLU}\n  - {id: a, op: Tanh}\n", "duplicate id 'a' (first used on line 3)", 4,
        "a", "id");
    row("unknown input", "  - {id: a, op: ReLU, inputs: [y]}\n", "unknown input 'y': no node has that id", 3, "a",
        "inputs");
    row("too few inputs", "  - {id: s, op: Add}\n", "Add takes at least 2 inputs, got 1 (x)", 3, "s", "inputs");
    row("too many inputs", "  - {id: r, op: ReLU}\n  - {id: l, op: Linear, out_features: 2, inputs: [x, r]}\n",
        "Linear takes exactly 1 input, got 2 (x, r)", 4, "l", "inputs");
    row("input with inputs", "  - {id: y, op: Input, shape: [3], inputs: [x]}\n", "Input takes no inputs, got 1", 3,
        "y", "inputs");
    row("cycle",
        "  - {id: a, op: Add, inputs: [x, c]}\n  - {id: b, op: ReLU}\n  - {id: c, op: ReLU}\n"
        "  - {id: d, op: ReLU}\n",
        "cycle: 'a' -> 'b' -> 'c' -> 'a'", 3, "a", "inputs");
    row("self loop", "  - {id: a, op: ReLU, inputs: [a]}\n", "cycle: 'a' -> 'a'", 3, "a", "inputs");
    row("unknown parameter", "  - {id: fc, op: Linear, out_feature: 10}\n",
        "unknown parameter 'out_feature' for Linear; did you mean 'out_features'?", 3, "fc", "out_feature");
    row("parameter of a parameterless op", "  - {id: r, op: ReLU, inplace: true}\n",
        "unknown parameter 'inplace' for ReLU (ReLU takes no parameters)", 3, "r", "inplace");
    row("missing required", "  - {id: fc, op: Linear}\n", "missing required parameter 'out_features'", 3, "fc",
        "out_features");
    row("wrong type int", "  - id: fc\n    op: Linear\n    out_features: abc\n", "expected an integer, got 'abc'", 5,
        "fc", "out_features");
    row("wrong type float int", "  - {id: fc, op: Linear, out_features: 2.5}\n", "expected an integer, got 2.5", 3,
        "fc", "out_features");
    row("wrong type bool", "  - {id: fc, op: Linear, out_features: 2, bias: maybe}\n",
        "expected true or false, got 'maybe'", 3, "fc", "bias");
    row("wrong type float", "  - {id: d, op: Dropout, p: high}\n", "expected a number, got 'high'", 3, "d", "p");
    row("wrong choice", "nodes:\n  - {id: x, op: Input, shape: [3], dtype: float16}\n",
        "expected one of float32, int64, got 'float16'", 2, "x", "dtype", false);
    row("wrong int pair", "nodes:\n  - {id: x, op: Input, shape: [1, 8, 8]}\n  - {id: p, op: MaxPool2d, kernel_size: [2, 2, 2]}\n",
        "expected an integer or a list of two integers, got [2, 2, 2]", 3, "p", "kernel_size", false);
    row("out of range", "  - {id: fc, op: Linear, out_features: 0}\n", "expected >= 1, got 0", 3, "fc",
        "out_features");
    row("out of range interval", "  - {id: d, op: Dropout, p: 1.5}\n", "expected a value in [0, 1], got 1.5", 3, "d",
        "p");
    row("out of range list", "nodes:\n  - {id: x, op: Input, shape: [1, 0]}\n", "expected >= 1, got [1, 0]", 2, "x",
        "shape", false);
    row("in_features mismatch",
        "nodes:\n  - {id: x, op: Input, shape: [1, 28, 28]}\n  - {id: flat, op: Flatten}\n"
        "  - id: fc\n    op: Linear\n    in_features: 100\n    out_features: 10\n",
        "expected 784 (the last dimension of the incoming shape), got 100 ('flat' gives [N, 784])", 6, "fc",
        "in_features", false);
    row("add shape mismatch",
        "  - {id: a, op: Linear, out_features: 64}\n  - {id: b, op: Linear, out_features: 32, inputs: [x]}\n"
        "  - {id: s, op: Add, inputs: [a, b]}\n",
        "input 1 is [64], input 2 is [32] ('a' gives [N, 64]; 'b' gives [N, 32])", 5, "s", "");
    row("mul shape mismatch",
        "nodes:\n  - {id: x, op: Input, shape: [4, 8, 8]}\n  - {id: g, op: Input, shape: [4, 2, 1]}\n"
        "  - {id: m, op: Mul, inputs: [g, x]}\n",
        "Mul needs inputs of equal rank whose dimensions are equal or 1; input 1 is [4, 2, 1], input 2 is [4, 8, 8]", 4,
        "m", "", false);
    row("conv2d on 1-D input", "  - {id: c, op: Conv2d, out_channels: 8, kernel_size: 3}\n",
        "Conv2d expects a [C, H, W] input (3 dims without the batch), got [784] ('x' gives [N, 784])", 3, "c", "");
    row("kernel larger than input",
        "nodes:\n  - {id: x, op: Input, shape: [1, 4, 4]}\n  - {id: c, op: Conv2d, out_channels: 8, kernel_size: 5}\n",
        "the kernel spans 5 along H but the padded input is only 4", 3, "c", "kernel_size", false);
    row("groups must divide",
        "nodes:\n  - {id: x, op: Input, shape: [3, 8, 8]}\n  - {id: c, op: Conv2d, out_channels: 8, kernel_size: 3, groups: 2}\n",
        "groups 2 must divide both in_channels (3) and out_channels (8)", 3, "c", "groups", false);
    row("pool padding too large",
        "nodes:\n  - {id: x, op: Input, shape: [1, 8, 8]}\n  - {id: p, op: MaxPool2d, kernel_size: 2, padding: 2}\n",
        "expected at most half the kernel size", 3, "p", "padding", false);
    row("flatten batch", "  - {id: f, op: Flatten, start_dim: 0}\n", "dim 0 is the batch dimension", 3, "f",
        "start_dim");
    row("concat mismatch",
        "nodes:\n  - {id: x, op: Input, shape: [4, 8]}\n  - {id: y, op: Input, shape: [4, 9]}\n"
        "  - {id: c, op: Concat, inputs: [x, y], dim: 1}\n",
        "Concat along dim 1 needs all other dimensions equal", 4, "c", "", false);
    row("concat dim out of range",
        "  - {id: c, op: Concat, inputs: [x, x], dim: 3}\n", "dim 3 is out of range for Concat", 3, "c", "dim");
    row("embedding of floats", "  - {id: e, op: Embedding, num_embeddings: 10, embedding_dim: 4}\n",
        "Embedding needs int64 indices, but 'x' gives float32 values", 3, "e", "inputs");
    row("linear on indices",
        "nodes:\n  - {id: x, op: Input, shape: [8], dtype: int64}\n  - {id: d, op: Dropout}\n"
        "  - {id: fc, op: Linear, out_features: 2}\n",
        "Linear needs float32 values, but 'd' gives int64", 4, "fc", "inputs", false);
    row("num_heads must divide",
        "nodes:\n  - {id: x, op: Input, shape: [10, 64]}\n  - {id: a, op: MultiheadAttention, num_heads: 5}\n",
        "num_heads 5 must divide embed_dim (64)", 3, "a", "num_heads", false);
    row("nhead must divide",
        "nodes:\n  - {id: x, op: Input, shape: [10, 64]}\n  - {id: t, op: TransformerEncoderLayer, nhead: 3}\n",
        "nhead 3 must divide d_model (64)", 3, "t", "nhead", false);
    row("attention on features", "  - {id: a, op: MultiheadAttention, num_heads: 4}\n",
        "MultiheadAttention expects a [T, E] input (2 dims without the batch), got [784]", 3, "a", "");
    row("embed_dim mismatch",
        "nodes:\n  - {id: x, op: Input, shape: [10, 64]}\n"
        "  - {id: a, op: MultiheadAttention, num_heads: 4, embed_dim: 32}\n",
        "expected 64 (the features E of the incoming shape), got 32", 3, "a", "embed_dim", false);
    row("reshape count",
        "nodes:\n  - {id: x, op: Input, shape: [1, 28, 28]}\n  - {id: r, op: Reshape, shape: [28, 27]}\n",
        "[28, 27] holds 756 elements, the input 784", 3, "r", "shape", false);
    row("reshape wildcard count", "  - {id: r, op: Reshape, shape: [5, -1]}\n",
        "[5, -1] cannot hold the 784 elements of the input: 784 is not a multiple of 5", 3, "r", "shape");
    row("reshape two wildcards", "  - {id: r, op: Reshape, shape: [-1, -1]}\n", "at most one dimension may be -1", 3,
        "r", "shape");
    row("reshape zero", "  - {id: r, op: Reshape, shape: [0, 784]}\n", "dimensions must be >= 1 or -1", 3, "r",
        "shape");
    row("reshape below -1", "  - {id: r, op: Reshape, shape: [-2, 392]}\n", "expected >= -1, got [-2, 392]", 3, "r",
        "shape");
    row("transpose batch", "  - {id: t, op: Transpose, dim0: 0, dim1: 1}\n", "dim 0 is the batch dimension; Transpose", 3,
        "t", "dim0");
    row("transpose out of range",
        "nodes:\n  - {id: x, op: Input, shape: [4, 8]}\n  - {id: t, op: Transpose, dim1: 3}\n",
        "dim 3 is out of range for Transpose on an input of 3 dims (batch included); expected -3..2", 3, "t", "dim1",
        false);
    row("permute length",
        "nodes:\n  - {id: x, op: Input, shape: [4, 8]}\n  - {id: p, op: Permute, dims: [2, 1, 3, 4]}\n",
        "expected 2 entries (a permutation of 1..2; the batch stays first) or 3 starting with 0, got 4: [2, 1, 3, 4]", 3,
        "p", "dims", false);
    row("permute moves the batch",
        "nodes:\n  - {id: x, op: Input, shape: [4, 8]}\n  - {id: p, op: Permute, dims: [1, 0, 2]}\n",
        "the first entry of [1, 0, 2] must be 0: the batch stays first", 3, "p", "dims", false);
    row("permute batch later",
        "nodes:\n  - {id: x, op: Input, shape: [4, 8]}\n  - {id: p, op: Permute, dims: [0, 2, 0]}\n",
        "dim 0 is the batch dimension; Permute", 3, "p", "dims", false);
    row("permute repeat",
        "nodes:\n  - {id: x, op: Input, shape: [4, 8]}\n  - {id: p, op: Permute, dims: [2, -1]}\n",
        "dimension 2 appears twice in [2, -1]", 3, "p", "dims", false);
    row("permute short form refuses the batch",
        "nodes:\n  - {id: x, op: Input, shape: [4, 8]}\n  - {id: p, op: Permute, dims: [0, 1]}\n",
        "dim 0 is the batch dimension; Permute", 3, "p", "dims", false);
    row("permute missing dims", "  - {id: p, op: Permute}\n", "missing required parameter 'dims'", 3, "p", "dims");
    row("mean batch", "  - {id: m, op: Mean, dim: 0}\n", "dim 0 is the batch dimension; Mean", 3, "m", "dim");
    row("max out of range", "  - {id: m, op: Max, dim: -3}\n", "dim -3 is out of range for Max", 3, "m", "dim");
    row("sum to a scalar", "  - {id: m, op: Sum}\n",
        "Sum over the only dimension of a [784] input leaves nothing per sample; set keepdim: true", 3, "m",
        "keepdim");
    row("mean of indices",
        "nodes:\n  - {id: x, op: Input, shape: [8], dtype: int64}\n  - {id: p, op: Permute, dims: [1]}\n"
        "  - {id: m, op: Mean, keepdim: true}\n",
        "Mean needs float32 values, but 'p' gives int64", 4, "m", "inputs", false);
    row("unknown output", "  - {id: a, op: ReLU}\noutput: b\n", "output 'b' is not a node of the model", 4, "",
        "output");
    row("no input node", "nodes:\n  - {id: a, op: ReLU}\n", "the model has no Input node", 0, "", "", false);
  }

  void analysisErrors() {
    QFETCH(QString, yaml);
    QFETCH(QString, message);
    QFETCH(int, line);
    QFETCH(QString, node);
    QFETCH(QString, field);
    const ModelSpec spec = parseModelYaml(yaml.toStdString(), "m.yaml");
    const Analysis a = analyze(spec);
    QVERIFY2(!a.ok(), "the problem went unnoticed");
    QVERIFY2(a.diagnostics.size() == 1, ("expected exactly one diagnostic:\n" + allMessages(a.diagnostics)).c_str());
    const Diagnostic &d = a.diagnostics.front();
    QVERIFY2(d.message.find(message.toStdString()) != std::string::npos, d.format().c_str());
    QCOMPARE(d.where.line, line);
    QCOMPARE(d.where.file, std::string("m.yaml"));
    QCOMPARE(QString::fromStdString(d.node), node);
    QCOMPARE(QString::fromStdString(d.field), field);
    QVERIFY_THROWS_EXCEPTION(SpecError, analyzeOrThrow(spec));
  }

  void collectsEveryIndependentProblem() {
    const Analysis a = analyze(parseModelYaml(std::string(kHeader) +
                                              "  - {id: a, op: Linaer, out_features: 5}\n"   // 3: unknown op
                                              "  - {id: b, op: ReLU}\n"                      // downstream: skipped
                                              "  - {id: c, op: Linear, inputs: [x]}\n"       // 5: missing out_features
                                              "  - {id: d, op: Linear, out_features: 5, in_features: 3, inputs: [x]}\n"
                                              "  - {id: e, op: Add, inputs: [d, b]}\n"       // downstream: skipped
                                              "  - {id: f, op: Dropout, p: -1, inputs: [x]}\n"));  // 8: range
    std::vector<int> lines;
    for (const Diagnostic &d : a.diagnostics) lines.push_back(d.where.line);
    std::sort(lines.begin(), lines.end());
    QCOMPARE(lines, (std::vector<int>{3, 5, 6, 8}));
    QVERIFY2(a.diagnostics[0].format().rfind("<model>:3:", 0) == 0, a.diagnostics[0].format().c_str());
  }

  void fillsDefaultsAndInferredValues() {
    const Analysis a = analyze(parseModelYaml(
        "nodes:\n  - {id: x, op: Input, shape: [3, 16, 16]}\n  - {id: c, op: Conv2d, out_channels: 8, kernel_size: 3}\n"
        "  - {id: bn, op: BatchNorm2d}\n  - {id: p, op: MaxPool2d, kernel_size: 2}\n  - {id: f, op: Flatten}\n"
        "  - {id: ln, op: LayerNorm}\n  - {id: fc, op: Linear, out_features: 4}\n"));
    QVERIFY2(a.ok(), allMessages(a.diagnostics).c_str());
    QCOMPARE(getInt(a.find("c")->params, "in_channels"), int64_t(3));
    QCOMPARE(getInts(a.find("c")->params, "stride"), (IntList{1, 1}));
    QCOMPARE(getInts(a.find("c")->params, "kernel_size"), (IntList{3, 3}));
    QCOMPARE(getBool(a.find("c")->params, "bias"), true);
    QCOMPARE(getInt(a.find("bn")->params, "num_features"), int64_t(8));
    QCOMPARE(getFloat(a.find("bn")->params, "eps"), 1e-5);
    QCOMPARE(getInts(a.find("p")->params, "stride"), (IntList{2, 2}));
    QCOMPARE(getInt(a.find("ln")->params, "normalized_shape"), int64_t(392));
    QCOMPARE(getInt(a.find("fc")->params, "in_features"), int64_t(392));
    QCOMPARE(getString(a.find("x")->params, "dtype"), std::string("float32"));
  }

  void topologicalOrderFollowsTheFile() {
    const Analysis a = analyze(parseModelYaml(
        "nodes:\n  - {id: x, op: Input, shape: [4]}\n  - {id: late, op: Add, inputs: [b, a]}\n"
        "  - {id: b, op: ReLU, inputs: [x]}\n  - {id: a, op: Tanh, inputs: [x]}\n  - {id: z, op: GELU, inputs: [x]}\n"
        "output: late\n"));
    QVERIFY2(a.ok(), allMessages(a.diagnostics).c_str());
    std::vector<std::string> order;
    for (const NodeInfo &n : a.nodes) order.push_back(n.id);
    QCOMPARE(order, (std::vector<std::string>{"x", "b", "a", "late", "z"}));
  }

  void parseErrors_data() {
    QTest::addColumn<QString>("yaml");
    QTest::addColumn<QString>("message");
    QTest::addColumn<int>("line");
    QTest::newRow("bad yaml") << "nodes:\n  - {id: x, op: Input\n  - {id: y}\n" << "invalid YAML" << 3;
    QTest::newRow("trainable not a boolean") << "nodes:\n  - {id: x, op: Input, shape: [3]}\n  - id: fc\n    op: Linear\n"
                                                "    out_features: 2\n    trainable: no-thanks\n"
                                             << "'trainable' must be true or false" << 6;
    QTest::newRow("lr_factor zero") << "nodes:\n  - {id: x, op: Input, shape: [3]}\n  - {id: fc, op: Linear, "
                                       "out_features: 2, lr_factor: 0}\n"
                                    << "'lr_factor' must be a number above 0" << 3;
    // yaml-cpp says "illegal block entry" and "bad file" for these two.
    QTest::newRow("tab in indentation") << "nodes:\n  - {id: x, op: Input, shape: [3]}\n\t- {id: y, op: ReLU}\n"
                                        << "invalid YAML: a tab in the indentation" << 3;
    QTest::newRow("nesting too deep") << "nodes: " + QString(600, '[') << "nested too deeply" << 1;
    QTest::newRow("unclosed list") << "name: m\nnodes: [{id: x, op: Input}\n" << "'[' list is not closed" << 3;
    QTest::newRow("mismatched bracket") << "nodes:\n  - {id: x, op: Input, shape: [3}\n"
                                        << "']' closes '[' and '}' closes '{'" << 2;
    QTest::newRow("duplicate key") << "nodes:\n  - {id: x, op: Input, shape: [3], id: z}\n"
                                   << "key 'id' appears twice in one map (first on line 2)" << 2;
    QTest::newRow("unknown top-level key") << "name: m\nnodez: []\n" << "unknown top-level key 'nodez'" << 2;
    QTest::newRow("no nodes") << "name: m\n" << "the model has no 'nodes' list" << 1;
    QTest::newRow("missing id") << "nodes:\n  - {id: x, op: Input, shape: [3]}\n  - {op: ReLU}\n"
                                << "the node has no 'id'" << 3;
    QTest::newRow("unknown block") << "blocks:\n  b: {nodes: [{id: r, op: ReLU}]}\nnodes:\n  - {id: x, op: Input}\n"
                                      "  - {id: y, block: dense}\n"
                                   << "unknown block 'dense' (blocks: b)" << 5;
    QTest::newRow("unknown block parameter")
        << "blocks:\n  b: {params: {w: 2}, inputs: [x], nodes: [{id: r, op: ReLU}]}\nnodes:\n  - {id: x, op: Input}\n"
           "  - {id: y, block: b, widht: 3}\n"
        << "block 'b' has no parameter 'widht' (parameters: w)" << 5;
    QTest::newRow("unknown substitution")
        << "blocks:\n  b:\n    params: {w: 2}\n    inputs: [x]\n    nodes:\n      - {id: r, op: Linear, out_features: $v}\n"
           "nodes:\n  - {id: x, op: Input}\n  - {id: y, block: b}\n"
        << "'$v' is not a parameter of block 'b'" << 6;
    QTest::newRow("block input count")
        << "blocks:\n  b: {inputs: [p, q], nodes: [{id: s, op: Add, inputs: [p, q]}]}\nnodes:\n"
           "  - {id: x, op: Input}\n  - {id: y, block: b, inputs: [x]}\n"
        << "block 'b' takes 2 input(s) (p, q), got 1" << 5;
    QTest::newRow("op and block") << "blocks:\n  b: {nodes: [{id: r, op: ReLU}]}\nnodes:\n  - {id: y, op: ReLU, block: b}\n"
                                  << "give either 'op' or 'block', not both" << 4;
    QTest::newRow("both lists") << "nodes: []\nlayers: []\n" << "give either 'nodes' or 'layers'" << 2;
    QTest::newRow("not a map") << "- a\n- b\n" << "must be a YAML map" << 1;
  }

  void parseErrors() {
    QFETCH(QString, yaml);
    QFETCH(QString, message);
    QFETCH(int, line);
    try {
      parseModelYaml(yaml.toStdString(), "bad.yaml");
    } catch (const SpecError &e) {
      QVERIFY(!e.diagnostics().empty());
      const Diagnostic &d = e.diagnostics().front();
      QVERIFY2(d.message.find(message.toStdString()) != std::string::npos, d.format().c_str());
      QCOMPARE(d.where.line, line);
      QVERIFY2(std::string(e.what()).rfind("bad.yaml:" + std::to_string(line), 0) == 0, e.what());
      return;
    }
    QFAIL("no SpecError thrown");
  }

  void diagnosticFormat() {
    const Diagnostic d{{"model.yaml", 12, 5}, "fc1", "in_features", "expected 784, got 100"};
    QCOMPARE(d.format(), std::string("model.yaml:12:5: node 'fc1', field 'in_features': expected 784, got 100"));
    const Diagnostic fileLevel{{"m.yaml", 0, 0}, "", "", "the model has no Input node"};
    QCOMPARE(fileLevel.format(), std::string("m.yaml: the model has no Input node"));
  }
};

QTEST_APPLESS_MAIN(TestSpecValidation)
#include "test_spec_validation.moc"
