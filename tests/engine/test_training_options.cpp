// Training options and data sources end to end on real data: every optimiser and schedule
// learns, gradient accumulation equals a larger batch, clipping clips, bf16 trains, early
// stopping stops, checkpoints and reports land in the run folder, and CSV tables, image folders
// and synthetic sets (spirals, token sequences) train to the accuracy their difficulty allows.
#include "core/config/run_config.h"
#include "core/data/shape_images.h"
#include "train_helpers.h"
#include "core/engine/dataset.h"
#include "core/engine/evaluation.h"
#include "core/engine/trainer.h"
#include "tracking/metric_writer.h"
#include "tracking/store.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>

using namespace tw;
namespace fs = std::filesystem;

namespace {

const char *kMlp = R"(name: mlp
nodes:
  - {id: image, op: Input, shape: [1, 28, 28]}
  - {id: flat, op: Flatten}
  - {id: fc1, op: Linear, out_features: 64}
  - {id: act1, op: ReLU}
  - {id: logits, op: Linear, out_features: 10}
)";

config::RunConfig fashion(int64_t trainLimit = 2000) {
  config::RunConfig c;
  c.modelYaml = kMlp;
  c.data.path = TW_FASHION_MNIST_DIR;
  c.data.trainLimit = trainLimit;
  c.data.testLimit = 500;
  c.data.valFraction = 0.1;
  c.data.batchSize = 64;
  c.train.epochs = 2;
  c.train.seed = 5;
  c.train.threads = 1;
  return c;
}

using tw::testing::errorOf;
using tw::testing::trainTracked;

void writeFile(const std::string &path, const std::string &text) { std::ofstream(path) << text; }

}  // namespace

class TestTrainingOptions : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void everyOptimiserAndScheduleLearns_data() {
    QTest::addColumn<QString>("optimizer");
    QTest::addColumn<QString>("schedule");
    QTest::addColumn<double>("lr");
    QTest::newRow("sgd nesterov, step") << "sgd" << "step" << 0.05;
    QTest::newRow("adam, cosine with warm-up") << "adam" << "cosine" << 0.002;
    QTest::newRow("adamw, onecycle") << "adamw" << "onecycle" << 0.003;
    QTest::newRow("rmsprop, exponential") << "rmsprop" << "exponential" << 0.001;
    QTest::newRow("sgd, multistep") << "sgd" << "multistep" << 0.05;
    QTest::newRow("adam, plateau") << "adam" << "plateau" << 0.002;
  }

  void everyOptimiserAndScheduleLearns() {
    QFETCH(QString, optimizer);
    QFETCH(QString, schedule);
    QFETCH(double, lr);
    config::RunConfig c = fashion(1500);
    c.train.optimizer = optimizer.toStdString();
    c.train.schedule = schedule.toStdString();
    c.train.lr = lr;
    c.train.nesterov = optimizer == "sgd";
    c.train.milestones = {1};
    c.train.stepSize = 1;
    c.train.warmupSteps = schedule == "cosine" ? 5 : 0;
    c.train.momentum = optimizer == "rmsprop" ? 0.0 : 0.9;
    auto t = trainTracked(c);
    QVERIFY2(t->summary.trainLoss < 1.2, qPrintable(QString::number(t->summary.trainLoss)));
    QVERIFY2(t->summary.testAccuracy > 0.6, qPrintable(QString::number(t->summary.testAccuracy)));
    const auto lrs = t->points("train/lr");
    QCOMPARE(int64_t(lrs.size()), t->summary.steps);
    if (schedule == "cosine") {
      QVERIFY(lrs.front().value < lr / 4);                   // warming up
      QVERIFY(lrs.back().value < lrs[lrs.size() / 2].value);  // annealing
    }
    if (schedule == "step" || schedule == "exponential" || schedule == "multistep")
      QVERIFY2(lrs.back().value < lrs.front().value, qPrintable(QString::number(lrs.back().value)));
  }

  void accumulationEqualsALargerBatch() {
    config::RunConfig c = fashion(640);
    c.data.valFraction = 0.0;
    c.data.shuffle = false;
    c.train.optimizer = "sgd";
    c.train.momentum = 0.0;
    c.train.lr = 0.05;
    c.train.epochs = 1;
    auto whole = trainTracked(c);
    c.data.batchSize = 32;
    c.train.accumulate = 2;
    auto halves = trainTracked(c);
    QCOMPARE(halves.get()->summary.steps, whole->summary.steps);  // 10 optimiser steps each
    const auto a = whole->points("train/loss"), b = halves->points("train/loss");
    QCOMPARE(a.size(), size_t(10));
    QCOMPARE(b.size(), a.size());
    for (size_t i = 0; i < a.size(); ++i)
      QVERIFY2(std::abs(a[i].value - b[i].value) < 1e-5, qPrintable(QString("step %1: %2 vs %3").arg(i + 1).arg(a[i].value).arg(b[i].value)));
    QVERIFY(std::abs(whole->summary.testLoss - halves->summary.testLoss) < 1e-5);
  }

  void clippingHoldsTheStepsBack() {
    config::RunConfig c = fashion(1000);
    c.train.epochs = 1;
    c.train.optimizer = "sgd";
    c.train.lr = 0.1;
    auto free = trainTracked(c);
    c.train.clipNorm = 1e-4;
    auto clipped = trainTracked(c);
    QVERIFY2(clipped->summary.trainLoss > 2.0 && free->summary.trainLoss < clipped->summary.trainLoss - 0.5,
             qPrintable(QString("%1 vs %2").arg(clipped->summary.trainLoss).arg(free->summary.trainLoss)));
    // The logged norm is the one before clipping.
    QVERIFY(clipped->points("train/grad_norm").front().value > 1e-2);
    c.train.clipNorm = 0.0;
    c.train.clipValue = 1e-7;
    QVERIFY(trainTracked(c)->summary.trainLoss > 2.0);
  }

  // bf16 autocast computes the forward pass in bfloat16: from the same seed and initial weights,
  // the first steps' losses differ from fp32's (a run that ignored the setting would match fp32
  // bit for bit) yet stay close, and the run still learns.
  void bf16Trains() {
    config::RunConfig c = fashion(2000);
    auto fp32 = trainTracked(c);
    c.train.precision = "bf16";
    auto bf16 = trainTracked(c);
    QVERIFY2(bf16->summary.testAccuracy > 0.65, qPrintable(QString::number(bf16->summary.testAccuracy)));
    const auto a = fp32->points("train/loss"), b = bf16->points("train/loss");
    QCOMPARE(b.size(), a.size());
    QVERIFY(a.size() >= 10);
    for (size_t i = 0; i < 10; ++i) {
      const QString where = QStringLiteral("step %1: fp32 %2, bf16 %3").arg(a[i].step).arg(a[i].value, 0, 'g', 17).arg(
          b[i].value, 0, 'g', 17);
      QVERIFY2(a[i].value != b[i].value, qPrintable(where));
      // bfloat16 keeps 8 bits of mantissa: a relative error of a few 1e-3 per product.
      QVERIFY2(std::abs(a[i].value - b[i].value) < 0.05 * a[i].value, qPrintable(where));
    }
  }

  void earlyStoppingStopsAtPatience() {
    config::RunConfig c = fashion(1000);
    c.train.epochs = 6;
    c.train.patience = 2;
    c.train.minDelta = 1e9;  // nothing after the first epoch counts as better
    auto t = trainTracked(c);
    QVERIFY(t->summary.earlyStopped);
    QCOMPARE(t->summary.epochs, int64_t(3));
    QCOMPARE(t->summary.bestEpoch, int64_t(1));
    QCOMPARE(int(t->points("val/loss").size()), 3);
    QVERIFY(!t->points("test/accuracy").empty());  // the test set is still evaluated
  }

  void diagnosticsAndReportsAreRecorded() {
    config::RunConfig c = fashion(1000);
    c.train.monitor = "val/accuracy";
    auto t = trainTracked(c, /*withRunDir=*/true);
    const auto keys = t->store->metricKeys(t->runId);
    const std::set<std::string> k(keys.begin(), keys.end());
    for (const char *key : {"train/grad_norm", "train/data_wait", "val/top5_accuracy", "val/f1_macro",
                            "val/precision_weighted", "test/recall_macro", "weight_norm/fc1.weight",
                            "grad_norm/logits.bias"})
      QVERIFY2(k.count(key), key);
    QCOMPARE(int64_t(t->points("train/grad_norm").size()), t->summary.steps);
    // What train.monitor may name is exactly what the evaluation records.
    const auto names = engine::evaluationMetricNames(engine::Task::Classification, c.train.topK);
    std::set<std::string> recorded;
    for (const auto &key : keys)
      if (key.rfind("val/", 0) == 0) recorded.insert(key.substr(4));
    QCOMPARE(recorded, std::set<std::string>(names.begin(), names.end()));
    const double wait = t->points("train/data_wait").back().value;
    QVERIFY(wait >= 0.0 && wait < 1.0);
    QVERIFY(t->points("val/top5_accuracy").back().value >= t->points("val/accuracy").back().value);

    const fs::path run = t->dir.path().toStdString() + "/run";
    for (const char *file : {"checkpoints/last.pt", "checkpoints/best.pt", "artifacts/model.pt",
                             "artifacts/test_confusion_matrix.csv", "artifacts/test_class_report.csv"}) {
      QVERIFY2(fs::exists(run / file), file);
      QVERIFY2(std::count_if(t->artifacts.begin(), t->artifacts.end(), [&](auto &a) { return a.first == file; }) == 1, file);
    }
    // The confusion matrix counts every test image once, under Fashion-MNIST's class names.
    std::ifstream matrix(run / "artifacts/test_confusion_matrix.csv");
    std::string header, line;
    std::getline(matrix, header);
    QVERIFY2(header.find("T-shirt/top") != std::string::npos, header.c_str());
    int64_t total = 0;
    while (std::getline(matrix, line)) {
      std::stringstream cells(line.substr(line.find(',') + 1));
      for (std::string cell; std::getline(cells, cell, ',');) total += std::stoll(cell);
    }
    QCOMPARE(total, int64_t(500));
    QCOMPARE(t->summary.weightsDigest.size(), size_t(64));
  }

  void syntheticSpiralsAreLearned() {
    config::RunConfig c;
    c.modelYaml = "nodes:\n  - {id: x, op: Input, shape: [2]}\n  - {id: h1, op: Linear, out_features: 64}\n"
                  "  - {id: a1, op: Tanh}\n  - {id: h2, op: Linear, out_features: 64}\n  - {id: a2, op: Tanh}\n"
                  "  - {id: out, op: Linear, out_features: 3}\n";
    c.data.dataset = "spirals";
    c.data.samples = 1500;
    c.data.classes = 3;
    c.data.noise = 0.1;
    c.data.batchSize = 32;
    c.train.lr = 0.01;
    c.train.epochs = 40;
    c.train.threads = 1;
    const engine::TrainSummary s = engine::train(c, nullptr);
    QCOMPARE(s.trainSamples + s.valSamples + s.testSamples, int64_t(1500));
    QVERIFY2(s.testAccuracy > 0.9, qPrintable(QString::number(s.testAccuracy)));
  }

  // Token ids reach the model as they are (data.normalize is on by default and must not touch
  // them), and a bag of embeddings learns the counting rule well above chance (1/3).
  void syntheticTokensAreLearned() {
    config::RunConfig c;
    c.modelYaml = "nodes:\n  - {id: x, op: Input, shape: [12], dtype: int64}\n"
                  "  - {id: e, op: Embedding, num_embeddings: 20, embedding_dim: 16}\n"
                  "  - {id: pool, op: Mean, dim: 1}\n  - {id: out, op: Linear, out_features: 3}\n";
    c.data.dataset = "tokens";
    c.data.samples = 1500;
    c.data.classes = 3;
    c.data.seqLen = 12;
    c.data.vocabSize = 20;
    c.data.batchSize = 32;
    c.train.lr = 0.01;
    c.train.epochs = 15;
    c.train.threads = 1;
    QVERIFY(c.data.normalize);
    const engine::Dataset data = engine::loadDataset(c.data, c.train.seed);
    QCOMPARE(data.inputShape, std::vector<int64_t>{12});
    for (const engine::Split *split : {&data.train, &data.val, &data.test}) {
      QCOMPARE(split->inputs.size(1), int64_t(12));
      QVERIFY(torch::equal(split->inputs, split->inputs.round()));
      QVERIFY(split->inputs.min().item<float>() >= 0.0f && split->inputs.max().item<float>() <= 19.0f);
    }
    const engine::TrainSummary s = engine::train(c, nullptr);
    QCOMPARE(s.trainSamples + s.valSamples + s.testSamples, int64_t(1500));
    QVERIFY2(s.testAccuracy > 0.8, qPrintable(QString::number(s.testAccuracy)));
  }

  void csvClassificationAndRegression() {
    QTemporaryDir dir;
    std::string classification = "x,y,colour,label\n", regression = "a,b,kind,target\n";
    for (int i = 0; i < 600; ++i) {
      const double x = (i * 37 % 100) / 10.0, y = (i * 53 % 100) / 10.0;
      const char *colour = i % 3 == 0 ? "red" : i % 3 == 1 ? "green" : "blue";
      classification += std::to_string(x) + "," + (i % 50 == 0 ? "" : std::to_string(y)) + "," + colour + "," +
                        (x + y > 10 ? "high" : "low") + "\n";
      regression += std::to_string(x) + "," + std::to_string(y) + "," + colour + "," +
                    std::to_string(3 * x - 2 * y + (i % 3 == 0 ? 5 : 0)) + "\n";
    }
    const std::string cls = dir.path().toStdString() + "/cls.csv", reg = dir.path().toStdString() + "/reg.csv";
    writeFile(cls, classification);
    writeFile(reg, regression);

    config::RunConfig c;
    c.modelYaml = "nodes:\n  - {id: x, op: Input, shape: [5]}\n  - {id: h, op: Linear, out_features: 32}\n"
                  "  - {id: a, op: ReLU}\n  - {id: out, op: Linear, out_features: 2}\n";
    c.data.dataset = "csv";
    c.data.path = cls;
    c.data.target = "label";
    c.data.categorical = {"colour"};
    c.data.missing = "mean";
    c.data.batchSize = 32;
    c.train.lr = 0.01;
    c.train.epochs = 30;
    c.train.threads = 1;
    const engine::TrainSummary s = engine::train(c, nullptr);
    QVERIFY2(s.testAccuracy > 0.9, qPrintable(QString::number(s.testAccuracy)));

    c.data.path = reg;
    c.data.target = "target";
    c.data.categorical = {"kind"};
    c.data.task = "regression";
    c.data.missing = "error";
    c.train.loss = "mse";
    c.train.monitor = "val/r2";
    c.modelYaml = "nodes:\n  - {id: x, op: Input, shape: [5]}\n  - {id: h, op: Linear, out_features: 32}\n"
                  "  - {id: a, op: ReLU}\n  - {id: out, op: Linear, out_features: 1}\n";
    c.train.epochs = 60;
    const engine::TrainSummary r = engine::train(c, nullptr);
    QVERIFY(!r.classification);
    QVERIFY2(r.test.at("r2") > 0.95, qPrintable(QString::number(r.test.at("r2"))));

    // Bad input stops before training with the file and line.
    writeFile(cls, "x,y,colour,label\n1,2,red,high\n3,4,blue\n");
    c = config::RunConfig();
    c.modelYaml = "nodes:\n  - {id: x, op: Input, shape: [5]}\n  - {id: out, op: Linear, out_features: 2}\n";
    c.data.dataset = "csv";
    c.data.path = cls;
    c.data.target = "label";
    c.data.categorical = {"colour"};
    const std::string ragged = errorOf(c);
    QVERIFY2(ragged.find("loading data: " + cls + ":3") == 0, ragged.c_str());
    c.data.target.clear();
    QVERIFY2(errorOf(c).find("data.target") != std::string::npos, errorOf(c).c_str());
    c.data.target = "label";
    c.train.loss = "mse";
    writeFile(cls, classification);
    QVERIFY2(errorOf(c).find("regression loss") != std::string::npos, errorOf(c).c_str());
  }

  void imageFolderIsLearned() {
    QTemporaryDir dir;
    data::ShapeImageOptions shapes;
    shapes.perClass = 60;
    shapes.size = 16;
    shapes.colour = false;
    QCOMPARE(data::writeShapeImages(dir.path().toStdString(), shapes), int64_t(180));
    config::RunConfig c;
    c.modelYaml = "nodes:\n  - {id: x, op: Input, shape: [1, 16, 16]}\n"
                  "  - {id: c, op: Conv2d, out_channels: 8, kernel_size: 3, padding: 1}\n  - {id: r, op: ReLU}\n"
                  "  - {id: p, op: MaxPool2d, kernel_size: 2}\n  - {id: f, op: Flatten}\n"
                  "  - {id: out, op: Linear, out_features: 3}\n";
    c.data.dataset = "image-folder";
    c.data.path = dir.path().toStdString();
    c.data.batchSize = 16;
    c.data.flip = 0.5;
    c.train.lr = 0.005;
    c.train.epochs = 25;
    c.train.threads = 1;
    const engine::TrainSummary s = engine::train(c, nullptr);
    QCOMPARE(s.testSamples, int64_t(36));  // 20% held out, stratified
    QVERIFY2(s.testAccuracy > 0.8, qPrintable(QString::number(s.testAccuracy)));
  }
};

QTEST_GUILESS_MAIN(TestTrainingOptions)
#include "test_training_options.moc"
