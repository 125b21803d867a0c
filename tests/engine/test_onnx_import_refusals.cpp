// Bad input to the ONNX importer is refused whole, with a message naming the file and, where there
// is one, the node, op and field: unmapped operators (a file python3-torch wrote with TopK and
// CumSum) listed with counts, control flow named, bytes that are not ONNX or are cut short,
// external data outside the model's folder (no path escape, by `..`, absolute path, symbolic or hard link), an
// input shape left open (ask for --input-shape), asymmetric padding, an opset outside 11-17, a
// GELU (either form) or layer norm decomposition that is not torch's, attention that is not
// nn.MultiheadAttention's self-attention.
// Small graphs are written here through the ONNX protobuf API, as an exporter would.
#include "core/engine/import/import_error.h"
#include "core/engine/import/imported_weights.h"
#include "core/engine/import/onnx_import.h"
#include "tests/engine/onnx_graphs.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>

using namespace tw;

namespace {

using testing::OnnxGraph;

// A Conv over [N, 3, 8, 8] (dims: the input's; text for an open one) with a 4x3x3x3 weight.
OnnxGraph convGraph(const std::vector<std::string> &dims = {"N", "3", "8", "8"}, int64_t opset = 13,
                    const std::vector<int64_t> &pads = {}) {
  OnnxGraph g(opset);
  g.input("x", dims);
  g.initializer("c.weight", (torch::arange(108, torch::kFloat) / 100.0).reshape({4, 3, 3, 3}));
  auto conv = g.node("Conv", {"x", "c.weight"}, {"y"}, "c");
  if (!pads.empty()) conv.ints("pads", pads);
  g.output("y");
  return g;
}

std::string write(const QString &dir, const QString &name, const std::string &bytes) {
  return testing::writeFile(dir, name, bytes);
}

// The ImportError's message, or "" when the import went through.
QString refusal(const std::string &path, const engine::ImportOptions &options = {}) {
  try {
    engine::importOnnx(path, options);
  } catch (const engine::ImportError &e) {
    return QString::fromUtf8(e.what());
  }
  return {};
}

}  // namespace

class TestOnnxImportRefusals : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;
  QString dir() const { return m_dir.path(); }

 private Q_SLOTS:
  void aWellFormedConvImports() {
    const std::string path = write(dir(), "conv.onnx", convGraph().bytes());
    const engine::ImportedModel m = engine::importOnnx(path);
    QCOMPARE(m.spec.nodes.size(), size_t(2));
    QCOMPARE(m.spec.nodes[1].id, std::string("c"));
    QCOMPARE(m.spec.nodes[1].op, std::string("Conv2d"));
    auto model = engine::buildImportedModel(m);
    QCOMPARE(model->named_parameters()[0].value().flatten()[107].item<float>(), 1.07f);
  }

  void unmappedOperatorsAreListedWithCounts() {
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start("/usr/bin/python3", {TW_SOURCE_DIR "/tests/import/make_onnx.py", dir(), "topk"});
    p.waitForFinished(120000);
    const std::string path = QDir(dir()).filePath("topk.onnx").toStdString();
    QVERIFY2(QFile::exists(QString::fromStdString(path)), qPrintable(QString::fromUtf8(p.readAll())));
    const QString message = refusal(path);
    QVERIFY2(message.startsWith(QString::fromStdString(path) + ": 3 nodes have no registry op, so nothing was imported"),
             qPrintable(message));
    QVERIFY2(message.contains("TopK x2: '/TopK', '/TopK_1'") && message.contains("CumSum x1: '/CumSum'"),
             qPrintable(message));
  }

  void controlFlowIsRefusedByName() {
    OnnxGraph g = convGraph();
    g.node("Loop", {}, {}, "the_Loop");
    g.node("If", {}, {}, "the_If");
    const QString message = refusal(write(dir(), "loop.onnx", g.bytes()));
    QVERIFY2(message.contains("Loop x1: 'the_Loop'") && message.contains("If x1: 'the_If'"), qPrintable(message));
    QVERIFY2(message.contains("control flow"), qPrintable(message));
  }

  void notOnnxOrTruncatedIsRefusedNamingTheFile() {
    const std::string text = write(dir(), "notes.onnx", "name: this is a YAML file\nnodes: []\n");
    QVERIFY2(refusal(text).startsWith(QString::fromStdString(text) + " is not an ONNX model"), qPrintable(refusal(text)));
    // Cut inside the weight's bytes, as an interrupted download is.
    const std::string whole = convGraph().bytes();
    const std::string cut = write(dir(), "cut.onnx", whole.substr(0, whole.size() / 2));
    QVERIFY2(refusal(cut).startsWith(QString::fromStdString(cut) + " is not an ONNX model, or it is truncated"),
             qPrintable(refusal(cut)));
    const std::string empty = write(dir(), "empty.onnx", "");
    QVERIFY2(refusal(empty).contains("is empty"), qPrintable(refusal(empty)));
    QVERIFY2(refusal(QDir(dir()).filePath("absent.onnx").toStdString()).contains("no such file"), "absent");
  }

  void externalDataStaysInsideTheModelsFolder() {
    QVERIFY(QDir(dir()).mkpath("model") && QDir(dir()).mkpath("elsewhere"));
    const QString folder = QDir(dir()).filePath("model");
    const onnx::ModelProto base = convGraph().model();
    const std::string bytes = base.graph().initializer(0).raw_data();
    write(folder, "weights.bin", std::string(16, '\0') + bytes);
    write(QDir(dir()).filePath("elsewhere"), "weights.bin", bytes);
    std::filesystem::create_symlink(QDir(dir()).filePath("elsewhere/weights.bin").toStdString(),
                                    QDir(folder).filePath("link.bin").toStdString());
    std::filesystem::create_hard_link(QDir(dir()).filePath("elsewhere/weights.bin").toStdString(),
                                      QDir(folder).filePath("hard.bin").toStdString());
    auto external = [&](const std::string &location, int64_t offset) {
      onnx::ModelProto m = base;
      onnx::TensorProto *w = m.mutable_graph()->mutable_initializer(0);
      w->clear_raw_data();
      w->set_data_location(onnx::TensorProto::EXTERNAL);
      auto *entry = w->add_external_data();
      entry->set_key("location");
      entry->set_value(location);
      entry = w->add_external_data();
      entry->set_key("offset");
      entry->set_value(std::to_string(offset));
      return write(folder, "external.onnx", m.SerializeAsString());
    };
    const engine::ImportedModel inside = engine::importOnnx(external("weights.bin", 16));
    QCOMPARE(inside.tensors.at("c").at("weight").flatten()[107].item<float>(), 1.07f);
    for (const auto &[location, words] :
         std::vector<std::pair<std::string, QString>>{{"../elsewhere/weights.bin", "climbs out of"},
                                                      {QDir(dir()).filePath("elsewhere/weights.bin").toStdString(), "is an absolute path"},
                                                      {"link.bin", "through a symbolic link"},
                                                      {"hard.bin", "is a hard link"}}) {
      const std::string path = external(location, 0);
      const QString message = refusal(path);
      QVERIFY2(message.startsWith(QString::fromStdString(path) + ": tensor 'c.weight' keeps its data in") &&
                   message.contains(words),
               qPrintable(message));
    }
    QVERIFY2(refusal(external("weights.bin", 64)).contains("ends before"), "short external file");
  }

  void openDimensionsAskForTheInputShape() {
    const std::string path = write(dir(), "open.onnx", convGraph({"batch", "3", "height", "width"}).bytes());
    const QString message = refusal(path);
    QVERIFY2(message.contains("input 'x' [N, 3, 'height', 'width'] leaves dimension 2 ('height'), 3 ('width') open") &&
                 message.contains("--input-shape"),
             qPrintable(message));
    engine::ImportOptions options;
    options.inputShape = {3, 16, 12};
    const engine::ImportedModel m = engine::importOnnx(path, options);
    QCOMPARE(std::get<spec::IntList>(m.spec.nodes[0].params.at("shape")), (spec::IntList{3, 16, 12}));
    options.inputShape = {4, 16, 12};
    QVERIFY2(refusal(path, options).contains("fixes dimension 1 to 3; --input-shape gives 4"), qPrintable(refusal(path, options)));
    options.inputShape = {16, 12};
    QVERIFY2(refusal(path, options).contains("--input-shape gives 2"), qPrintable(refusal(path, options)));
  }

  // Every such node is listed, not only the first.
  void whatTheRegistryCannotExpressNamesNodeAndField() {
    OnnxGraph g = convGraph({"N", "3", "8", "8"}, 13, {0, 0, 1, 1});
    g.node("GlobalAveragePool", {"x"}, {"p"}, "gap");
    g.node("Add", {"x", "p"}, {"s"}, "broadcast");
    g.node("Softmax", {"s"}, {"z"}, "softmax").i("axis", 1);
    const std::string path = write(dir(), "pads.onnx", g.bytes());
    const QString message = refusal(path);
    QVERIFY2(message.startsWith(QString::fromStdString(path) + ": 2 nodes cannot be expressed with the registry's ops") &&
                 message.contains("node 'c' (Conv): pads 0, 0, 1, 1 pad H by 0 before and 1 after") &&
                 message.contains("node 'broadcast' (Add): adds [N, 3, 8, 8] and [N, 3, 1, 1] with broadcasting"),
             qPrintable(message));
    // A Transpose that moves the batch, a Split of it, a mean over two axes that are not H and W.
    OnnxGraph moves = convGraph({"N", "3", "8", "8"}, 13);
    moves.node("Transpose", {"y"}, {"t"}, "batch_last").ints("perm", {1, 2, 3, 0});
    moves.node("Split", {"y"}, {"s1", "s2"}, "split_batch").i("axis", 0);
    moves.node("ReduceMean", {"y"}, {"m"}, "mean_ch").ints("axes", {1, 2});
    moves.node("Sum", {"t", "s1", "m"}, {"z"}, "sum");
    const QString moved = refusal(write(dir(), "moves.onnx", moves.bytes()));
    QVERIFY2(moved.contains("node 'batch_last' (Transpose): perm 1, 2, 3, 0 moves the batch (axis 0)") &&
                 moved.contains("node 'split_batch' (Split): it splits the batch (axis 0)") &&
                 moved.contains("node 'mean_ch' (ReduceMean): a mean over axes 1, 2"),
             qPrintable(moved));
    OnnxGraph old = convGraph({"N", "3", "8", "8"}, 9);
    QVERIFY2(refusal(write(dir(), "old.onnx", old.bytes())).contains("uses opset 9; the importer reads opsets 11 to 17"),
             "opset 9");
    // Before opset 13 Softmax flattens the axes from `axis` on: over [N, 4, 6, 6] at axis 1 that is
    // not one torch dimension.
    OnnxGraph soft = convGraph({"N", "3", "8", "8"}, 12);
    soft.node("Softmax", {"y"}, {"z"}, "soft").i("axis", 1);
    QVERIFY2(refusal(write(dir(), "soft.onnx", soft.bytes())).contains("node 'soft' (Softmax): opset 12's Softmax over axes 1..3"),
             qPrintable(refusal(write(dir(), "soft.onnx", soft.bytes()))));
  }

  // A layer norm's decomposition that is not torch's is refused at its first node, naming what
  // differs and the nodes; a layer norm over two axes (decomposed or LayerNormalization) and an
  // Erf outside GELU are refused too.
  void decompositionsThatDifferAreRefusedNamingTheNodes() {
    auto layerNorm = [](const std::string &prefix, OnnxGraph &g, const std::string &x, float exponent,
                        const std::vector<int64_t> &axes) {
      g.initializer(prefix + "exp", torch::tensor(exponent));
      g.initializer(prefix + "eps", torch::tensor(1e-5f));
      g.node("ReduceMean", {x}, {prefix + "m"}, "/" + prefix + "/ReduceMean").ints("axes", axes);
      g.node("Sub", {x, prefix + "m"}, {prefix + "d"}, "/" + prefix + "/Sub");
      g.node("Pow", {prefix + "d", prefix + "exp"}, {prefix + "q"}, "/" + prefix + "/Pow");
      g.node("ReduceMean", {prefix + "q"}, {prefix + "v"}, "/" + prefix + "/ReduceMean_1").ints("axes", axes);
      g.node("Add", {prefix + "v", prefix + "eps"}, {prefix + "ve"}, "/" + prefix + "/Add");
      g.node("Sqrt", {prefix + "ve"}, {prefix + "r"}, "/" + prefix + "/Sqrt");
      g.node("Div", {prefix + "d", prefix + "r"}, {prefix + "z"}, "/" + prefix + "/Div");
    };
    OnnxGraph g(13);
    g.input("x", {"N", "4", "6"});
    layerNorm("cube", g, "x", 3.0f, {-1});
    layerNorm("wide", g, "x", 2.0f, {-2, -1});
    g.node("Erf", {"x"}, {"e"}, "/lone/Erf");
    // GELU's tanh form with x^2 where x^3 belongs.
    g.initializer("root", torch::tensor(static_cast<float>(std::sqrt(2.0 / M_PI))));
    g.initializer("cubic", torch::tensor(0.044715f));
    g.node("Mul", {"x", "x"}, {"sq"}, "/gelu/Mul");
    g.node("Mul", {"sq", "cubic"}, {"c"}, "/gelu/Mul_1");
    g.node("Add", {"x", "c"}, {"inner"}, "/gelu/Add");
    g.node("Mul", {"inner", "root"}, {"z"}, "/gelu/Mul_2");
    g.node("Tanh", {"z"}, {"t"}, "/gelu/Tanh");
    g.node("Sum", {"cubez", "widez", "e", "t"}, {"y"}, "/Sum");
    g.output("y");
    const QString message = refusal(write(dir(), "norms.onnx", g.bytes()));
    QVERIFY2(message.contains("4 nodes cannot be expressed") &&
                 message.contains("node '/gelu/Mul_1' (Mul): input 2 ('cubic') is a constant") &&
                 message.contains("\n  Tanh '/gelu/Tanh' of sqrt(2 / pi) * ... begins GELU's tanh approximation") &&
                 message.contains("the Add is not x + 0.044715 * x^3") &&
                 message.contains("node '/cube/ReduceMean' (ReduceMean): it begins a layer norm's decomposition") &&
                 message.contains("Pow's exponent is not the constant 2") &&
                 message.contains("ReduceMean '/cube/ReduceMean', Sub '/cube/Sub', Pow '/cube/Pow'") &&
                 message.contains("node '/wide/ReduceMean' (ReduceMean): a layer norm over axes 1, 2 of a rank-3 value") &&
                 message.contains("node '/lone/Erf' (Erf): Erf '/lone/Erf' is not part of GELU's decomposition"),
             qPrintable(message));
    QVERIFY2(!message.contains("Attention"), qPrintable(message));

    OnnxGraph native(17);
    native.input("x", {"N", "4", "6"});
    native.initializer("s", torch::ones({4, 6}));
    native.node("LayerNormalization", {"x", "s"}, {"y"}, "/ln/LayerNormalization").i("axis", -2);
    native.output("y");
    const QString two = refusal(write(dir(), "ln2.onnx", native.bytes()));
    QVERIFY2(two.contains("node '/ln/LayerNormalization' (LayerNormalization): axis 1 normalises the last 2 axes together"),
             qPrintable(two));
  }

  // Attention that is not nn.MultiheadAttention's self-attention (python3-torch's export of a
  // cross-attention, whose keys and values are projected from another Linear's output) is refused
  // whole: the Transposes that move the batch are named, and a line says why the attention block
  // does not fold, naming its Softmax and the nodes seen.
  void attentionThatDoesNotFoldIsRefusedNamingItsNodes() {
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start("/usr/bin/python3", {TW_SOURCE_DIR "/tests/import/make_onnx.py", dir(), "cross_attention"});
    p.waitForFinished(120000);
    const std::string path = QDir(dir()).filePath("cross_attention.onnx").toStdString();
    QVERIFY2(QFile::exists(QString::fromStdString(path)), qPrintable(QString::fromUtf8(p.readAll())));
    const QString message = refusal(path);
    QVERIFY2(message.contains("cannot be expressed with the registry's ops, so nothing was imported") &&
                 message.contains("node '/attn/Transpose' (Transpose): perm 1, 0, 2 moves the batch"),
             qPrintable(message));
    QVERIFY2(message.contains("attention at Softmax '/attn/Softmax' is not folded: it is not nn.MultiheadAttention's "
                              "self-attention as torch writes it (the keys are projected from '/attn/Transpose_1_output_0', "
                              "the queries from '/attn/Transpose_output_0': cross-attention") &&
                 message.contains("nodes seen: MatMul '/attn/MatMul', Add '/attn/Add', MatMul '/attn/MatMul_1'") &&
                 message.contains("Softmax '/attn/Softmax', MatMul '/attn/MatMul_3'"),
             qPrintable(message));
    QVERIFY2(!message.contains("not supported yet"), qPrintable(message));
  }
};

QTEST_GUILESS_MAIN(TestOnnxImportRefusals)
#include "test_onnx_import_refusals.moc"
