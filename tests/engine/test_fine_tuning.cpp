// Fine-tuning keys on real models: a frozen node's parameters and BatchNorm statistics stay as
// they were while the rest trains, each lr_factor becomes its own optimiser group whose step is
// the factor times the plain one, and a run with a frozen backbone stopped mid-epoch resumes
// bit-identical; a model frozen whole is refused with a message. Starting weights (init_from):
// another run's checkpoint or a PyTorch state_dict written by python3-torch, taken by name where
// shapes match, the rest listed; a file of another architecture refused.
#include "core/data/shape_images.h"
#include "core/engine/model_builder.h"
#include "core/engine/optimizer_factory.h"
#include "core/engine/trainer.h"
#include "core/engine/weight_transfer.h"
#include "core/config/unfreeze.h"
#include "core/spec/analysis.h"
#include "train_helpers.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <string>

using namespace tw;

namespace {

const char *kCnn = "nodes:\n"
                   "  - {id: x, op: Input, shape: [3, 12, 12]}\n"
                   "  - {id: c, op: Conv2d, out_channels: 4, kernel_size: 3, padding: 1, trainable: false}\n"
                   "  - {id: bn, op: BatchNorm2d, trainable: false}\n"
                   "  - {id: r, op: ReLU}\n  - {id: p, op: MaxPool2d, kernel_size: 2}\n  - {id: f, op: Flatten}\n"
                   "  - {id: h, op: Linear, out_features: 8, lr_factor: 0.5}\n"
                   "  - {id: out, op: Linear, out_features: 3}\n";

std::shared_ptr<engine::GraphModule> build(const std::string &yaml) {
  const spec::ModelSpec s = spec::parseModelYaml(yaml);
  return engine::buildModel(s, spec::analyzeOrThrow(s));
}

torch::Tensor named(engine::GraphModule &m, const std::string &name) {
  for (const auto &item : m.named_parameters())
    if (item.key() == name) return item.value();
  for (const auto &item : m.named_buffers())
    if (item.key() == name) return item.value();
  return {};
}

torch::Tensor fileTensor(const engine::NamedTensors &file, const std::string &name) {
  for (const auto &[key, tensor] : file)
    if (key == name) return tensor;
  return {};
}

// Runs python3-torch (a peer the test tools install) on a script; its stdout.
QString python(const QString &script) {
  QProcess p;
  p.start("/usr/bin/python3", {"-c", script});
  if (!p.waitForFinished(120000) || p.exitCode() != 0) qFatal("python3-torch failed: %s", p.readAllStandardError().constData());
  return QString::fromUtf8(p.readAllStandardOutput()).trimmed();
}

}  // namespace

class TestFineTuning : public QObject {
  Q_OBJECT
  QTemporaryDir m_tmp;

  // kCnn on a fresh folder of drawn shapes (3 classes, 12x12), batches of 10, one thread.
  config::RunConfig shapesRun(const std::string &folder, int perClass) {
    const std::string dir = m_tmp.path().toStdString() + "/" + folder;
    data::ShapeImageOptions shapes;
    shapes.perClass = perClass;
    shapes.size = 12;
    data::writeShapeImages(dir, shapes);
    config::RunConfig c;
    c.modelYaml = kCnn;
    c.data.dataset = "image-folder";
    c.data.path = dir;
    c.data.batchSize = 10;
    c.train.threads = 1;
    return c;
  }

 private Q_SLOTS:
  void frozenNodesKeepWeightsAndStatistics() {
    torch::manual_seed(5);
    auto model = build(kCnn);
    const std::vector<engine::ParameterGroup> groups = model->parameterGroups();
    QCOMPARE(int(groups.size()), 2);  // h at 0.5 first, then out at 1
    QCOMPARE(groups[0].lrFactor, 0.5);
    QCOMPARE(groups[1].lrFactor, 1.0);
    QCOMPARE(int(model->trainableParameters().size()), 4);
    const std::vector<std::string> frozen{"c.weight", "c.bias", "bn.weight", "bn.bias", "bn.running_mean",
                                          "bn.running_var"};
    std::vector<torch::Tensor> before;
    for (const std::string &name : frozen) before.push_back(named(*model, name).clone());
    const torch::Tensor headBefore = named(*model, "out.weight").clone();
    QVERIFY(!named(*model, "c.weight").requires_grad());

    config::TrainOptions t;
    t.optimizer = "adam";
    t.lr = 0.01;
    auto optimizer = engine::makeOptimizer(groups, t);
    model->train();
    for (int step = 0; step < 3; ++step) {
      optimizer->zero_grad();
      const torch::Tensor x = torch::randn({6, 3, 12, 12}) * 3 + 1;  // far from the stored statistics
      torch::nn::functional::cross_entropy(model->forward(x), torch::tensor({0, 1, 2, 0, 1, 2})).backward();
      optimizer->step();
    }
    for (size_t i = 0; i < frozen.size(); ++i)
      QVERIFY2(torch::equal(named(*model, frozen[i]), before[i]), frozen[i].c_str());
    QVERIFY(!torch::equal(named(*model, "out.weight"), headBefore));
    QVERIFY(model->is_training());
  }

  void lrFactorScalesTheStep() {
    const auto step = [](const std::string &yaml) {
      torch::manual_seed(9);
      auto model = build(yaml);
      config::TrainOptions t;
      t.optimizer = "sgd";
      t.momentum = 0.0;
      t.lr = 0.1;
      auto optimizer = engine::makeOptimizer(model->parameterGroups(), t);
      const torch::Tensor before = named(*model, "h.weight").clone();
      torch::manual_seed(1);
      const torch::Tensor x = torch::randn({4, 6});
      model->forward(x).pow(2).sum().backward();
      optimizer->step();
      return std::make_pair(named(*model, "h.weight") - before, std::move(optimizer));
    };
    const std::string plain = "nodes:\n  - {id: x, op: Input, shape: [6]}\n  - {id: h, op: Linear, out_features: 5}\n"
                              "  - {id: out, op: Linear, out_features: 2}\n";
    std::string scaled = plain;
    scaled.replace(scaled.find("out_features: 5}"), 16, "out_features: 5, lr_factor: 0.25}");
    auto [full, fullOpt] = step(plain);
    auto [quarter, quarterOpt] = step(scaled);
    QVERIFY(full.abs().max().item<double>() > 0);
    // The steps are differences of float32 weights near 0.4: rounding leaves about 3e-8 of noise.
    QVERIFY(torch::allclose(quarter, full * 0.25, 1e-4, 1e-6));
    QVERIFY(!torch::allclose(quarter, full, 1e-4, 1e-6));
    QCOMPARE(int(fullOpt->param_groups().size()), 1);
    QCOMPARE(int(quarterOpt->param_groups().size()), 2);
    // A schedule sets the base rate; each group keeps its factor.
    engine::setLearningRate(*quarterOpt, 0.2, {0.25, 1.0});
    QCOMPARE(quarterOpt->param_groups()[0].options().get_lr(), 0.05);
    QCOMPARE(quarterOpt->param_groups()[1].options().get_lr(), 0.2);
  }

  void frozenBackboneResumesMidEpochExactly() {
    config::RunConfig c = shapesRun("shapes", 12);
    c.train.optimizer = "sgd";
    c.train.momentum = 0.9;
    c.train.lr = 0.05;
    c.train.epochs = 3;
    c.train.seed = 4;
    engine::TrainEnvironment straightEnv;
    straightEnv.runDir = m_tmp.path().toStdString() + "/straight";
    const engine::TrainSummary straight = engine::train(c, nullptr, {}, straightEnv);

    engine::TrainEnvironment env;
    env.runDir = m_tmp.path().toStdString() + "/stopped";
    engine::TrainCallbacks stopAt5 = testing::stopAfterPolls(5);
    QVERIFY(engine::train(c, nullptr, stopAt5, env).stopped);
    env.resume = true;
    const engine::TrainSummary resumed = engine::train(c, nullptr, {}, env);
    QVERIFY(resumed.resumedFromStep > 3 && resumed.resumedFromStep < 6);
    QCOMPARE(resumed.weightsDigest, straight.weightsDigest);

    // Frozen whole: refused, not trained as a no-op.
    std::string all = kCnn;
    for (const char *node : {"lr_factor: 0.5}", "out_features: 3}"}) {
      const size_t at = all.find(node);
      all.replace(at, std::string(node).size(), std::string(node).substr(0, std::string(node).size() - 1) +
                                                      ", trainable: false}");
    }
    c.modelYaml = all;
    const std::string error = testing::errorOf(c);
    QVERIFY2(error.find("every node with parameters is frozen (trainable: false)") != std::string::npos, error.c_str());
  }

  // train.unfreeze: the frozen convolution trains from epoch 2 on, as a group of its own whose
  // rate warms up; a run stopped before the step and one stopped after it both resume
  // bit-identical, rebuilding the same optimiser groups.
  void unfreezingTrainsFromItsEpochAndResumesExactly() {
    config::RunConfig c = shapesRun("shapes-unfreeze", 12);
    c.train.optimizer = "adam";
    c.train.lr = 0.01;
    c.train.epochs = 1;
    // One epoch with the convolution frozen: its weights as the seed made them.
    engine::TrainEnvironment firstEnv;
    firstEnv.runDir = m_tmp.path().toStdString() + "/u-first";
    engine::train(c, nullptr, {}, firstEnv);
    const engine::NamedTensors initial = engine::readWeightsFile(firstEnv.runDir + "/checkpoints/last.pt");

    c.train.epochs = 3;
    c.train.unfreeze = {"2:c+bn"};
    engine::TrainEnvironment straightEnv;
    straightEnv.runDir = m_tmp.path().toStdString() + "/u-straight";
    const engine::TrainSummary straight = engine::train(c, nullptr, {}, straightEnv);
    const engine::NamedTensors trained = engine::readWeightsFile(straightEnv.runDir + "/checkpoints/last.pt");
    QVERIFY2(!torch::equal(fileTensor(initial, "c.weight"), fileTensor(trained, "c.weight")), "c did not train after epoch 2");
    QVERIFY(!torch::equal(fileTensor(initial, "bn.running_mean"), fileTensor(trained, "bn.running_mean")));
    const int64_t perEpoch = straight.steps / 3;
    QVERIFY(perEpoch >= 2);

    for (const int64_t stopAfter : {perEpoch / 2, perEpoch + perEpoch / 2 + 1}) {
      engine::TrainEnvironment env;
      env.runDir = m_tmp.path().toStdString() + "/u-stopped-" + std::to_string(stopAfter);
      engine::TrainCallbacks stop = testing::stopAfterPolls(stopAfter);
      QVERIFY(engine::train(c, nullptr, stop, env).stopped);
      if (stopAfter < perEpoch)  // still frozen in epoch 1
        QVERIFY(torch::equal(fileTensor(initial, "c.weight"),
                             fileTensor(engine::readWeightsFile(env.runDir + "/checkpoints/last.pt"), "c.weight")));
      env.resume = true;
      const engine::TrainSummary resumed = engine::train(c, nullptr, {}, env);
      QVERIFY(resumed.resumedFromStep > 0);
      QCOMPARE(resumed.weightsDigest, straight.weightsDigest);
    }

    // The warm-up: a group unfrozen at step 10 over 4 steps takes 1/4, 2/4, ... of its rate.
    QCOMPARE(config::unfreezeWarmup(10, 10, 4), 0.25);
    QCOMPARE(config::unfreezeWarmup(12, 10, 4), 0.75);
    QCOMPARE(config::unfreezeWarmup(20, 10, 4), 1.0);
  }

  // A pretrained run's checkpoint starts a run with another head: the backbone takes its weights
  // and, frozen, ends the run with exactly them; the resized layers start from the seed.
  void startsFromAnotherRunsCheckpoint() {
    config::RunConfig c = shapesRun("shapes-init", 10);
    std::string unfrozen = kCnn;
    for (const char *key : {", trainable: false}", ", trainable: false}"}) unfrozen.replace(unfrozen.find(key), std::string(key).size(), "}");
    c.modelYaml = unfrozen;
    c.train.epochs = 2;
    engine::TrainEnvironment pretrainEnv;
    pretrainEnv.runDir = m_tmp.path().toStdString() + "/pretrain";
    engine::train(c, nullptr, {}, pretrainEnv);
    const std::string pretrained = pretrainEnv.runDir + "/checkpoints/last.pt";

    std::string resized = kCnn;  // the hidden layer 8 -> 6 wide: h and out's weight change shape
    resized.replace(resized.find("out_features: 8"), 15, "out_features: 6");
    c.modelYaml = resized;
    c.train.initFrom = pretrained;
    c.train.seed = 11;
    engine::TrainEnvironment env;
    env.runDir = m_tmp.path().toStdString() + "/tuned";
    engine::TrainCallbacks callbacks;
    std::string table, json;
    callbacks.onWeightsTaken = [&](const std::string &source, const std::string &file, const engine::WeightTransfer &plan) {
      QCOMPARE(file, pretrained);
      table = plan.table(source);
      json = plan.json(source, file);
      QCOMPARE(plan.count(engine::WeightMatch::Kind::Taken), int64_t(8));  // c 2, bn 5, out.bias
      QCOMPARE(plan.count(engine::WeightMatch::Kind::ShapeMismatch), int64_t(3));
      QCOMPARE(plan.count(engine::WeightMatch::Kind::Missing), int64_t(0));
    };
    engine::train(c, nullptr, callbacks, env);
    QVERIFY2(table.find("shape mismatch  h.weight: model [6, 144], file [8, 144] (starts from the seed)") != std::string::npos,
             table.c_str());
    QVERIFY2(json.find("{\"name\":\"out.bias\",\"status\":\"taken\"") != std::string::npos, json.c_str());

    const engine::NamedTensors before = engine::readWeightsFile(pretrained);
    const engine::NamedTensors after = engine::readWeightsFile(env.runDir + "/checkpoints/last.pt");
    for (const char *name : {"c.weight", "c.bias", "bn.weight", "bn.running_mean", "bn.running_var"})
      QVERIFY2(torch::equal(fileTensor(before, name), fileTensor(after, name)), name);
    QVERIFY(!torch::equal(fileTensor(before, "out.bias"), fileTensor(after, "out.bias")));  // it trained on
  }

  // A state_dict from PyTorch, by the names its modules give (a Sequential's "features.0"), bare
  // or wrapped in a training script's checkpoint dict; a file of another architecture refused.
  void readsAPyTorchStateDict() {
    const QString file = m_tmp.path() + "/state.pt", wrapped = m_tmp.path() + "/wrapped.pt";
    const QString probe = python(QStringLiteral(
        "import torch\n"
        "torch.manual_seed(3)\n"
        "class M(torch.nn.Module):\n"
        "  def __init__(self):\n"
        "    super().__init__()\n"
        "    self.features = torch.nn.Sequential(torch.nn.Linear(6, 5), torch.nn.ReLU())\n"
        "    self.out = torch.nn.Linear(5, 2)\n"
        "m = M()\n"
        "torch.save(m.state_dict(), '%1')\n"
        "torch.save({'epoch': 3, 'state_dict': m.state_dict()}, '%2')\n"
        "print(repr(m.features[0].weight[1, 2].item()), repr(m.out.bias[1].item()))\n").arg(file, wrapped));
    const QStringList values = probe.split(' ');
    QCOMPARE(values.size(), 2);
    const std::string yaml = "nodes:\n  - {id: x, op: Input, shape: [6]}\n  - {id: features.0, op: Linear, out_features: 5}\n"
                             "  - {id: r, op: ReLU}\n  - {id: out, op: Linear, out_features: 2}\n";
    for (const QString &path : {file, wrapped}) {
      auto model = build(yaml);
      const engine::NamedTensors tensors = engine::readWeightsFile(path.toStdString());
      const engine::WeightTransfer plan = engine::planWeightTransfer(*model, tensors);
      QCOMPARE(plan.count(engine::WeightMatch::Kind::Taken), int64_t(4));
      QCOMPARE(plan.count(engine::WeightMatch::Kind::Unexpected), int64_t(0));
      engine::applyWeightTransfer(*model, tensors, plan, path.toStdString());
      QCOMPARE(named(*model, "features_0.weight")[1][2].item<float>(), values[0].toFloat());
      QCOMPARE(named(*model, "out.bias")[1].item<float>(), values[1].toFloat());
    }

    auto other = build("nodes:\n  - {id: x, op: Input, shape: [6]}\n  - {id: q, op: Linear, out_features: 2}\n");
    const engine::NamedTensors tensors = engine::readWeightsFile(file.toStdString());
    const engine::WeightTransfer plan = engine::planWeightTransfer(*other, tensors);
    QCOMPARE(plan.count(engine::WeightMatch::Kind::Missing), int64_t(2));
    QCOMPARE(plan.count(engine::WeightMatch::Kind::Unexpected), int64_t(4));
    try {
      engine::applyWeightTransfer(*other, tensors, plan, "state.pt");
      QFAIL("a file of another architecture was taken");
    } catch (const std::exception &e) {
      QVERIFY2(std::string(e.what()).find("none of the model's 2 tensors matches the file's 4") != std::string::npos, e.what());
      QVERIFY2(std::string(e.what()).find("features.0.weight") != std::string::npos, e.what());
    }

    QFile junk(m_tmp.path() + "/junk.pt");
    QVERIFY(junk.open(QIODevice::WriteOnly));
    junk.write("not a weights file");
    junk.close();
    try {
      engine::readWeightsFile(junk.fileName().toStdString());
      QFAIL("junk read as weights");
    } catch (const std::exception &e) {
      QVERIFY2(std::string(e.what()).find("neither a Torchwright checkpoint nor a PyTorch state_dict") != std::string::npos,
               e.what());
    }
  }
};

QTEST_GUILESS_MAIN(TestFineTuning)
#include "test_fine_tuning.moc"
