// Analytic shape and parameter-count rules for every registry op, against values worked out by
// hand from torch's formulas (the engine's registry walk checks the same rules against LibTorch).

#include "core/spec/analysis.h"
#include "core/spec/registry.h"

#include <QtTest>

#include <algorithm>
#include <functional>
#include <set>

using namespace tw::spec;

class TestSpecShapes : public QObject {
  Q_OBJECT
  // row(name, op, params, inputs, output, paramCount): the table shapes() checks and
  // everyOpIsCovered() reads, each on its own.
  using Row = std::function<void(const char *, const char *, const char *, const char *, const char *, qint64)>;
  static void forEachRow(const Row &row) {
    row("Input", "Input", "shape: [3, 32, 32]", "", "[3, 32, 32]", 0);
    row("Input int64", "Input", "shape: [12], dtype: int64", "", "[12]", 0);
    row("Linear", "Linear", "out_features: 256", "[784]", "[256]", 200960);
    row("Linear no bias, 2-D", "Linear", "out_features: 5, bias: false", "[10, 20]", "[10, 5]", 100);
    row("Linear given in_features", "Linear", "in_features: 4, out_features: 1", "[4]", "[1]", 5);
    row("Conv1d stride padding", "Conv1d", "out_channels: 8, kernel_size: 5, stride: 2, padding: 1", "[3, 100]",
        "[8, 49]", 128);
    row("Conv1d groups dilation", "Conv1d", "out_channels: 6, kernel_size: 3, groups: 3, dilation: 2", "[3, 10]",
        "[6, 6]", 24);
    row("Conv2d same padding", "Conv2d", "out_channels: 32, kernel_size: 3, padding: 1", "[1, 28, 28]",
        "[32, 28, 28]", 320);
    row("Conv2d stride", "Conv2d", "out_channels: 16, kernel_size: 3, stride: 2, padding: 1", "[3, 32, 32]",
        "[16, 16, 16]", 448);
    row("Conv2d dilation", "Conv2d", "out_channels: 8, kernel_size: 3, dilation: 2", "[3, 32, 32]", "[8, 28, 28]", 224);
    row("Conv2d groups no bias", "Conv2d", "out_channels: 8, kernel_size: 3, groups: 2, bias: false", "[4, 10, 10]",
        "[8, 8, 8]", 144);
    row("Conv2d pairs", "Conv2d", "out_channels: 4, kernel_size: [3, 5], padding: [1, 2], stride: [1, 2]",
        "[2, 10, 10]", "[4, 10, 5]", 124);
    row("BatchNorm1d features", "BatchNorm1d", "", "[16]", "[16]", 32);
    row("BatchNorm1d sequence", "BatchNorm1d", "eps: 0.001, momentum: 0.2", "[16, 50]", "[16, 50]", 32);
    row("BatchNorm1d no affine", "BatchNorm1d", "affine: false", "[16]", "[16]", 0);
    row("BatchNorm2d", "BatchNorm2d", "", "[32, 7, 7]", "[32, 7, 7]", 64);
    row("LayerNorm", "LayerNorm", "", "[10, 64]", "[10, 64]", 128);
    row("LayerNorm no affine", "LayerNorm", "elementwise_affine: false, eps: 0.0001", "[64]", "[64]", 0);
    row("Dropout", "Dropout", "p: 0.25", "[5]", "[5]", 0);
    row("ReLU", "ReLU", "", "[3, 4]", "[3, 4]", 0);
    row("LeakyReLU", "LeakyReLU", "negative_slope: 0.2", "[3, 4]", "[3, 4]", 0);
    row("GELU", "GELU", "", "[7]", "[7]", 0);
    row("SiLU", "SiLU", "", "[2, 2, 2]", "[2, 2, 2]", 0);
    row("Tanh", "Tanh", "", "[9]", "[9]", 0);
    row("Sigmoid", "Sigmoid", "", "[1]", "[1]", 0);
    row("ReLU6", "ReLU6", "", "[16, 5, 5]", "[16, 5, 5]", 0);
    row("Hardsigmoid", "Hardsigmoid", "", "[8]", "[8]", 0);
    row("Hardswish", "Hardswish", "", "[3, 4]", "[3, 4]", 0);
    row("Softmax", "Softmax", "", "[10]", "[10]", 0);
    row("LogSoftmax dim", "LogSoftmax", "dim: 1", "[5, 10]", "[5, 10]", 0);
    row("MaxPool2d", "MaxPool2d", "kernel_size: 2", "[32, 28, 28]", "[32, 14, 14]", 0);
    row("MaxPool2d stride", "MaxPool2d", "kernel_size: 3, stride: 2", "[1, 7, 7]", "[1, 3, 3]", 0);
    row("MaxPool2d ceil", "MaxPool2d", "kernel_size: 3, stride: 2, ceil_mode: true", "[1, 8, 8]", "[1, 4, 4]", 0);
    row("MaxPool2d floor", "MaxPool2d", "kernel_size: 3, stride: 2", "[1, 8, 8]", "[1, 3, 3]", 0);
    // The last window would start in the right padding: torch drops it.
    row("MaxPool2d ceil drop", "MaxPool2d", "kernel_size: 3, stride: 3, padding: 1, ceil_mode: true", "[1, 5, 5]",
        "[1, 2, 2]", 0);
    row("MaxPool2d dilation", "MaxPool2d", "kernel_size: 2, dilation: 2", "[1, 8, 8]", "[1, 3, 3]", 0);
    row("AvgPool2d", "AvgPool2d", "kernel_size: 2", "[3, 8, 8]", "[3, 4, 4]", 0);
    row("AvgPool2d ceil", "AvgPool2d", "kernel_size: 2, ceil_mode: true", "[1, 7, 7]", "[1, 4, 4]", 0);
    row("AvgPool2d padding", "AvgPool2d", "kernel_size: 3, stride: 1, padding: 1, count_include_pad: false",
        "[1, 7, 7]", "[1, 7, 7]", 0);
    row("AdaptiveAvgPool2d", "AdaptiveAvgPool2d", "output_size: 1", "[64, 7, 7]", "[64, 1, 1]", 0);
    row("AdaptiveAvgPool2d pair", "AdaptiveAvgPool2d", "output_size: [3, 4]", "[8, 9, 9]", "[8, 3, 4]", 0);
    row("Flatten", "Flatten", "", "[64, 7, 7]", "[3136]", 0);
    row("Flatten from 2", "Flatten", "start_dim: 2", "[64, 7, 7]", "[64, 49]", 0);
    row("Flatten 1..2", "Flatten", "start_dim: 1, end_dim: 2", "[64, 7, 7]", "[448, 7]", 0);
    row("Flatten negative end", "Flatten", "end_dim: -2", "[64, 7, 7]", "[448, 7]", 0);
    row("Flatten single dim", "Flatten", "start_dim: -1", "[64, 7, 7]", "[64, 7, 7]", 0);
    row("Add", "Add", "", "[64];[64]", "[64]", 0);
    row("Add three", "Add", "", "[2, 3];[2, 3];[2, 3]", "[2, 3]", 0);
    row("Mul", "Mul", "", "[16, 8, 8];[16, 8, 8]", "[16, 8, 8]", 0);
    row("Mul channel gate", "Mul", "", "[16, 1, 1];[16, 8, 8]", "[16, 8, 8]", 0);
    row("Mul both ways", "Mul", "", "[4, 1, 9];[1, 7, 1]", "[4, 7, 9]", 0);
    row("Concat channels", "Concat", "", "[16, 8, 8];[32, 8, 8]", "[48, 8, 8]", 0);
    row("Concat last", "Concat", "dim: -1", "[3, 4];[3, 5]", "[3, 9]", 0);
    row("Concat dim 2", "Concat", "dim: 2", "[3, 4];[3, 6];[3, 1]", "[3, 11]", 0);
    row("Embedding", "Embedding", "num_embeddings: 1000, embedding_dim: 64", "[16]", "[16, 64]", 64000);
    row("Embedding 2-D", "Embedding", "num_embeddings: 10, embedding_dim: 32", "[4, 8]", "[4, 8, 32]", 320);
    row("Reshape", "Reshape", "shape: [28, 28]", "[1, 28, 28]", "[28, 28]", 0);
    row("Reshape -1", "Reshape", "shape: [-1, 7]", "[4, 7, 2]", "[8, 7]", 0);
    row("Reshape to features", "Reshape", "shape: [-1]", "[3, 5]", "[15]", 0);
    row("PositionalEmbedding", "PositionalEmbedding", "", "[28, 64]", "[28, 64]", 1792);
    // torch: in_proj [3E, E] + [3E], out_proj [E, E] + [E].
    row("MultiheadAttention", "MultiheadAttention", "num_heads: 4", "[10, 64]", "[10, 64]", 16640);
    row("MultiheadAttention no bias", "MultiheadAttention", "num_heads: 3, bias: false, dropout: 0.2", "[5, 12]",
        "[5, 12]", 576);
    // Counts from sum(p.numel() for p in torch.nn.TransformerEncoderLayer(...).parameters()).
    row("TransformerEncoderLayer", "TransformerEncoderLayer", "nhead: 4, dim_feedforward: 128", "[28, 64]", "[28, 64]",
        33472);
    row("TransformerEncoderLayer defaults", "TransformerEncoderLayer", "nhead: 2", "[7, 16]", "[7, 16]", 68752);
    row("TransformerEncoderLayer gelu", "TransformerEncoderLayer", "nhead: 3, dim_feedforward: 20, activation: gelu",
        "[4, 12]", "[4, 12]", 1184);
    row("SequenceMean", "SequenceMean", "", "[28, 64]", "[64]", 0);
    row("Transpose", "Transpose", "", "[28, 64]", "[64, 28]", 0);
    row("Transpose dims", "Transpose", "dim0: 1, dim1: 3", "[3, 8, 5]", "[5, 8, 3]", 0);
    row("Transpose negative", "Transpose", "dim0: -3, dim1: 2", "[3, 8, 5]", "[8, 3, 5]", 0);
    row("Transpose same dim", "Transpose", "dim0: 2, dim1: -1", "[3, 8]", "[3, 8]", 0);
    row("Permute", "Permute", "dims: [2, 1]", "[28, 64]", "[64, 28]", 0);
    row("Permute with batch", "Permute", "dims: [0, 3, 1, 2]", "[3, 8, 5]", "[5, 3, 8]", 0);
    row("Permute negative", "Permute", "dims: [-1, 1, -2]", "[3, 8, 5]", "[5, 3, 8]", 0);
    row("Permute identity", "Permute", "dims: [1]", "[7]", "[7]", 0);
    row("Max", "Max", "", "[28, 64]", "[28]", 0);
    row("Max keepdim", "Max", "dim: 1, keepdim: true", "[28, 64]", "[1, 64]", 0);
    row("Mean over T", "Mean", "dim: 1", "[28, 64]", "[64]", 0);
    row("Mean negative", "Mean", "dim: -2", "[3, 8, 5]", "[3, 5]", 0);
    row("Mean keepdim", "Mean", "keepdim: true", "[16]", "[1]", 0);
    row("Sum", "Sum", "dim: 2", "[3, 8, 5]", "[3, 5]", 0);
    row("Sum keepdim last", "Sum", "keepdim: true", "[3, 8, 5]", "[3, 8, 1]", 0);
    row("ChannelShuffle", "ChannelShuffle", "groups: 2", "[116, 8, 8]", "[116, 8, 8]", 0);
    row("ChannelShuffle sequence", "ChannelShuffle", "groups: 3", "[6, 10]", "[6, 10]", 0);
    row("Slice channels", "Slice", "end: 58", "[116, 8, 8]", "[58, 8, 8]", 0);
    row("Slice last dim", "Slice", "dim: -1, start: 2, end: 5", "[3, 8, 6]", "[3, 8, 3]", 0);
  }

 private Q_SLOTS:
  void shapes_data() {
    QTest::addColumn<QString>("op");
    QTest::addColumn<QString>("params");  // YAML flow-map entries
    QTest::addColumn<QString>("inputs");  // input shapes separated by ';', empty for Input itself
    QTest::addColumn<QString>("output");
    QTest::addColumn<qint64>("paramCount");
    forEachRow([](const char *name, const char *op, const char *params, const char *inputs, const char *output,
                  qint64 count) { QTest::newRow(name) << op << params << inputs << output << count; });
  }

  void shapes() {
    QFETCH(QString, op);
    QFETCH(QString, params);
    QFETCH(QString, inputs);
    QFETCH(QString, output);
    QFETCH(qint64, paramCount);
    const bool indices = op == QLatin1String("Embedding");
    std::string yaml = "nodes:\n";
    QStringList ids;
    const QStringList shapes = inputs.split(';', Qt::SkipEmptyParts);
    for (int i = 0; i < shapes.size(); ++i) {
      ids << QStringLiteral("in%1").arg(i);
      yaml += QStringLiteral("  - {id: in%1, op: Input, shape: %2%3}\n")
                  .arg(i)
                  .arg(shapes[i], indices ? QStringLiteral(", dtype: int64") : QString())
                  .toStdString();
    }
    yaml += QStringLiteral("  - {id: node, op: %1, inputs: [%2]%3}\n")
                .arg(op, ids.join(", "), params.isEmpty() ? QString() : ", " + params)
                .toStdString();
    const Analysis a = analyze(parseModelYaml(yaml));
    QVERIFY2(a.ok(), (yaml + formatDiagnostics(a.diagnostics)).c_str());
    const NodeInfo *node = a.find("node");
    QVERIFY(node);
    QCOMPARE(QString::fromStdString(formatShape(node->outputShape)), output);
    QCOMPARE(qint64(node->paramCount), paramCount);
    QCOMPARE(qint64(a.totalParams), paramCount);
    QCOMPARE(node->inputShapes.size(), size_t(shapes.size()));
    QCOMPARE(a.output, std::string("node"));
  }

  // The table above must cover the whole registry; a new op needs a row.
  void everyOpIsCovered() {
    std::set<std::string> tested;
    forEachRow([&](const char *, const char *op, const char *, const char *, const char *, qint64) { tested.insert(op); });
    std::set<std::string> registry;
    for (const OpDef &op : Registry::instance().ops()) registry.insert(op.name);
    QCOMPARE(tested, registry);
    QCOMPARE(registry.size(), size_t(39));
  }

  // Defaults of every op must pass the op's own validation: a walk over the whole table.
  void registryEntriesAreConsistent() {
    std::set<std::string> names;
    for (const OpDef &op : Registry::instance().ops()) {
      QVERIFY2(names.insert(op.name).second, op.name.c_str());
      QVERIFY2(!op.doc.empty(), op.name.c_str());
      QVERIFY2(bool(op.shape), op.name.c_str());
      QVERIFY(op.maxInputs < 0 || op.maxInputs >= op.minInputs);
      std::set<std::string> params;
      for (const ParamDef &p : op.params) {
        const std::string where = op.name + "." + p.name;
        QVERIFY2(params.insert(p.name).second, where.c_str());
        QVERIFY2(!p.doc.empty(), where.c_str());
        QVERIFY2(!(p.inferred && p.defaultValue), where.c_str());
        QVERIFY2(p.name != "id" && p.name != "op" && p.name != "inputs" && p.name != "block" && p.name != "params",
                 where.c_str());
        if (p.defaultValue && !p.choices.empty()) {
          const std::string v = formatParamValue(*p.defaultValue);
          QVERIFY2(std::find(p.choices.begin(), p.choices.end(), v) != p.choices.end(), where.c_str());
        }
      }
      QVERIFY(Registry::instance().find(op.name) == &op);
      QVERIFY(!opCategoryName(op.category).empty());
    }
    QVERIFY(Registry::instance().find("Linaer") == nullptr);
  }

  // What other parts ask about an op is in its definition, and means what they take it to: an
  // op with weights to quantise has parameters; one that keeps the dtype has none and no
  // weights; a convolution says its dimensions; only an op with an output kind ends in scores
  // turned into something else.
  void registryHoldsWhatEachOpIs() {
    for (const OpDef &op : Registry::instance().ops()) {
      if (op.int8Weights) QVERIFY2(bool(op.paramCount), op.name.c_str());
      if (op.keepsDtype) QVERIFY2(!op.paramCount && !op.int8Weights && !op.takesIndices, op.name.c_str());
      QVERIFY2(op.convolutionDims == 0 || (op.int8Weights && op.name == "Conv" + std::to_string(op.convolutionDims) + "d"),
               op.name.c_str());
    }
    QCOMPARE(Registry::instance().find("Conv2d")->convolutionDims, 2);
    QVERIFY(Registry::instance().find("Embedding")->takesIndices);
    QCOMPARE(Registry::instance().find("LogSoftmax")->outputKind, std::string("log_probabilities"));
    // The analysis follows them: int64 indices pass through a reshaping op, not through a Linear.
    const auto analysed = [](const std::string &op) {
      ModelSpec spec;
      spec.nodes.push_back({"x", "Input", {{"shape", IntList{4}}, {"dtype", std::string("int64")}}, {}});
      Node node{"n", op, {}, {"x"}};
      if (op == "Linear") node.params["out_features"] = int64_t{2};
      spec.nodes.push_back(node);
      return analyze(spec);
    };
    QVERIFY(analysed("Dropout").ok());
    QVERIFY(!analysed("Linear").ok());
  }
};

QTEST_APPLESS_MAIN(TestSpecShapes)
#include "test_spec_shapes.moc"
