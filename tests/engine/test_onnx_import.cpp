// ONNX import, verified in both directions against the real peers: python3-torch exports
// torchvision's networks (no weights downloaded: built from a fixed seed, batch norm given random
// statistics), a small model of folded shape arithmetic, sequence MLPs, a tanh GELU, self-attention
// in three forms and two TransformerEncoderLayers (tests/import/make_onnx.py); each is
// imported, built in LibTorch with the file's weights, and its outputs on random real-valued
// inputs are compared with ONNX Runtime's on the ORIGINAL file, then the imported model is
// exported by Torchwright's own exporter and ONNX Runtime runs that file too
// (tests/export/check_onnx.mjs). Both within 1e-4. The weights file the CLI writes starts a
// fresh model exactly where the import left it (train.init_from's path).
#include "core/engine/checkpoint.h"
#include "core/engine/export/export_source.h"
#include "core/engine/export/onnx_exporter.h"
#include "core/engine/import/imported_weights.h"
#include "core/engine/model_builder.h"
#include "core/engine/weight_transfer.h"
#include "tests/engine/onnx_graphs.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <limits>

using namespace tw;

namespace {

constexpr double kTolerance = 1e-4;

// The files make_onnx.py writes, by name: its JSON line for each.
QMap<QString, QJsonObject> makeOnnx(const QString &dir, const QStringList &names, QString &log) {
  QProcess p;
  p.setProcessChannelMode(QProcess::MergedChannels);
  p.start("/usr/bin/python3", QStringList{TW_SOURCE_DIR "/tests/import/make_onnx.py", dir} + names);
  p.waitForFinished(300000);
  log = QString::fromUtf8(p.readAll());
  QMap<QString, QJsonObject> made;
  for (const QString &line : log.split('\n')) {
    const QJsonObject o = QJsonDocument::fromJson(line.toUtf8()).object();
    if (o.contains("name")) made[o["name"].toString()] = o;
  }
  return made;
}

QJsonObject tensorEntry(const QString &dir, const QString &file, const QString &name, const torch::Tensor &t) {
  const torch::Tensor c = t.contiguous();
  std::ofstream(QDir(dir).filePath(file).toStdString(), std::ios::binary)
      .write(static_cast<const char *>(c.data_ptr()), static_cast<std::streamsize>(c.numel() * c.element_size()));
  QJsonArray shape;
  for (int64_t d : t.sizes()) shape.append(qint64(d));
  return {{"name", name}, {"file", file}, {"dtype", "float32"}, {"shape", shape}};
}

std::map<std::string, int> opCounts(const spec::ModelSpec &spec) {
  std::map<std::string, int> counts;
  for (const spec::Node &node : spec.nodes) ++counts[node.op];
  return counts;
}

double maxDiff(const torch::Tensor &a, const torch::Tensor &b) {
  return (a.to(torch::kDouble) - b.to(torch::kDouble)).abs().max().item<double>();
}

// Imports each network, runs it in LibTorch on random inputs, re-exports it with Torchwright's
// exporter, and has one ONNX Runtime process run every original file and every re-export: both
// within kTolerance of LibTorch's outputs. Prints the figures the README quotes; `ops`, when given,
// gets each imported model's op counts.
void matchOnnxRuntimeBothWays(const QString &dir, const QMap<QString, QJsonObject> &files, const QStringList &networks,
                              std::map<QString, std::map<std::string, int>> *ops = nullptr) {
  const QString ortDir = QStringLiteral(TW_ONNXRUNTIME_DIR);
  if (!QFile::exists(ortDir + "/node_modules/onnxruntime-node/package.json"))
    QFAIL(qPrintable("ONNX Runtime is not installed in " + ortDir + ": run packaging/install-test-tools.sh"));
  QJsonArray cases;
  QMap<QString, QString> timing;
  for (const QString &name : networks) {
    const QJsonObject made = files[name];
    QElapsedTimer clock;
    clock.start();
    const engine::ImportedModel imported = engine::importOnnx(made["file"].toString().toStdString(), {});
    engine::ExportSource source;
    source.module = engine::buildImportedModel(imported);
    const double seconds = static_cast<double>(clock.nsecsElapsed()) / 1e9;
    if (ops) (*ops)[name] = opCounts(imported.spec);
    source.spec = imported.spec;
    source.analysis = spec::analyzeOrThrow(imported.spec);

    std::vector<int64_t> shape;
    for (const auto &d : made["shape"].toArray()) shape.push_back(d.toInteger());
    const torch::Tensor x = torch::randn(shape);
    torch::NoGradGuard noGrad;
    const torch::Tensor y = source.module->forward(x);
    timing[name] = QString::asprintf("import %.0f ms, %zu nodes, largest |output| %.3g", 1000 * seconds,
                                     imported.spec.nodes.size(), y.abs().max().item<double>());
    const QString in = tensorEntry(dir, name + "_in.bin", "", x)["file"].toString();
    const QJsonObject expected = tensorEntry(dir, name + "_out.bin", "out", y);
    auto inputs = [&](const QString &inputName) {
      QJsonObject entry = tensorEntry(dir, in, inputName, x);
      return QJsonArray{entry};
    };
    cases.append(QJsonObject{{"name", name + " original"},
                             {"onnx", QJsonArray{QFileInfo(made["file"].toString()).fileName()}},
                             {"inputs", inputs(made["input"].toString())},
                             {"output", made["output"].toString()},
                             {"expected", expected}});
    // Import -> export: Torchwright's exporter writes the imported model; ONNX Runtime runs it.
    engine::ExportOptions options;
    options.bakePreprocessing = false;
    options.opset = 17;
    const QString reexport = name + "_reexported.onnx";
    std::ofstream(QDir(dir).filePath(reexport).toStdString(), std::ios::binary)
        << engine::exportOnnx(source, options);
    cases.append(QJsonObject{{"name", name + " re-exported"},
                             {"onnx", QJsonArray{reexport}},
                             {"inputs", inputs(QString::fromStdString(source.module->inputIds()[0]))},
                             {"output", QString::fromStdString(source.analysis.output)},
                             {"expected", expected}});
  }
  QFile manifest(QDir(dir).filePath("cases.json"));
  QVERIFY(manifest.open(QIODevice::WriteOnly));
  manifest.write(QJsonDocument(QJsonObject{{"cases", cases}}).toJson());
  manifest.close();

  QProcess p;
  p.setProcessChannelMode(QProcess::MergedChannels);
  p.start("node", {TW_SOURCE_DIR "/tests/export/check_onnx.mjs", dir, ortDir});
  p.waitForFinished(300000);
  const QString log = QString::fromUtf8(p.readAll());
  QMap<QString, double> diffs;
  for (const QString &line : log.split('\n')) {
    const QJsonObject o = QJsonDocument::fromJson(line.toUtf8()).object();
    if (o.contains("case")) diffs[o["case"].toString()] = o.contains("max_diff") ? o["max_diff"].toDouble() : -1.0;
  }
  QVERIFY2(diffs.size() == cases.size(), qPrintable("ONNX Runtime ran " + QString::number(diffs.size()) + " of " +
                                                    QString::number(cases.size()) + " files:\n" + log));
  for (const QString &name : networks) {
    const double original = diffs.value(name + " original (" + name + ")", -1.0);
    const double again = diffs.value(name + " re-exported (" + name + "_reexported)", -1.0);
    // The figures the README quotes.
    qInfo("%s: %s; max |LibTorch - ONNX Runtime| %.2g on the original file, %.2g on the re-export",
          qPrintable(name), qPrintable(timing[name]), original, again);
    QVERIFY2(original >= 0 && original <= kTolerance, qPrintable(name + " original: " + QString::number(original) + "\n" + log));
    QVERIFY2(again >= 0 && again <= kTolerance, qPrintable(name + " re-exported: " + QString::number(again) + "\n" + log));
  }
}

}  // namespace

class TestOnnxImport : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;
  QMap<QString, QJsonObject> m_files;
  const QStringList m_networks{"resnet18",        "squeezenet1_1", "mobilenet_v2",      "mobilenet_v3_small",
                               "mobilenet_v3_small_fused", "efficientnet_b0", "densenet121", "shufflenet_v2_x0_5",
                               "folding", "sequence_mlp_13", "sequence_mlp_17", "gelu_tanh",
                               "attention_13", "attention_17", "attention_separate", "encoder", "encoder_norm_first",
                               "sequence_mlp_unfolded"};

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(m_dir.isValid());
    QString log;
    m_files = makeOnnx(m_dir.path(), m_networks, log);
    QVERIFY2(m_files.size() == m_networks.size(), qPrintable("python3-torch wrote " + QString::number(m_files.size()) +
                                                             " of " + QString::number(m_networks.size()) + " files:\n" + log));
    torch::manual_seed(5);
  }

  // What each network became: the mappings the importer chose, counted per op.
  void networksBecomeRegistryOps() {
    auto import = [&](const char *name) {
      return engine::importOnnx(m_files[name]["file"].toString().toStdString(), {});
    };
    const auto resnet = opCounts(import("resnet18").spec);
    QCOMPARE(resnet.at("Conv2d"), 20);
    QCOMPARE(resnet.at("BatchNorm2d"), 20);  // kept, with their statistics
    QCOMPARE(resnet.at("Add"), 8);
    QCOMPARE(resnet.at("AdaptiveAvgPool2d"), 1);
    QCOMPARE(resnet.at("Linear"), 1);
    const auto squeeze = import("squeezenet1_1");
    QCOMPARE(opCounts(squeeze.spec).at("Concat"), 8);
    QCOMPARE(opCounts(squeeze.spec).at("MaxPool2d"), 3);
    QVERIFY(std::get<bool>(squeeze.spec.find("features.2")->params.at("ceil_mode")));
    const auto v2 = opCounts(import("mobilenet_v2").spec);
    QCOMPARE(v2.at("ReLU6"), 35);  // Clip(0, 6)
    QCOMPARE(v2.at("BatchNorm2d"), 52);
    // x * HardSigmoid(x) folds into Hardswish; squeeze-excitation keeps its gate and Mul.
    const auto v3 = opCounts(import("mobilenet_v3_small").spec);
    QCOMPARE(v3.at("Hardswish"), 19);
    QCOMPARE(v3.at("Hardsigmoid"), 9);
    QCOMPARE(v3.at("Mul"), 9);
    const auto fused = opCounts(import("mobilenet_v3_small_fused").spec);
    QCOMPARE(fused.at("Hardswish"), 19);
    QCOMPARE(fused.count("BatchNorm2d"), size_t(0));
    // x * Sigmoid(x) folds into SiLU; squeeze-excitation's gate (of another value) stays a Mul.
    const auto efficient = opCounts(import("efficientnet_b0").spec);
    QCOMPARE(efficient.at("SiLU"), 49);
    QCOMPARE(efficient.at("Sigmoid"), 16);
    QCOMPARE(efficient.at("Mul"), 16);
    QCOMPARE(efficient.count("StochasticDepth"), size_t(0));
    // A concat of one tensor (each block's first layer) is dropped: 58 layers' concats less those
    // 4, plus each block's output. The exporter (EVAL) fuses the batch norms that follow a
    // convolution (norm0, each layer's norm2); those before a ReLU (after a Concat) stay BatchNorm.
    const engine::ImportedModel dense = import("densenet121");
    QCOMPARE(opCounts(dense.spec).at("Concat"), 58 - 4 + 4);
    QCOMPARE(opCounts(dense.spec).at("BatchNorm2d"), 121 - 1 - 58);
    QCOMPARE(opCounts(dense.spec).at("AvgPool2d"), 3);
    // Reshape, Transpose, Reshape is one ChannelShuffle; chunk's Split is two Slices;
    // x.mean([2, 3]) is global average pooling and a Flatten.
    const engine::ImportedModel shuffle = import("shufflenet_v2_x0_5");
    const auto shuffleOps = opCounts(shuffle.spec);
    QCOMPARE(shuffleOps.at("ChannelShuffle"), 16);
    QCOMPARE(shuffleOps.count("Transpose"), size_t(0));
    QCOMPARE(shuffleOps.count("Reshape"), size_t(0));
    QCOMPARE(shuffleOps.at("Slice"), 2 * (16 - 3));
    QCOMPARE(shuffleOps.at("AdaptiveAvgPool2d"), 1);
    QCOMPARE(std::get<int64_t>(shuffle.spec.find("stage2.0.channel_shuffle")->params.at("groups")), int64_t(2));
    // Shape arithmetic folded; MatMul + Add is one Linear with its bias.
    const engine::ImportedModel folding = import("folding");
    QCOMPARE(opCounts(folding.spec).at("Flatten"), 1);
    QCOMPARE(opCounts(folding.spec).at("Linear"), 1);
    QVERIFY(folding.tensors.at("matmul").count("bias"));
    for (const auto &row : folding.rows)
      if (row.opType == "Add") QCOMPARE(row.fate, std::string("folded"));
    // The sequence MLP: MatMul on [N, 16, 32] is Linear over the last dimension; GELU's Erf form
    // and LayerNorm (decomposed at opset 13, LayerNormalization at 17) are one node each; the mean
    // over the sequence is Mean over dimension 1.
    for (const char *name : {"sequence_mlp_13", "sequence_mlp_17"}) {
      const engine::ImportedModel mlp = import(name);
      const auto ops = opCounts(mlp.spec);
      QCOMPARE(mlp.spec.nodes.size(), size_t(7));
      QCOMPARE(ops.at("Linear"), 3);
      QCOMPARE(ops.at("GELU"), 1);
      QCOMPARE(ops.at("LayerNorm"), 1);
      QCOMPARE(ops.at("Mean"), 1);
      QCOMPARE(mlp.spec.find("norm")->op, std::string("LayerNorm"));
      QCOMPARE(mlp.spec.find("act")->op, std::string("GELU"));
      QCOMPARE(mlp.spec.find("norm")->params.count("eps"), size_t(0));  // torch's 1e-5, the default
      QVERIFY(mlp.tensors.at("norm").count("weight") && mlp.tensors.at("norm").count("bias"));
      std::map<std::string, int> fates;
      for (const auto &row : mlp.rows)
        if (row.op == "GELU" || row.op == "LayerNorm") ++fates[row.op + " " + row.fate];
      QCOMPARE(fates["GELU mapped"], 1);
      QCOMPARE(fates["GELU folded"], 4);  // Erf, Add, Mul, Mul after the Div
      QCOMPARE(fates["LayerNorm mapped"], 1);
      QCOMPARE(fates["LayerNorm folded"], std::string(name) == "sequence_mlp_13" ? 8 : 0);
    }
  }

  // Attention: nn.MultiheadAttention's self-attention (in_proj cut into three by Slices, heads
  // split by Reshape and Transpose, the shape arithmetic around them, out_proj) is one
  // MultiheadAttention; a TransformerEncoderLayer is that and the registry ops around it (Add,
  // LayerNorm, Linear, ReLU or GELU, Linear, Add, LayerNorm). GELU's tanh form is one GELU.
  void attentionBecomesMultiheadAttention() {
    auto import = [&](const char *name) {
      return engine::importOnnx(m_files[name]["file"].toString().toStdString(), {});
    };
    auto param = [](const engine::ImportedModel &m, const std::string &id, const std::string &name) {
      return m.spec.find(id)->params.count(name) ? m.spec.find(id)->params.at(name) : spec::ParamValue();
    };
    for (const char *name : {"encoder", "encoder_norm_first"}) {
      const engine::ImportedModel enc = import(name);
      const auto ops = opCounts(enc.spec);
      QCOMPARE(enc.spec.nodes.size(), size_t(12));
      QCOMPARE(ops.at("MultiheadAttention"), 1);
      QCOMPARE(ops.at("Add"), 2);
      QCOMPARE(ops.at("LayerNorm"), 2);
      QCOMPARE(ops.at("Linear"), 4);
      QCOMPARE(ops.count(std::string(name) == "encoder" ? "ReLU" : "GELU"), size_t(1));
      QCOMPARE(enc.spec.find("encoder.self_attn")->op, std::string("MultiheadAttention"));
      QCOMPARE(std::get<int64_t>(param(enc, "encoder.self_attn", "num_heads")), int64_t(4));
      const auto &weights = enc.tensors.at("encoder.self_attn");
      QCOMPARE(weights.at("in_proj_weight").sizes(), (torch::IntArrayRef{96, 32}));
      QCOMPARE(weights.at("out_proj.bias").sizes(), (torch::IntArrayRef{32}));
    }
    // With an open batch (opset 13): the shape arithmetic reads the projections' sizes.
    const engine::ImportedModel open = import("attention_13");
    QCOMPARE(open.spec.nodes.size(), size_t(5));
    QCOMPARE(open.spec.find("attn")->op, std::string("MultiheadAttention"));
    int folded = 0;
    for (const auto &row : open.rows) folded += row.op == "MultiheadAttention" && row.fate == "folded";
    QCOMPARE(folded, 63);
    // batch_first=False with transposes around it, no bias, a constant causal mask (opset 17).
    const engine::ImportedModel causal = import("attention_17");
    QVERIFY(!std::get<bool>(param(causal, "attn", "bias")));
    QVERIFY(std::get<bool>(param(causal, "attn", "causal")));
    QCOMPARE(causal.tensors.at("attn").size(), size_t(2));  // in_proj_weight, out_proj.weight
    // Three projections (MatMul + Add each) packed into in_proj_weight and in_proj_bias.
    const engine::ImportedModel separate = import("attention_separate");
    QCOMPARE(opCounts(separate.spec).at("MultiheadAttention"), 1);
    QCOMPARE(separate.spec.nodes.size(), size_t(5));
    // F.multi_head_attention_forward called in the model's own forward: no module to name it by.
    QCOMPARE(separate.spec.find("attention")->op, std::string("MultiheadAttention"));
    QCOMPARE(separate.tensors.at("attention").at("in_proj_bias").sizes(), (torch::IntArrayRef{96}));
    const engine::ImportedModel tanh = import("gelu_tanh");
    QCOMPARE(tanh.spec.find("act")->op, std::string("GELU"));
    QCOMPARE(std::get<std::string>(param(tanh, "act", "approximate")), std::string("tanh"));
    folded = 0;
    for (const auto &row : tanh.rows) folded += row.op == "GELU" && row.fate == "folded";
    QCOMPARE(folded, 8);  // x * x, * x, * 0.044715, + x, * sqrt(2 / pi), Add 1, * x, * 0.5 after the Tanh
    // Torchwright's exporter writes it as (x * 0.5) * (1 + tanh(...)), which folds back.
    engine::ExportSource source;
    source.spec.name = "gelu";
    source.spec.nodes = {{"x", "Input", {{"shape", spec::IntList{16, 48}}}, {}},
                         {"act", "GELU", {{"approximate", std::string("tanh")}}, {"x"}}};
    source.spec.output = "act";
    source.analysis = spec::analyzeOrThrow(source.spec);
    source.module = engine::buildModel(source.spec, source.analysis);
    engine::ExportOptions options;
    options.bakePreprocessing = false;
    options.opset = 13;
    const std::string file = testing::writeFile(m_dir.path(), "gelu_tanh_again.onnx", engine::exportOnnx(source, options));
    const engine::ImportedModel again = engine::importOnnx(file);
    QCOMPARE(again.spec.nodes.size(), size_t(2));
    QCOMPARE(again.spec.nodes[1].op, std::string("GELU"));
    QCOMPARE(std::get<std::string>(again.spec.nodes[1].params.at("approximate")), std::string("tanh"));
  }

  void outputsMatchOnnxRuntimeBothWays() { matchOnnxRuntimeBothWays(m_dir.path(), m_files, m_networks); }

  // VGG on its own: its 133M parameters (a 507 MB file read, built and exported again) take
  // longer than every other network together. Exported at 224 x 224, where its features are 7 x 7
  // and AdaptiveAvgPool2d((7, 7)) is written as an AveragePool of 1 x 1.
  void vgg11MatchesOnnxRuntimeBothWays() {
    QString log;
    const QMap<QString, QJsonObject> files = makeOnnx(m_dir.path(), {"vgg11"}, log);
    QVERIFY2(files.contains("vgg11"), qPrintable("python3-torch did not write vgg11:\n" + log));
    std::map<QString, std::map<std::string, int>> ops;
    matchOnnxRuntimeBothWays(m_dir.path(), files, {"vgg11"}, &ops);
    QVERIFY(!QTest::currentTestFailed());
    const auto &vgg = ops.at("vgg11");
    QCOMPARE(vgg.at("Conv2d"), 8);
    QCOMPARE(vgg.at("MaxPool2d"), 5);
    QCOMPARE(vgg.at("AvgPool2d"), 1);
    QCOMPARE(vgg.at("Linear"), 3);
    QFile::remove(files["vgg11"]["file"].toString());
    QFile::remove(QDir(m_dir.path()).filePath("vgg11_reexported.onnx"));
  }

  // Mappings torchvision's exports do not reach, against LibTorch's own arithmetic: Gemm without
  // transB, with alpha, beta and a [1, M] bias; Dropout dropped; LeakyRelu's slope; Sum; opset
  // 13's Softmax; a 1-D convolution with auto_pad SAME_UPPER.
  void otherMappingsComputeWhatTheOperatorsDefine() {
    testing::OnnxGraph g(13);
    g.input("x", {"N", "6"});
    const torch::Tensor b = torch::randn({6, 4}), c = torch::randn({1, 4});
    g.initializer("fc.weight", b);
    g.initializer("fc.bias", c);
    g.initializer("ratio", torch::full({}, 0.3f));
    g.node("Gemm", {"x", "fc.weight", "fc.bias"}, {"g"}, "/fc/Gemm").f("alpha", 0.5f).f("beta", 2.0f);
    g.node("Dropout", {"g", "ratio"}, {"d"}, "/drop/Dropout");
    g.node("LeakyRelu", {"d"}, {"l"}, "/act/LeakyRelu").f("alpha", 0.2f);
    g.node("Sum", {"l", "l"}, {"s"}, "/Sum");
    g.node("Softmax", {"s"}, {"y"}, "/Softmax");
    g.output("y");
    const engine::ImportedModel dense = engine::importOnnx(testing::writeFile(m_dir.path(), "dense.onnx", g.bytes()));
    QCOMPARE(dense.spec.find("fc")->op, std::string("Linear"));
    QCOMPARE(dense.rows[2].fate, std::string("dropped"));  // rows: the input, Gemm, Dropout, ...
    torch::NoGradGuard noGrad;
    const torch::Tensor x = torch::randn({3, 6});
    const torch::Tensor expected = torch::softmax(2 * torch::leaky_relu(0.5 * x.mm(b) + 2 * c, 0.2), -1);
    QVERIFY(maxDiff(engine::buildImportedModel(dense)->forward(x), expected) <= 1e-6);

    testing::OnnxGraph conv(17);
    conv.input("x", {"N", "2", "10"});
    const torch::Tensor w = torch::randn({3, 2, 3}), bias = torch::randn({3});
    conv.initializer("w", w);
    conv.initializer("b", bias);
    conv.node("Conv", {"x", "w", "b"}, {"y"}, "/conv/Conv").s("auto_pad", "SAME_UPPER");
    conv.output("y");
    const engine::ImportedModel line = engine::importOnnx(testing::writeFile(m_dir.path(), "conv1d.onnx", conv.bytes()));
    QCOMPARE(line.spec.nodes[1].op, std::string("Conv1d"));
    const torch::Tensor s = torch::randn({3, 2, 10});
    QVERIFY(maxDiff(engine::buildImportedModel(line)->forward(s), torch::conv1d(s, w, bias, 1, 1)) <= 1e-6);
  }

  // The shape mappers on what torchvision's exports do not write: Split with sizes (one Slice per
  // part), a Transpose of two axes, one of three (Permute), a mean over one axis, a Slice with
  // torch's "to the end" and one over the whole dimension (dropped).
  void shapeMappingsComputeWhatTheOperatorsDefine() {
    testing::OnnxGraph g(13);
    g.input("x", {"N", "6", "4", "5"});
    g.initializer("sizes", torch::tensor({2, 4}, torch::kLong));
    g.initializer("starts", torch::tensor({1}, torch::kLong));
    g.initializer("ends", torch::tensor({std::numeric_limits<int64_t>::max()}, torch::kLong));
    g.initializer("whole", torch::tensor({-1}, torch::kLong));
    g.initializer("axis2", torch::tensor({2}, torch::kLong));
    g.initializer("zero", torch::tensor({0}, torch::kLong));
    g.node("Split", {"x", "sizes"}, {"a", "b"}, "/Split").i("axis", 1);
    g.node("Transpose", {"b"}, {"t"}, "/Transpose").ints("perm", {0, 1, 3, 2});
    g.node("Slice", {"t", "starts", "ends", "axis2"}, {"s"}, "/Slice");      // b[:, :, 1:] of [4, 5, 4]
    g.node("Slice", {"a", "zero", "ends", "axis2"}, {"w"}, "/Slice_whole");  // all of it: dropped
    g.node("Transpose", {"w"}, {"u"}, "/Transpose_1").ints("perm", {0, 1, 3, 2});
    g.node("Slice", {"u", "starts", "ends", "axis2"}, {"v"}, "/Slice_1");
    g.node("Concat", {"v", "s"}, {"c"}, "/Concat").i("axis", 1);            // [6, 4, 4]
    g.node("Transpose", {"c"}, {"p"}, "/Transpose_2").ints("perm", {0, 2, 3, 1});
    g.node("ReduceMean", {"p"}, {"y"}, "/ReduceMean").ints("axes", {-1}).i("keepdims", 0);
    g.output("y");
    const engine::ImportedModel m = engine::importOnnx(testing::writeFile(m_dir.path(), "shapes.onnx", g.bytes()));
    const auto ops = opCounts(m.spec);
    QCOMPARE(ops.at("Slice"), 2 + 2);
    QCOMPARE(ops.at("Transpose"), 2);
    QCOMPARE(ops.at("Permute"), 1);
    QCOMPARE(ops.at("Mean"), 1);
    torch::NoGradGuard noGrad;
    const torch::Tensor x = torch::randn({3, 6, 4, 5});
    const torch::Tensor a = x.slice(1, 0, 2), b = x.slice(1, 2, 6);
    const torch::Tensor c = torch::cat({a.transpose(2, 3).slice(2, 1), b.transpose(2, 3).slice(2, 1)}, 1);
    QVERIFY(maxDiff(engine::buildImportedModel(m)->forward(x), c.permute({0, 2, 3, 1}).mean(-1)) <= 1e-6);
  }

  // Attention in forms python3-torch 1.13 does not write, against LibTorch's arithmetic: the packed
  // projection cut by one Split (not chunk's Slices), the queries scaled by a Mul by 1/sqrt(E/H),
  // out_proj as a MatMul without bias (its bias becomes zeros beside in_proj's).
  void attentionFoldsFromASplitAndAMulScale() {
    const int64_t n = 2, t = 5, e = 8, h = 2, d = e / h;
    const torch::Tensor w = torch::randn({e, 3 * e}) * 0.4, b = torch::randn({3 * e}) * 0.2;
    const torch::Tensor wo = torch::randn({e, e}) * 0.4;
    testing::OnnxGraph g(13);
    g.input("x", {std::to_string(n), std::to_string(t), std::to_string(e)});
    g.initializer("w", w);
    g.initializer("b", b);
    g.initializer("wo", wo);
    g.initializer("sizes", torch::tensor({e, e, e}, torch::kLong));
    g.initializer("heads", torch::tensor({t, n * h, d}, torch::kLong));
    g.initializer("flat", torch::tensor({t * n, e}, torch::kLong));
    g.initializer("back", torch::tensor({t, n, e}, torch::kLong));
    g.initializer("scale", torch::tensor(1.0f / std::sqrt(static_cast<float>(d))));
    g.node("Transpose", {"x"}, {"xt"}, "/mha/Transpose").ints("perm", {1, 0, 2});
    g.node("MatMul", {"xt", "w"}, {"p"}, "/mha/MatMul");
    g.node("Add", {"p", "b"}, {"pb"}, "/mha/Add");
    g.node("Split", {"pb", "sizes"}, {"q0", "k0", "v0"}, "/mha/Split").i("axis", 2);
    const std::vector<std::vector<int64_t>> perms{{1, 0, 2}, {1, 2, 0}, {1, 0, 2}};
    for (int i = 0; i < 3; ++i) {
      const std::string part = std::string("qkv").substr(i, 1);
      g.node("Reshape", {part + "0", "heads"}, {part + "r"}, "/mha/Reshape_" + part);
      g.node("Transpose", {part + "r"}, {part}, "/mha/Transpose_" + part).ints("perm", perms[i]);
    }
    g.node("Mul", {"q", "scale"}, {"qs"}, "/mha/Mul");
    g.node("MatMul", {"qs", "k"}, {"s"}, "/mha/MatMul_1");
    g.node("Softmax", {"s"}, {"a"}, "/mha/Softmax").i("axis", -1);
    g.node("MatMul", {"a", "v"}, {"c"}, "/mha/MatMul_2");
    g.node("Transpose", {"c"}, {"ct"}, "/mha/Transpose_1").ints("perm", {1, 0, 2});
    g.node("Reshape", {"ct", "flat"}, {"f"}, "/mha/Reshape");
    g.node("MatMul", {"f", "wo"}, {"o"}, "/mha/MatMul_3");
    g.node("Reshape", {"o", "back"}, {"u"}, "/mha/Reshape_1");
    g.node("Transpose", {"u"}, {"y"}, "/mha/Transpose_2").ints("perm", {1, 0, 2});
    g.output("y");
    const engine::ImportedModel m = engine::importOnnx(testing::writeFile(m_dir.path(), "split_mha.onnx", g.bytes()));
    QCOMPARE(m.spec.nodes.size(), size_t(2));
    QCOMPARE(m.spec.find("mha")->op, std::string("MultiheadAttention"));
    QCOMPARE(m.tensors.at("mha").at("out_proj.bias").abs().sum().item<float>(), 0.0f);
    torch::NoGradGuard noGrad;
    const torch::Tensor x = torch::randn({n, t, e});
    auto heads = [&](int i) {  // [N, H, T, d] of the projection's i-th third
      const torch::Tensor projected = x.matmul(w.slice(1, i * e, (i + 1) * e)) + b.slice(0, i * e, (i + 1) * e);
      return projected.view({n, t, h, d}).permute({0, 2, 1, 3});
    };
    const torch::Tensor a = torch::softmax(heads(0).matmul(heads(1).transpose(-2, -1)) / std::sqrt(double(d)), -1);
    const torch::Tensor expected = a.matmul(heads(2)).permute({0, 2, 1, 3}).reshape({n, t, e}).matmul(wo);
    QVERIFY(maxDiff(engine::buildImportedModel(m)->forward(x), expected) <= 1e-5);
  }

  // The decompositions in the forms torch does not write: Torchwright's own exporter's GELU
  // ((x * 0.5) * (1 + erf)) and layer norm (Mul(d, d) for the square, no affine terms), and
  // LayerNormalization without a bias, against LibTorch's gelu and layer_norm.
  void decompositionsFoldInEitherForm() {
    testing::OnnxGraph g(13);
    g.input("x", {"N", "5", "8"});
    g.initializer("sqrt2", torch::tensor(std::sqrt(2.0f)));
    g.initializer("one", torch::tensor(1.0f));
    g.initializer("half", torch::tensor(0.5f));
    g.initializer("eps", torch::tensor(1e-3f));
    g.node("Div", {"x", "sqrt2"}, {"s"}, "/gelu/Div");
    g.node("Erf", {"s"}, {"e"}, "/gelu/Erf");
    g.node("Add", {"e", "one"}, {"a"}, "/gelu/Add");
    g.node("Mul", {"x", "half"}, {"h"}, "/gelu/Mul");
    g.node("Mul", {"h", "a"}, {"y"}, "/gelu/Mul_1");
    g.node("ReduceMean", {"y"}, {"m"}, "/norm/ReduceMean").ints("axes", {-1});
    g.node("Sub", {"y", "m"}, {"d"}, "/norm/Sub");
    g.node("Mul", {"d", "d"}, {"q"}, "/norm/Mul");
    g.node("ReduceMean", {"q"}, {"v"}, "/norm/ReduceMean_1").ints("axes", {-1});
    g.node("Add", {"v", "eps"}, {"ve"}, "/norm/Add");
    g.node("Sqrt", {"ve"}, {"r"}, "/norm/Sqrt");
    g.node("Div", {"d", "r"}, {"z"}, "/norm/Div");
    g.output("z");
    const engine::ImportedModel m = engine::importOnnx(testing::writeFile(m_dir.path(), "forms.onnx", g.bytes()));
    QCOMPARE(m.spec.nodes.size(), size_t(3));
    QCOMPARE(m.spec.find("gelu")->op, std::string("GELU"));
    QCOMPARE(m.spec.find("norm")->op, std::string("LayerNorm"));
    QVERIFY(!std::get<bool>(m.spec.find("norm")->params.at("elementwise_affine")));
    QCOMPARE(std::get<double>(m.spec.find("norm")->params.at("eps")), 1e-3);
    torch::NoGradGuard noGrad;
    const torch::Tensor x = torch::randn({3, 5, 8});
    QVERIFY(maxDiff(engine::buildImportedModel(m)->forward(x), torch::layer_norm(torch::gelu(x), {8}, {}, {}, 1e-3)) <= 1e-5);

    testing::OnnxGraph native(17);
    native.input("x", {"N", "5", "8"});
    const torch::Tensor scale = torch::rand({8}) + 0.5;
    native.initializer("ln.weight", scale);
    native.node("LayerNormalization", {"x", "ln.weight"}, {"y"}, "/ln/LayerNormalization").f("epsilon", 1e-6f);
    native.output("y");
    const engine::ImportedModel n = engine::importOnnx(testing::writeFile(m_dir.path(), "ln17.onnx", native.bytes()));
    QCOMPARE(n.spec.find("ln")->op, std::string("LayerNorm"));
    QVERIFY(maxDiff(engine::buildImportedModel(n)->forward(x), torch::layer_norm(x, {8}, scale, {}, 1e-6)) <= 1e-5);
  }

  // The weights file (saveModelWeights) read as train.init_from reads it: every tensor of a fresh
  // model of the imported spec is taken, and the fresh model then computes what the import did.
  void weightsFileStartsAFreshModelWhereTheImportLeftIt() {
    const engine::ImportedModel imported = engine::importOnnx(m_files["mobilenet_v3_small"]["file"].toString().toStdString(), {});
    auto model = engine::buildImportedModel(imported);
    const std::string path = QDir(m_dir.path()).filePath("mobilenet.weights.pt").toStdString();
    engine::saveModelWeights(path, *model);

    auto fresh = engine::buildModel(imported.spec, spec::analyzeOrThrow(imported.spec));
    const engine::NamedTensors file = engine::readWeightsFile(path);
    const engine::WeightTransfer plan = engine::planWeightTransfer(*fresh, file);
    const int64_t tensors = static_cast<int64_t>(fresh->named_parameters().size() + fresh->named_buffers().size());
    QCOMPARE(plan.count(engine::WeightMatch::Kind::Taken), tensors);
    QCOMPARE(plan.count(engine::WeightMatch::Kind::Unexpected), int64_t(0));
    engine::applyWeightTransfer(*fresh, file, plan, path);
    fresh->eval();
    torch::NoGradGuard noGrad;
    const torch::Tensor x = torch::randn({2, 3, 64, 64});
    QCOMPARE(maxDiff(fresh->forward(x), model->forward(x)), 0.0);
  }
};

QTEST_GUILESS_MAIN(TestOnnxImport)
#include "test_onnx_import.moc"
