// Export of every registry op, each in a small model of its own (tests/engine/op_cases.h), to
// TorchScript and ONNX: the TorchScript file reloads in LibTorch with the trained model's outputs;
// the ONNX file passes the checker and shape inference at opsets 13 and 17; and the real peers,
// python3-torch's torch.jit.load and ONNX Runtime (onnxruntime-node), run every file and agree
// with LibTorch (tests/export/check_*.{py,mjs}). Batch norm carries non-trivial running
// statistics, as after training.
#include "core/engine/dataset.h"
#include "core/engine/export/export_error.h"
#include "core/engine/export/int8_quantization.h"
#include "core/engine/export/onnx_exporter.h"
#include "core/engine/export/onnx_reference.h"
#include "core/engine/export/torchscript_exporter.h"
#include "core/engine/op_builders.h"
#include "core/spec/registry.h"
#include "tests/engine/op_cases.h"

#include <torch/script.h>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <limits>
#include <sstream>

using namespace tw;
using namespace tw::testing;

namespace {

struct Row {
  std::string name, op, yaml;
  int64_t indexRange = 0;
  bool example = false;  // a whole model, trained a few steps on real Fashion-MNIST images
};

// A residual network as Studio's "Small ResNet" template draws it, on Fashion-MNIST's shape.
const char *kResidual = R"(name: residual
blocks:
  residual:
    params: {channels: 8}
    inputs: [x]
    nodes:
      - {id: conv1, op: Conv2d, out_channels: $channels, kernel_size: 3, padding: 1, bias: false, inputs: [x]}
      - {id: bn1, op: BatchNorm2d}
      - {id: act1, op: ReLU}
      - {id: conv2, op: Conv2d, out_channels: $channels, kernel_size: 3, padding: 1, bias: false}
      - {id: bn2, op: BatchNorm2d}
      - {id: sum, op: Add, inputs: [bn2, x]}
      - {id: act2, op: ReLU}
    output: act2
nodes:
  - {id: image, op: Input, shape: [1, 28, 28]}
  - {id: stem, op: Conv2d, out_channels: 8, kernel_size: 3, padding: 1, bias: false}
  - {id: stem_bn, op: BatchNorm2d}
  - {id: stem_act, op: ReLU}
  - {id: block1, block: residual}
  - {id: block2, block: residual}
  - {id: pool, op: AdaptiveAvgPool2d, output_size: 1}
  - {id: flat, op: Flatten}
  - {id: logits, op: Linear, out_features: 10}
)";

std::string readText(const std::string &path) {
  QFile f(QString::fromStdString(path));
  return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
}

std::vector<Row> rows() {
  std::vector<Row> out;
  for (const auto &[op, c] : defaultCases()) out.push_back({op, op, modelYaml(op, c), c.indexRange});
  for (const auto &[name, row] : extraCases())
    out.push_back({name, row.first, modelYaml(row.first, row.second), row.second.indexRange});
  const std::string examples = TW_SOURCE_DIR "/resources/examples/";
  for (const char *name : {"fashion_mlp", "fashion_cnn", "fashion_transformer"})
    out.push_back({std::string("example ") + name, "", readText(examples + name + ".model.yaml"), 0, true});
  out.push_back({"example residual", "", kResidual, 0, true});
  return out;
}

// Real Fashion-MNIST examples, standardised as a run would have them.
const engine::Dataset &fashion() {
  static const engine::Dataset data = [] {
    config::DataOptions options;
    options.trainLimit = 512;
    options.testLimit = 64;
    return engine::loadDataset(options, 1);
  }();
  return data;
}

std::vector<torch::Tensor> inputsFor(const engine::ExportSource &source, int64_t indexRange, int64_t batch,
                                     bool real = false) {
  if (real) return {fashion().test.inputs.slice(0, 0, batch)};
  std::vector<torch::Tensor> inputs;
  for (const std::string &id : source.module->inputIds()) {
    const spec::NodeInfo *in = source.analysis.find(id);
    std::vector<int64_t> shape{batch};
    shape.insert(shape.end(), in->outputShape.begin(), in->outputShape.end());
    inputs.push_back(indexRange > 0 ? torch::randint(0, indexRange, shape, torch::kLong) : torch::randn(shape));
  }
  return inputs;
}

// A model as after training: batch norm's running statistics moved by a few batches in training
// mode, then evaluation mode.
engine::ExportSource trainedSource(const Row &row) {
  engine::ExportSource source = engine::exportSourceFromSpec(spec::parseModelYaml(row.yaml, "one_op.yaml"));
  if (row.example) {
    source.module->train();
    torch::optim::Adam adam(source.module->parameters(), torch::optim::AdamOptions(1e-3));
    const engine::Split &train = fashion().train;
    for (int64_t i = 0; i + 64 <= train.size(); i += 64) {
      adam.zero_grad();
      torch::nn::functional::cross_entropy(source.module->forward(train.inputs.slice(0, i, i + 64)),
                                           train.targets.slice(0, i, i + 64))
          .backward();
      adam.step();
    }
    source.module->eval();
    return source;
  }
  torch::NoGradGuard noGrad;
  source.module->train();
  for (int i = 0; i < 3; ++i) {
    auto inputs = inputsFor(source, row.indexRange, 8);
    for (auto &t : inputs)
      if (t.scalar_type() == torch::kFloat) t = t * 2.0 + 0.5;  // statistics away from 0 and 1
    source.module->forward(inputs);
  }
  source.module->eval();
  return source;
}

double maxDiff(const torch::Tensor &a, const torch::Tensor &b) {
  return (a.to(torch::kDouble) - b.to(torch::kDouble)).abs().max().item<double>();
}

void writeTensor(const QString &path, const torch::Tensor &t) {
  const torch::Tensor c = t.contiguous();
  std::ofstream out(path.toStdString(), std::ios::binary);
  out.write(static_cast<const char *>(c.data_ptr()), static_cast<std::streamsize>(c.numel() * c.element_size()));
}

QJsonObject tensorEntry(const QString &dir, const QString &file, const std::string &name, const torch::Tensor &t) {
  writeTensor(dir + "/" + file, t);
  QJsonArray shape;
  for (int64_t d : t.sizes()) shape.append(qint64(d));
  return {{"name", QString::fromStdString(name)},
          {"file", file},
          {"dtype", t.scalar_type() == torch::kLong ? "int64" : "float32"},
          {"shape", shape}};
}

// Runs a peer's check script on a folder of cases; returns name -> largest difference.
QMap<QString, double> runPeer(const QString &program, const QStringList &args, QString &log) {
  QProcess p;
  p.setProcessChannelMode(QProcess::MergedChannels);
  p.start(program, args);
  p.waitForFinished(600000);
  log = QString::fromUtf8(p.readAll());
  QMap<QString, double> diffs;
  for (const QString &line : log.split('\n')) {
    const QJsonObject o = QJsonDocument::fromJson(line.toUtf8()).object();
    if (o.contains("case")) diffs[o["case"].toString()] = o.contains("max_diff") ? o["max_diff"].toDouble() : -1.0;
  }
  return diffs;
}

}  // namespace

class TestExport : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { torch::manual_seed(11); }

  void everyOpHasBothEmitters() {
    for (const spec::OpDef &op : spec::Registry::instance().ops()) {
      const engine::OpEntry *entry = engine::findOp(op.name);
      QVERIFY2(entry, op.name.c_str());
      QVERIFY2(entry->torchscript, qPrintable(QString::fromStdString(op.name) + " has no TorchScript emitter"));
      QVERIFY2(entry->onnx, qPrintable(QString::fromStdString(op.name) + " has no ONNX emitter"));
      QVERIFY2(defaultCases().count(op.name), qPrintable(QString::fromStdString(op.name) + " has no test case"));
    }
  }

  void torchScriptReloadsWithTheSameOutputs_data() {
    QTest::addColumn<int>("index");
    const auto all = rows();
    for (size_t i = 0; i < all.size(); ++i) QTest::newRow(all[i].name.c_str()) << int(i);
  }

  void torchScriptReloadsWithTheSameOutputs() {
    QFETCH(int, index);
    const Row row = rows()[index];
    engine::ExportSource source = trainedSource(row);
    const std::string bytes = engine::exportTorchScript(source, {});
    std::istringstream in(bytes);
    torch::jit::Module loaded = torch::jit::load(in);

    torch::NoGradGuard noGrad;
    const auto inputs = inputsFor(source, row.indexRange, kBatch, row.example);
    const torch::Tensor expected = source.module->forward(inputs);
    std::vector<torch::jit::IValue> args(inputs.begin(), inputs.end());
    const torch::Tensor got = loaded.forward(args).toTensor();
    QCOMPARE(got.sizes().vec(), expected.sizes().vec());
    QCOMPARE(got.scalar_type(), expected.scalar_type());
    QVERIFY2(maxDiff(got, expected) <= 1e-5, qPrintable(QString::number(maxDiff(got, expected))));

    // Parameters are named by node id and LibTorch name.
    if (row.example) return;
    for (const auto &p : source.module->named_parameters()) {
      const std::string libtorchName = p.key().substr(p.key().find('.') + 1);
      bool found = false;
      for (const auto &q : loaded.named_parameters()) found = found || q.name == "blk.n." + libtorchName;
      QVERIFY2(found, ("blk.n." + libtorchName).c_str());
    }
  }

  void onnxPassesCheckerAndShapeInference_data() { torchScriptReloadsWithTheSameOutputs_data(); }

  void onnxPassesCheckerAndShapeInference() {
    QFETCH(int, index);
    const Row row = rows()[index];
    engine::ExportSource source = trainedSource(row);
    for (int opset : {13, 17}) {
      engine::ExportOptions options;
      options.opset = opset;
      const std::string bytes = engine::exportOnnx(source, options);
      const engine::OnnxCheck check = engine::checkOnnx(bytes, source.analysis.find(source.analysis.output)->outputShape);
      QVERIFY2(check.problem.empty(), qPrintable("opset " + QString::number(opset) + ": " +
                                                 QString::fromStdString(check.problem)));
      // The reference evaluator (what `export` reports with) agrees with LibTorch on the file.
      torch::NoGradGuard noGrad;
      const auto inputs = inputsFor(source, row.indexRange, kBatch, row.example);
      std::map<std::string, torch::Tensor> feeds;
      for (size_t k = 0; k < inputs.size(); ++k) feeds[source.module->inputIds()[k]] = inputs[k];
      const torch::Tensor got = engine::evaluateOnnx(bytes, feeds), expected = source.module->forward(inputs);
      QCOMPARE(got.sizes().vec(), expected.sizes().vec());
      QVERIFY2(maxDiff(got, expected) <= 1e-4, qPrintable(QString::number(maxDiff(got, expected))));
    }
    // int8 (QDQ on Linear and Conv) passes the same checks at both ends of the opset range.
    if (row.example || engine::quantizedOp(row.op)) {
      torch::NoGradGuard noGrad;
      const engine::Int8Plan plan = engine::calibrateInt8(*source.module, source.analysis,
                                                          inputsFor(source, row.indexRange, 16, row.example)[0]);
      QVERIFY(!plan.inputRanges.empty());
      for (int opset : {13, 17}) {
        engine::ExportOptions options;
        options.opset = opset;
        options.int8 = &plan;
        const std::string bytes = engine::exportOnnx(source, options);
        QVERIFY(bytes.find("DequantizeLinear") != std::string::npos);
        const engine::OnnxCheck check =
            engine::checkOnnx(bytes, source.analysis.find(source.analysis.output)->outputShape);
        QVERIFY2(check.problem.empty(), qPrintable("int8, opset " + QString::number(opset) + ": " +
                                                   QString::fromStdString(check.problem)));
      }
    }
  }

  // Every case's files, inputs and LibTorch's outputs in one folder; python3-torch and ONNX
  // Runtime each run all of them and print the largest difference per case.
  void peersRunEveryExportedOp() {
    const QString ortDir = QStringLiteral(TW_ONNXRUNTIME_DIR);
    if (!QFile::exists(ortDir + "/node_modules/onnxruntime-node/package.json"))
      QFAIL(qPrintable("ONNX Runtime is not installed in " + ortDir + ": run packaging/install-test-tools.sh"));
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QJsonArray cases;
    const auto all = rows();
    for (size_t i = 0; i < all.size(); ++i) {
      engine::ExportSource source = trainedSource(all[i]);
      torch::NoGradGuard noGrad;
      const auto inputs = inputsFor(source, all[i].indexRange, kBatch, all[i].example);
      const torch::Tensor expected = source.module->forward(inputs);
      const QString stem = "case" + QString::number(i);
      {
        std::ofstream(dir.filePath(stem + ".pt").toStdString(), std::ios::binary)
            << engine::exportTorchScript(source, {});
      }
      QJsonArray onnxFiles;
      for (int opset : {13, 17}) {
        engine::ExportOptions options;
        options.opset = opset;
        const QString file = stem + "_opset" + QString::number(opset) + ".onnx";
        std::ofstream(dir.filePath(file).toStdString(), std::ios::binary) << engine::exportOnnx(source, options);
        onnxFiles.append(file);
      }
      QJsonArray inputEntries;
      for (size_t k = 0; k < inputs.size(); ++k)
        inputEntries.append(tensorEntry(dir.path(), stem + "_in" + QString::number(k) + ".bin",
                                        source.module->inputIds()[k], inputs[k]));
      cases.append(QJsonObject{{"name", QString::fromStdString(all[i].name)},
                               {"torchscript", stem + ".pt"},
                               {"onnx", onnxFiles},
                               {"inputs", inputEntries},
                               {"output", QString::fromStdString(source.analysis.output)},
                               {"expected", tensorEntry(dir.path(), stem + "_out.bin", "out", expected)}});
    }
    QFile manifest(dir.filePath("cases.json"));
    QVERIFY(manifest.open(QIODevice::WriteOnly));
    manifest.write(QJsonDocument(QJsonObject{{"cases", cases}}).toJson());
    manifest.close();

    const QString scripts = QStringLiteral(TW_SOURCE_DIR) + "/tests/export/";
    QString log;
    const auto torchDiffs = runPeer("/usr/bin/python3", {scripts + "check_torchscript.py", dir.path()}, log);
    QVERIFY2(torchDiffs.size() == cases.size(), qPrintable("python3-torch checked " + QString::number(torchDiffs.size()) +
                                                           " of " + QString::number(cases.size()) + " cases:\n" + log));
    for (auto it = torchDiffs.begin(); it != torchDiffs.end(); ++it)
      QVERIFY2(it.value() >= 0 && it.value() <= 1e-5, qPrintable("torch.jit.load, " + it.key() + ": " +
                                                                  QString::number(it.value()) + "\n" + log));

    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const auto ortDiffs = runPeer("node", {scripts + "check_onnx.mjs", dir.path(), ortDir}, log);
    QVERIFY2(ortDiffs.size() == 2 * cases.size(), qPrintable("ONNX Runtime checked " + QString::number(ortDiffs.size()) +
                                                             " of " + QString::number(2 * cases.size()) + " files:\n" + log));
    for (auto it = ortDiffs.begin(); it != ortDiffs.end(); ++it)
      QVERIFY2(it.value() >= 0 && it.value() <= 1e-4, qPrintable("ONNX Runtime, " + it.key() + ": " +
                                                                 QString::number(it.value()) + "\n" + log));
  }

  // The peers' check scripts fail an output that is not finite, on either side: a NaN taken as a
  // difference would pass (Math.max carries it, JSON writes it as null, null reads back as 0).
  void peerChecksFailOnNaNAndInfinity() {
    const QString ortDir = QStringLiteral(TW_ONNXRUNTIME_DIR);
    if (!QFile::exists(ortDir + "/node_modules/onnxruntime-node/package.json"))
      QFAIL(qPrintable("ONNX Runtime is not installed in " + ortDir + ": run packaging/install-test-tools.sh"));
    const Row row{"Linear", "Linear", modelYaml("Linear", defaultCases().at("Linear")), 0};
    engine::ExportSource source = trainedSource(row);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    std::ofstream(dir.filePath("model.pt").toStdString(), std::ios::binary) << engine::exportTorchScript(source, {});
    std::ofstream(dir.filePath("model.onnx").toStdString(), std::ios::binary) << engine::exportOnnx(source, {});
    torch::NoGradGuard noGrad;
    const torch::Tensor x = inputsFor(source, 0, kBatch)[0];
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    const torch::Tensor nanInput = x.clone().index_fill_(1, torch::tensor({0}), nan);
    const torch::Tensor y = source.module->forward(x);
    struct Case {
      QString name;
      torch::Tensor input, expected;
    };
    const std::vector<Case> all = {
        {"finite", x, y},
        {"NaN in, NaN out on both sides", nanInput, source.module->forward(nanInput)},
        {"NaN expected", x, y.clone().index_fill_(1, torch::tensor({1}), nan)},
        {"infinity expected", x, y.clone().index_fill_(1, torch::tensor({2}), inf)}};
    QVERIFY(torch::isnan(all[1].expected).all().item<bool>());
    QJsonArray cases;
    for (size_t i = 0; i < all.size(); ++i) {
      const QString stem = "case" + QString::number(i);
      cases.append(QJsonObject{
          {"name", all[i].name},
          {"torchscript", "model.pt"},
          {"onnx", QJsonArray{"model.onnx"}},
          {"inputs", QJsonArray{tensorEntry(dir.path(), stem + "_in.bin", source.module->inputIds()[0], all[i].input)}},
          {"output", QString::fromStdString(source.analysis.output)},
          {"expected", tensorEntry(dir.path(), stem + "_out.bin", "out", all[i].expected)}});
    }
    QFile manifest(dir.filePath("cases.json"));
    QVERIFY(manifest.open(QIODevice::WriteOnly));
    manifest.write(QJsonDocument(QJsonObject{{"cases", cases}}).toJson());
    manifest.close();

    const QString scripts = QStringLiteral(TW_SOURCE_DIR) + "/tests/export/";
    for (const auto &[peer, args] :
         std::vector<std::pair<QString, QStringList>>{{"/usr/bin/python3", {scripts + "check_torchscript.py", dir.path()}},
                                                     {"node", {scripts + "check_onnx.mjs", dir.path(), ortDir}}}) {
      QString log;
      const auto diffs = runPeer(peer, args, log);  // -1: the case reported an error, not a difference
      QVERIFY2(diffs.size() == int(all.size()), qPrintable(peer + " reported " + QString::number(diffs.size()) +
                                                           " of " + QString::number(all.size()) + " cases:\n" + log));
      for (auto it = diffs.begin(); it != diffs.end(); ++it) {
        const bool finite = it.key().startsWith("finite");
        QVERIFY2(finite ? it.value() >= 0 && it.value() <= 1e-4 : it.value() == -1.0,
                 qPrintable(peer + ", " + it.key() + ": " + QString::number(it.value()) + "\n" + log));
      }
    }
  }

  // The int8 check's limit (int8CheckLimit: half of what quantizing costs the simulation) holds
  // for every quantized op and example model, where the file computes exactly what the simulation
  // does, and refuses a file computing something else: quantized on ranges twice the plan's, or
  // with its weights left in float.
  void int8FileMatchesItsSimulation_data() {
    QTest::addColumn<int>("index");
    const auto all = rows();
    for (size_t i = 0; i < all.size(); ++i)
      if (all[i].example || engine::quantizedOp(all[i].op)) QTest::newRow(all[i].name.c_str()) << int(i);
  }
  void int8FileMatchesItsSimulation() {
    QFETCH(int, index);
    const Row row = rows()[index];
    engine::ExportSource source = trainedSource(row);
    torch::NoGradGuard noGrad;
    const torch::Tensor x = inputsFor(source, row.indexRange, 64, row.example)[0];
    const engine::Int8Plan plan = engine::calibrateInt8(*source.module, source.analysis, x);
    engine::Int8Plan wide = plan;
    for (auto &entry : wide.inputRanges) {
      entry.second.min *= 2;
      entry.second.max *= 2;
    }
    const auto fileOutputs = [&](const engine::Int8Plan *int8) {
      engine::ExportOptions options;
      options.int8 = int8;
      return engine::evaluateOnnx(engine::exportOnnx(source, options), {{source.module->inputIds()[0], x}});
    };
    const torch::Tensor file = fileOutputs(&plan), wideFile = fileOutputs(&wide), floatFile = fileOutputs(nullptr);
    const torch::Tensor trained = source.module->forward(x);
    engine::simulateInt8(*source.module, source.analysis, plan);
    const torch::Tensor simulated = source.module->forward(x);
    const double limit = engine::int8CheckLimit(simulated, trained);
    qInfo("limit %.3g; file %.3g, ranges doubled %.3g, float weights %.3g", limit, maxDiff(file, simulated),
          maxDiff(wideFile, simulated), maxDiff(floatFile, simulated));
    QVERIFY2(maxDiff(file, simulated) <= limit, qPrintable(QString::number(maxDiff(file, simulated))));
    QVERIFY2(maxDiff(wideFile, simulated) > limit, qPrintable(QString::number(maxDiff(wideFile, simulated))));
    QVERIFY2(maxDiff(floatFile, simulated) > limit, qPrintable(QString::number(maxDiff(floatFile, simulated))));
    QVERIFY(std::isnan(engine::int8CheckLimit(simulated, trained.clone().fill_(NAN))));
  }

  // The simulation is the file's arithmetic: weights take at most 255 values per channel, and a
  // quantized input is a multiple of its scale (offset by the zero point).
  void int8SimulationQuantizesWeightsAndInputs() {
    const Row row{"mlp", "", readText(TW_SOURCE_DIR "/resources/examples/fashion_mlp.model.yaml"), 0, true};
    engine::ExportSource source = trainedSource(row);
    torch::NoGradGuard noGrad;
    const torch::Tensor x = fashion().test.inputs.slice(0, 0, 32);
    const engine::Int8Plan plan = engine::calibrateInt8(*source.module, source.analysis, x);
    const torch::Tensor before = source.module->forward(x);
    engine::simulateInt8(*source.module, source.analysis, plan);
    for (const auto &p : source.module->named_parameters())
      if (p.key().find("weight") != std::string::npos)
        QVERIFY2(std::get<0>(at::_unique(p.value()[0])).numel() <= 255, p.key().c_str());
    const torch::Tensor after = source.module->forward(x);
    QVERIFY(maxDiff(after, before) > 0);  // it changed ...
    QCOMPARE(after.argmax(1).eq(before.argmax(1)).sum().item<int64_t>() >= 28, true);  // ... a little
  }

  void anOpOnnxCannotExpressNamesTheNode() {
    const Row row{"avg", "AvgPool2d",
                  modelYaml("AvgPool2d", {kImage, "kernel_size: 2, ceil_mode: true, count_include_pad: true"}), 0};
    engine::ExportSource source = trainedSource(row);
    try {
      engine::exportOnnx(source, {});
      QFAIL("an overhanging ceil-mode window with count_include_pad exported");
    } catch (const engine::ExportError &e) {
      const QString message = e.what();
      QVERIFY2(message.contains("node 'blk.n' (AvgPool2d)") && message.contains("count_include_pad"),
               qPrintable(message));
    }
    // TorchScript expresses it.
    QVERIFY(!engine::exportTorchScript(source, {}).empty());
  }

  void anOpsetOutsideTheRangeIsRefused() {
    engine::ExportSource source = trainedSource(rows()[0]);
    for (int opset : {12, 18}) {
      engine::ExportOptions options;
      options.opset = opset;
      try {
        engine::exportOnnx(source, options);
        QFAIL("an opset outside 13-17 exported");
      } catch (const engine::ExportError &e) {
        QVERIFY2(QString(e.what()).contains("opset " + QString::number(opset)), e.what());
      }
    }
  }

  // With the run's standardisation baked in, the file takes raw inputs.
  void bakedPreprocessingTakesRawInputs() {
    engine::ExportSource source = engine::exportSourceFromSpec(spec::parseModelYaml(
        "name: mlp\nnodes:\n  - {id: image, op: Input, shape: [1, 4, 4]}\n  - {id: flat, op: Flatten}\n"
        "  - {id: fc, op: Linear, out_features: 3}\n"));
    data::Preprocessing pre;
    pre.inputShape = {1, 4, 4};
    pre.standardization = "image";
    pre.imageMean = 0.3;
    pre.imageStd = 0.2;
    source.preprocessing = pre;
    source.preprocessingJson = data::preprocessingJson(pre);
    torch::NoGradGuard noGrad;
    const torch::Tensor raw = torch::rand({5, 1, 4, 4});
    const torch::Tensor expected = source.module->forward((raw - 0.3f) / 0.2f);

    std::istringstream in(engine::exportTorchScript(source, {}));
    torch::jit::ExtraFilesMap extra{{engine::kTorchScriptMetadataFile, ""}};
    torch::jit::Module loaded = torch::jit::load(in, c10::nullopt, extra);
    QVERIFY(maxDiff(loaded.forward({raw}).toTensor(), expected) <= 1e-5);
    QVERIFY(QString::fromStdString(extra[engine::kTorchScriptMetadataFile]).contains("\"preprocessing_baked\": true"));

    engine::ExportOptions off;
    off.bakePreprocessing = false;
    std::istringstream plain(engine::exportTorchScript(source, off));
    QVERIFY(maxDiff(torch::jit::load(plain).forward({raw}).toTensor(), source.module->forward(raw)) <= 1e-5);
  }
};

QTEST_GUILESS_MAIN(TestExport)
#include "test_export.moc"
