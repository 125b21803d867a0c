// Walks the whole layer registry: every op builds in LibTorch, runs forward on a batch of 3, and
// matches the analytic shape and parameter-count rules. A new op without a builder or without a
// row in the table below fails here. The sequence ops get checks of their own below: LibTorch's
// attention modules take (T, N, E), and a missing transpose would still give the right shape.
#include "core/engine/checkpoint.h"
#include "core/engine/dataset.h"
#include "core/engine/import/onnx_mappers.h"
#include "core/engine/memory_format.h"
#include "core/engine/model_builder.h"
#include "core/engine/op_builders.h"
#include "core/engine/optimizer_factory.h"
#include "core/engine/versions.h"
#include "core/spec/analysis.h"
#include "core/spec/convolutions.h"
#include "core/spec/model_spec.h"
#include "core/spec/registry.h"
#include "tests/engine/op_cases.h"

#include <QTemporaryDir>
#include <QtTest>

#include <functional>
#include <map>
#include <set>
#include <string>

using namespace tw;
using namespace tw::testing;

namespace {

std::shared_ptr<engine::GraphModule> buildYaml(const std::string &yaml) {
  const spec::ModelSpec model = spec::parseModelYaml(yaml);
  return engine::buildModel(model, spec::analyzeOrThrow(model));
}

// Two builds of one spec start from different random weights; this makes `to` start as `from`.
void copyParameters(torch::nn::Module &from, torch::nn::Module &to) {
  torch::NoGradGuard noGrad;
  auto source = from.parameters(), target = to.parameters();
  for (size_t i = 0; i < source.size(); ++i) target[i].copy_(source[i]);
}

std::string sequenceModel(const QString &node) {
  return "nodes:\n  - {id: x, op: Input, shape: [5, 12]}\n  - {id: a, " + node.toStdString() + "}\n";
}

}  // namespace

class TestRegistryTorch : public QObject {
  Q_OBJECT

 private:
  void addRow(const char *name, const std::string &op, const Case &c) {
    QTest::newRow(name) << QString::fromStdString(op) << QString::fromStdString(modelYaml(op, c))
                        << qint64(c.indexRange) << true;
  }

 private Q_SLOTS:
  void initTestCase() { torch::manual_seed(7); }

  void everyOpHasABuilder() {
    for (const spec::OpDef &op : spec::Registry::instance().ops())
      QVERIFY2(engine::findOpBuilder(op.name) != nullptr, qPrintable(QString::fromStdString(op.name)));
  }

  // The op table's import column is what the ONNX importer reads: each operator it lists finds the
  // mapper on its row, and no operator sits on two rows. An op without imports is made by a fold
  // of its parts or not at all, which the list below states, so a new registry op is a decision.
  void importColumnIsWhatTheImporterReads() {
    std::set<std::string> withoutImport;
    for (const auto &[op, entry] : tw::engine::opTable()) {
      if (entry.onnxImports.empty()) withoutImport.insert(op);
      for (const tw::engine::OnnxImport &import : entry.onnxImports)
        QVERIFY2(tw::engine::onnx_import::findMapper(import.onnxOp) == import.handler, import.onnxOp);
    }
    // Made by another row's mapper (Conv1d by Conv, BatchNorm1d by BatchNormalization, SiLU by Mul
    // of a Sigmoid, ChannelShuffle by Reshape, Permute by Transpose), by the attention fold
    // (MultiheadAttention), or not imported: Input is the graph's input, Dropout is dropped at
    // inference, and the sequence ops have no ONNX form torch writes that maps to them yet.
    const std::set<std::string> expected = {"Input", "Conv1d", "BatchNorm1d", "Dropout", "Embedding", "SiLU",
                                            "PositionalEmbedding", "MultiheadAttention", "TransformerEncoderLayer",
                                            "SequenceMean", "Permute", "Max", "Sum", "ChannelShuffle"};
    QCOMPARE(withoutImport, expected);
    QVERIFY(tw::engine::onnx_import::findMapper("Identity"));  // becomes no node
    QVERIFY(!tw::engine::onnx_import::findMapper("TopK"));
  }

  void opMatchesAnalysis_data() {
    QTest::addColumn<QString>("op");
    QTest::addColumn<QString>("yaml");
    QTest::addColumn<qint64>("indexRange");
    QTest::addColumn<bool>("known");
    for (const spec::OpDef &op : spec::Registry::instance().ops()) {
      auto it = defaultCases().find(op.name);
      if (it == defaultCases().end()) {
        QTest::newRow(op.name.c_str()) << QString::fromStdString(op.name) << QString() << qint64(0) << false;
      } else {
        addRow(op.name.c_str(), op.name, it->second);
      }
    }
    for (const auto &[name, row] : extraCases()) addRow(name.c_str(), row.first, row.second);
  }

  void opMatchesAnalysis() {
    QFETCH(QString, op);
    QFETCH(QString, yaml);
    QFETCH(qint64, indexRange);
    QFETCH(bool, known);
    if (!known) QFAIL(qPrintable("op " + op + " has no row in defaultCases(): add an input that suits it"));

    const spec::ModelSpec model = spec::parseModelYaml(yaml.toStdString(), "one_op.yaml");
    const spec::Analysis analysis = spec::analyze(model);
    QVERIFY2(analysis.ok(), spec::formatDiagnostics(analysis.diagnostics).c_str());
    const spec::NodeInfo *out = analysis.find(analysis.output);
    QVERIFY(out);
    QCOMPARE(QString::fromStdString(out->op), op);

    std::shared_ptr<engine::GraphModule> module = engine::buildModel(model, analysis);
    QCOMPARE(countParameters(*module), out->paramCount);
    QCOMPARE(countParameters(*module), analysis.totalParams);
    if (out->paramCount > 0) {
      // Parametrised nodes are registered under a valid name ('.' replaced).
      QCOMPARE(QString::fromStdString(module->moduleName(out->id)), QString("blk_n"));
      QVERIFY(module->named_modules().contains("blk_n"));
    }

    std::vector<torch::Tensor> inputs;
    for (const std::string &id : module->inputIds()) {
      const spec::NodeInfo *in = analysis.find(id);
      std::vector<int64_t> shape{kBatch};
      shape.insert(shape.end(), in->outputShape.begin(), in->outputShape.end());
      inputs.push_back(indexRange > 0 ? torch::randint(0, indexRange, shape, torch::kLong) : torch::randn(shape));
    }
    module->train();  // BatchNorm in training mode needs > 1 value per channel: the batch gives that
    torch::Tensor y = module->forward(inputs);
    std::vector<int64_t> expected{kBatch};
    expected.insert(expected.end(), out->outputShape.begin(), out->outputShape.end());
    QCOMPARE(QString::fromStdString(spec::formatShape(y.sizes().vec())),
             QString::fromStdString(spec::formatShape(expected)));
    QVERIFY(torch::isfinite(y).all().item<bool>());

    // Eval mode and no-grad give the same shape (Dropout, BatchNorm switch behaviour).
    module->eval();
    torch::NoGradGuard noGrad;
    QCOMPARE(module->forward(inputs).sizes().vec(), y.sizes().vec());
  }

  void dimensionOpsMatchLibTorch_data() {
    QTest::addColumn<QString>("node");
    QTest::newRow("Transpose") << "op: Transpose, dim0: 1, dim1: -1";
    QTest::newRow("Permute") << "op: Permute, dims: [3, 1, 2]";
    QTest::newRow("Permute torch form") << "op: Permute, dims: [0, -1, 2, 1]";
    QTest::newRow("Max") << "op: Max, dim: 2";
    QTest::newRow("Max keepdim") << "op: Max, dim: -1, keepdim: true";
    QTest::newRow("Mean") << "op: Mean, dim: 1";
    QTest::newRow("Sum keepdim") << "op: Sum, dim: -2, keepdim: true";
    QTest::newRow("ChannelShuffle") << "op: ChannelShuffle, groups: 2";
    QTest::newRow("Slice") << "op: Slice, dim: -2, start: 3, end: 7";
  }

  // Same values as LibTorch's own function, not only the same shape: a Permute that transposed
  // instead, or a Max that returned the indices, would pass the walk above.
  void dimensionOpsMatchLibTorch() {
    QFETCH(QString, node);
    const std::map<QString, std::function<torch::Tensor(const torch::Tensor &)>> expected = {
        {"Transpose", [](const torch::Tensor &x) { return x.transpose(1, 3); }},
        {"Permute", [](const torch::Tensor &x) { return x.permute({0, 3, 1, 2}); }},
        {"Permute torch form", [](const torch::Tensor &x) { return x.permute({0, 3, 2, 1}); }},
        {"Max", [](const torch::Tensor &x) { return std::get<0>(torch::max(x, 2)); }},
        {"Max keepdim", [](const torch::Tensor &x) { return torch::amax(x, {3}, true); }},
        {"Mean", [](const torch::Tensor &x) { return torch::mean(x, {1}); }},
        {"Sum keepdim", [](const torch::Tensor &x) { return torch::sum(x, {2}, true); }},
        {"ChannelShuffle", [](const torch::Tensor &x) { return torch::channel_shuffle(x, 2); }},
        {"Slice", [](const torch::Tensor &x) { return x.slice(2, 3, 7); }},
    };
    auto module = buildYaml("nodes:\n" + kImage + "  - {id: a, " + node.toStdString() + "}\n");
    const torch::Tensor x = torch::randn({kBatch, 4, 9, 9});
    const torch::Tensor want = expected.at(QString::fromLatin1(QTest::currentDataTag()))(x);
    const torch::Tensor got = module->forward(x);
    QCOMPARE(got.sizes().vec(), want.sizes().vec());
    QVERIFY(torch::allclose(got, want));
  }

  void wrongInputShapeNamesTheInput() {
    const auto model = spec::parseModelYaml("nodes:\n" + kFeatures + "  - {id: fc, op: Linear, out_features: 2}\n");
    auto module = engine::buildModel(model, spec::analyzeOrThrow(model));
    try {
      module->forward(torch::randn({2, 7}));
      QFAIL("a [2, 7] batch was accepted by a [6] input");
    } catch (const std::runtime_error &e) {
      QVERIFY2(QString(e.what()).contains("input 'x'"), e.what());
    }
  }

  void graphRunsADagWithASkipConnection() {
    // x -> fc1 -> relu -> fc2 (+ x) : the skip branch keeps x alive past fc1.
    const auto model = spec::parseModelYaml(
        "nodes:\n" + kFeatures +
        "  - {id: fc1, op: Linear, out_features: 6}\n"
        "  - {id: act, op: ReLU}\n"
        "  - {id: fc2, op: Linear, out_features: 6}\n"
        "  - {id: sum, op: Add, inputs: [fc2, x]}\n");
    auto module = engine::buildModel(model, spec::analyzeOrThrow(model));
    torch::Tensor x = torch::randn({3, 6});
    auto named = module->named_modules();
    auto fc1 = named["fc1"]->as<torch::nn::Linear>();
    auto fc2 = named["fc2"]->as<torch::nn::Linear>();
    QVERIFY(fc1 && fc2);
    torch::Tensor expected = fc2->forward(torch::relu(fc1->forward(x))) + x;
    QVERIFY(torch::allclose(module->forward(x), expected));
    QCOMPARE(countParameters(*module), int64_t(2 * (36 + 6)));
  }

  void attentionKeepsSamplesApart_data() {
    QTest::addColumn<QString>("node");
    QTest::newRow("MultiheadAttention") << "op: MultiheadAttention, num_heads: 3";
    QTest::newRow("TransformerEncoderLayer") << "op: TransformerEncoderLayer, nhead: 3, dim_feedforward: 20";
  }

  // Attention runs along each sample's positions, never across the batch: a sample alone gives
  // what it gave inside the batch, and changing one position changes the others' outputs.
  void attentionKeepsSamplesApart() {
    QFETCH(QString, node);
    auto module = buildYaml(sequenceModel(node));
    module->eval();
    torch::NoGradGuard noGrad;
    const torch::Tensor x = torch::randn({kBatch, 5, 12});
    const torch::Tensor y = module->forward(x);
    QCOMPARE(y.sizes().vec(), x.sizes().vec());
    for (int64_t i = 0; i < kBatch; ++i) {
      const torch::Tensor alone = module->forward(x.slice(0, i, i + 1));
      QVERIFY2(torch::allclose(alone[0], y[i], 1e-4, 1e-5), qPrintable(QString("sample %1").arg(i)));
    }
    torch::Tensor changed = x.clone();
    changed.select(1, 0).add_(1.0);
    QVERIFY(!torch::allclose(module->forward(changed).slice(1, 1), y.slice(1, 1)));
  }

  void causalAttentionSeesOnlyEarlierPositions_data() {
    QTest::addColumn<QString>("node");
    QTest::newRow("MultiheadAttention") << "op: MultiheadAttention, num_heads: 3, causal: true";
    QTest::newRow("TransformerEncoderLayer")
        << "op: TransformerEncoderLayer, nhead: 3, dim_feedforward: 20, dropout: 0.0, causal: true";
  }

  // With `causal`, changing position 3 leaves positions 0..2 exactly as they were and changes
  // position 3 onwards: what a next-token model needs so that no position sees its target.
  void causalAttentionSeesOnlyEarlierPositions() {
    QFETCH(QString, node);
    auto module = buildYaml(sequenceModel(node));
    module->eval();
    torch::NoGradGuard noGrad;
    const torch::Tensor x = torch::randn({kBatch, 5, 12});
    const torch::Tensor y = module->forward(x);
    torch::Tensor changed = x.clone();
    changed.select(1, 3).add_(1.0);
    const torch::Tensor z = module->forward(changed);
    QVERIFY(torch::allclose(z.slice(1, 0, 3), y.slice(1, 0, 3), 0.0, 1e-6));
    QVERIFY(!torch::allclose(z.slice(1, 3), y.slice(1, 3)));
  }

  void dropoutFollowsTrainAndEvalMode_data() {
    QTest::addColumn<QString>("node");
    QTest::newRow("MultiheadAttention") << "op: MultiheadAttention, num_heads: 2, dropout: 0.5";
    QTest::newRow("TransformerEncoderLayer")
        << "op: TransformerEncoderLayer, nhead: 2, dim_feedforward: 16, dropout: 0.5";
  }

  void dropoutFollowsTrainAndEvalMode() {
    QFETCH(QString, node);
    auto module = buildYaml(sequenceModel(node));
    torch::NoGradGuard noGrad;
    const torch::Tensor x = torch::randn({kBatch, 5, 12});
    module->train();
    QVERIFY(!torch::equal(module->forward(x), module->forward(x)));
    module->eval();
    QVERIFY(torch::equal(module->forward(x), module->forward(x)));
  }

  // The example (the Design page's transformer template) on real Fashion-MNIST: the optimiser
  // reaches every weight, the loss falls within a few steps, and a checkpoint restores the weights.
  void transformerExampleLearnsAndCheckpoints() {
    const auto model = spec::parseModelFile(TW_SOURCE_DIR "/resources/examples/fashion_transformer.model.yaml");
    const spec::Analysis analysis = spec::analyzeOrThrow(model);
    torch::manual_seed(11);
    auto module = engine::buildModel(model, analysis);
    QCOMPARE(engine::countParameters(*module), analysis.totalParams);
    const auto names = module->named_parameters().keys();
    for (const char *name : {"position.weight", "encoder1.self_attn.in_proj_weight", "encoder2.linear2.weight"})
      QVERIFY2(std::find(names.begin(), names.end(), name) != names.end(), name);

    config::DataOptions o;
    o.path = TW_FASHION_MNIST_DIR;
    o.trainLimit = 360;
    o.testLimit = 10;
    const engine::Dataset data = engine::loadDataset(o, 5);
    const int64_t batch = 32, batches = data.train.size() / batch, epochs = 3;
    torch::optim::Adam optimizer(module->parameters(), torch::optim::AdamOptions(2e-3));
    module->train();
    double first = 0.0, lastEpoch = 0.0;
    for (int64_t epoch = 0; epoch < epochs; ++epoch) {
      lastEpoch = 0.0;
      for (int64_t b = 0; b < batches; ++b) {
        const torch::Tensor x = data.train.inputs.slice(0, b * batch, (b + 1) * batch);
        const torch::Tensor t = data.train.targets.slice(0, b * batch, (b + 1) * batch);
        optimizer.zero_grad();
        const torch::Tensor loss = torch::cross_entropy_loss(module->forward(x), t);
        loss.backward();
        if (epoch == 0 && b == 0) {
          first = loss.item<double>();
          for (const auto &p : module->named_parameters())
            QVERIFY2(p.value().grad().defined() && p.value().grad().abs().sum().item<double>() > 0, p.key().c_str());
        }
        optimizer.step();
        lastEpoch += loss.item<double>() / double(batches);
      }
    }
    qInfo("loss %.3f -> %.3f over %lld steps", first, lastEpoch, (long long)(epochs * batches));
    QVERIFY2(lastEpoch < 0.8 * first, qPrintable(QString("%1 -> %2").arg(first).arg(lastEpoch)));

    QTemporaryDir dir;
    const std::string path = dir.path().toStdString() + "/last.pt";
    engine::TrainProgress progress;
    progress.step = epochs * batches;
    engine::saveCheckpoint(path, *module, optimizer, progress);
    torch::manual_seed(12);
    auto restored = engine::buildModel(model, analysis);
    torch::optim::Adam restoredOptimizer(restored->parameters(), torch::optim::AdamOptions(2e-3));
    QVERIFY(engine::weightsDigest(*restored) != engine::weightsDigest(*module));
    QCOMPARE(engine::loadCheckpoint(path, *restored, restoredOptimizer).step, progress.step);
    QCOMPARE(engine::weightsDigest(*restored), engine::weightsDigest(*module));
    module->eval();
    restored->eval();
    torch::NoGradGuard noGrad;
    const torch::Tensor x = data.train.inputs.slice(0, 0, kBatch);
    QVERIFY(torch::equal(module->forward(x), restored->forward(x)));
  }

  void channelsLastChangesLayoutNotResults() {
    // The same weights, contiguous and channels-last: the same outputs (to float rounding), the
    // same Flatten order, and after one SGD step the same weights; every 4-D weight, the
    // one-channel first convolution included, really laid out NHWC.
    const auto model = spec::parseModelYaml(
        "nodes:\n  - {id: x, op: Input, shape: [1, 8, 8]}\n"
        "  - {id: conv1, op: Conv2d, out_channels: 6, kernel_size: 3, padding: 1}\n"
        "  - {id: bn, op: BatchNorm2d}\n  - {id: act, op: ReLU}\n  - {id: pool, op: MaxPool2d, kernel_size: 2}\n"
        "  - {id: conv2, op: Conv2d, out_channels: 4, kernel_size: 3}\n"
        "  - {id: flat, op: Flatten}\n  - {id: fc, op: Linear, out_features: 3}\n");
    const spec::Analysis analysis = spec::analyzeOrThrow(model);
    QVERIFY(spec::hasConvolution(model, 2));
    auto plain = engine::buildModel(model, analysis), nhwc = engine::buildModel(model, analysis);
    copyParameters(*plain, *nhwc);
    const torch::Tensor firstWeight = nhwc->named_parameters()["conv1.weight"];
    engine::toChannelsLast(*nhwc);
    nhwc->setChannelsLastInputs(true);
    // The parameter object survives (the optimiser holds it), only its layout changed.
    QVERIFY(nhwc->named_parameters()["conv1.weight"].is_same(firstWeight));
    for (const auto &item : nhwc->named_parameters()) {
      if (item.value().dim() != 4) continue;
      QVERIFY2(item.value().suggest_memory_format() == at::MemoryFormat::ChannelsLast, item.key().c_str());
      QCOMPARE(item.value().stride(1), int64_t(1));
    }
    const torch::Tensor single = engine::asChannelsLast(torch::randn({2, 1, 5, 5}));
    QCOMPARE(single.stride(1), int64_t(1));

    torch::Tensor x = torch::randn({5, 1, 8, 8}), y = torch::randint(0, 3, {5});
    QVERIFY(torch::allclose(plain->forward(x), nhwc->forward(x), 1e-5, 1e-6));
    // SGD, not Adam: a convolution bias before batch norm gets a gradient of rounding noise, which
    // Adam's normalisation would blow up to a full step of either sign.
    config::TrainOptions sgd;
    sgd.optimizer = "sgd";
    auto plainOpt = engine::makeOptimizer(plain->parameters(), sgd);
    auto nhwcOpt = engine::makeOptimizer(nhwc->parameters(), sgd);
    for (auto [module, optimizer] : {std::pair{plain.get(), plainOpt.get()}, std::pair{nhwc.get(), nhwcOpt.get()}}) {
      engine::releaseGradients(*optimizer);
      torch::nn::functional::cross_entropy(module->forward(x), y).backward();
      optimizer->step();
    }
    auto a = plain->named_parameters(), b = nhwc->named_parameters();
    for (const auto &item : a)
      QVERIFY2(torch::allclose(item.value(), b[item.key()], 1e-5, 1e-6), item.key().c_str());
  }

  void memoryFormatOption() {
    QVERIFY(engine::useChannelsLast("auto", true, torch::kCPU));
    QVERIFY(!engine::useChannelsLast("auto", false, torch::kCPU));
    QVERIFY(!engine::useChannelsLast("contiguous", true, torch::kCPU));
    QVERIFY(engine::useChannelsLast("channels_last", false, torch::kCPU));
    try {
      engine::useChannelsLast("nhwc", true, torch::kCPU);
      QFAIL("an unknown layout was accepted");
    } catch (const std::runtime_error &e) {
      QVERIFY2(QString(e.what()).contains("train.memory_format"), e.what());
    }
  }

  void releasedGradientsMatchZeroedOnes() {
    // set_to_none: the step is bit for bit the one zeroed gradients give, and a second backward
    // within the group still accumulates.
    const auto model = spec::parseModelYaml("nodes:\n" + kFeatures + "  - {id: fc, op: Linear, out_features: 3}\n");
    const spec::Analysis analysis = spec::analyzeOrThrow(model);
    auto a = engine::buildModel(model, analysis), b = engine::buildModel(model, analysis);
    copyParameters(*a, *b);
    config::TrainOptions sgd;
    sgd.optimizer = "sgd";
    auto optA = engine::makeOptimizer(a->parameters(), sgd), optB = engine::makeOptimizer(b->parameters(), sgd);
    const torch::Tensor x = torch::randn({4, 6}), y = torch::randint(0, 3, {4});
    for (int step = 0; step < 3; ++step) {
      optA->zero_grad();
      engine::releaseGradients(*optB);
      for (const auto &p : b->parameters()) QVERIFY(!p.grad().defined());
      for (int micro = 0; micro < 2; ++micro) {
        torch::nn::functional::cross_entropy(a->forward(x), y).backward();
        torch::nn::functional::cross_entropy(b->forward(x), y).backward();
      }
      optA->step();
      optB->step();
    }
    auto pa = a->parameters(), pb = b->parameters();
    for (size_t i = 0; i < pa.size(); ++i) QVERIFY(torch::equal(pa[i], pb[i]));
  }

  void libraryVersionsNameLibTorch() {
    const QString v = QString::fromStdString(engine::libraryVersions());
    QVERIFY2(v.startsWith("torchwright=") && v.contains(" libtorch=1.13."), qPrintable(v));
    QVERIFY2(v.contains(" compiler="), qPrintable(v));
  }
};

QTEST_GUILESS_MAIN(TestRegistryTorch)
#include "test_registry_torch.moc"
