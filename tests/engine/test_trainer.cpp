// The trainer on real Fashion-MNIST slices, with metrics going through the batching writer into
// a real tracking database.
#include "core/config/run_config.h"
#include "core/engine/dataset.h"
#include "core/engine/trainer.h"
#include "tracking/metric_writer.h"
#include "tracking/store.h"
#include "train_helpers.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <set>

using namespace tw;

namespace {

const char *kMlp = R"(name: mlp
nodes:
  - {id: image, op: Input, shape: [1, 28, 28]}
  - {id: flat, op: Flatten}
  - {id: fc1, op: Linear, out_features: 256}
  - {id: act1, op: ReLU}
  - {id: fc2, op: Linear, out_features: 128}
  - {id: act2, op: ReLU}
  - {id: logits, op: Linear, out_features: 10}
)";

config::RunConfig mlpConfig() {
  config::RunConfig c;
  c.modelYaml = kMlp;
  c.data.path = TW_FASHION_MNIST_DIR;
  c.data.trainLimit = 2000;
  c.data.testLimit = 1000;
  c.data.valFraction = 0.1;
  c.data.batchSize = 64;
  c.train.optimizer = "adam";
  c.train.lr = 1e-3;
  c.train.epochs = 2;
  c.train.seed = 3;
  return c;
}

std::string errorOf(const config::RunConfig &c, engine::TrainCallbacks callbacks = {}) {
  try {
    engine::train(c, nullptr, callbacks);
  } catch (const std::runtime_error &e) {
    return e.what();
  }
  return {};
}

}  // namespace

class TestTrainer : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void trainsAndRecordsMetrics() {
    QTemporaryDir tmp;
    const std::string db = tmp.path().toStdString() + "/tracking.db";
    auto store = tracking::Store::open(db);
    tracking::NewRun newRun;
    newRun.experiment = "engine-test";
    const tracking::RunRecord run = store->createRun(newRun);

    config::RunConfig c = mlpConfig();
    c.train.logEvery = 2;
    std::vector<engine::EpochReport> reports;
    std::string fingerprint;
    engine::TrainCallbacks callbacks;
    callbacks.onEpoch = [&](const engine::EpochReport &r) { reports.push_back(r); };
    callbacks.onDataLoaded = [&](const std::string &fp, const std::vector<std::string> &) { fingerprint = fp; };
    engine::TrainSummary s;
    {
      tracking::MetricWriter writer(db, run.id);
      s = engine::train(c, &writer, callbacks);
      writer.flush();
      QVERIFY2(writer.lastError().empty(), writer.lastError().c_str());
    }

    const int64_t stepsPerEpoch = (1800 + 63) / 64;  // 200 of 2000 held out; last batch partial
    QCOMPARE(s.trainSamples, int64_t(1800));
    QCOMPARE(s.valSamples, int64_t(200));
    QCOMPARE(s.testSamples, int64_t(1000));
    QCOMPARE(s.epochs, int64_t(2));
    QCOMPARE(s.steps, 2 * stepsPerEpoch);
    QCOMPARE(s.parameters, int64_t(784 * 256 + 256 + 256 * 128 + 128 + 128 * 10 + 10));
    QVERIFY(!s.stopped);
    QCOMPARE(fingerprint.size(), size_t(64));

    QCOMPARE(int(reports.size()), 2);
    QCOMPARE(reports[0].epoch, int64_t(1));
    QCOMPARE(reports[1].step, s.steps);
    QVERIFY2(reports[1].trainLoss < reports[0].trainLoss, qPrintable(QString::number(reports[1].trainLoss)));
    QVERIFY2(reports[1].valLoss < reports[0].valLoss, qPrintable(QString::number(reports[1].valLoss)));
    QVERIFY2(s.valAccuracy > 0.6, qPrintable(QString::number(s.valAccuracy)));
    QVERIFY2(s.testAccuracy > 0.6, qPrintable(QString::number(s.testAccuracy)));
    QVERIFY(s.samplesPerSec > 0);

    const auto keys = store->metricKeys(run.id);
    const std::set<std::string> keySet(keys.begin(), keys.end());
    for (const char *key : {"train/loss", "train/lr", "train/epoch_loss", "train/samples_per_sec", "val/loss",
                            "val/accuracy", "epoch", "test/loss", "test/accuracy"})
      QVERIFY2(keySet.count(key), key);

    // logEvery 2: every other step.
    const auto loss = store->metricPoints(run.id, "train/loss");
    QCOMPARE(int64_t(loss.size()), s.steps / 2);
    QCOMPARE(loss.front().step, int64_t(2));
    QCOMPARE(loss.back().step, s.steps - s.steps % 2);
    QCOMPARE(store->metricPoints(run.id, "train/lr").front().value, 1e-3);
    // Losses fall: the last quarter of the logged steps against the first.
    const size_t q = loss.size() / 4;
    double first = 0, last = 0;
    for (size_t i = 0; i < q; ++i) first += loss[i].value, last += loss[loss.size() - 1 - i].value;
    QVERIFY2(last < 0.8 * first, qPrintable(QString("%1 vs %2").arg(last / q).arg(first / q)));

    const auto epochs = store->metricPoints(run.id, "epoch");
    QCOMPARE(int(epochs.size()), 2);
    QCOMPARE(epochs[0].step, stepsPerEpoch);
    QCOMPARE(epochs[1].value, 2.0);
    const auto val = store->metricPoints(run.id, "val/accuracy");
    QCOMPARE(int(val.size()), 2);
    QCOMPARE(val[1].value, s.valAccuracy);
    const auto test = store->metricPoints(run.id, "test/accuracy");
    QCOMPARE(int(test.size()), 1);
    QCOMPARE(test[0].step, s.steps);
    QCOMPARE(test[0].value, s.testAccuracy);
  }

  void sameSeedSameResult() {
    config::RunConfig c = mlpConfig();
    c.data.trainLimit = 600;
    c.data.testLimit = 200;
    c.train.epochs = 1;
    const engine::TrainSummary a = engine::train(c, nullptr);
    const engine::TrainSummary b = engine::train(c, nullptr);
    QCOMPARE(a.trainLoss, b.trainLoss);
    QCOMPARE(a.testLoss, b.testLoss);
    c.train.seed = 4;
    QVERIFY(engine::train(c, nullptr).trainLoss != a.trainLoss);
  }

  void divergingLossIsReported() {
    config::RunConfig c = mlpConfig();
    c.train.optimizer = "sgd";
    c.train.lr = 1e6;
    c.train.epochs = 3;
    const std::string message = errorOf(c);
    qInfo("%s", message.c_str());
    QVERIFY2(message.rfind("training: loss is NaN at step ", 0) == 0, message.c_str());
    QVERIFY2(message.find("(epoch ") != std::string::npos, message.c_str());
  }

  void shouldStopEndsEarly() {
    config::RunConfig c = mlpConfig();
    int epochsSeen = 0;
    engine::TrainCallbacks callbacks = testing::stopAfterPolls(5);
    callbacks.onEpoch = [&](const engine::EpochReport &) { ++epochsSeen; };
    const engine::TrainSummary s = engine::train(c, nullptr, callbacks);
    QVERIFY(s.stopped);
    QCOMPARE(s.steps, int64_t(5));
    QCOMPARE(s.epochs, int64_t(0));
    QCOMPARE(epochsSeen, 0);
  }

  void errorsNameTheStage_data() {
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("expected");
    QTest::newRow("missing data folder") << "path" << "/nonexistent/fashion" << "loading data: /nonexistent/fashion: no train-images";
    QTest::newRow("unknown dataset") << "dataset" << "cifar" << "loading data: data.dataset: unknown dataset 'cifar'";
    QTest::newRow("bad model") << "model" << "nodes:\n  - {id: x, op: Input, shape: [1, 28, 28]}\n  - {id: c, op: Conv9d}\n"
                               << "building model: ";
    QTest::newRow("model does not fit the images")
        << "model" << "nodes:\n  - {id: x, op: Input, shape: [784]}\n  - {id: fc, op: Linear, out_features: 10}\n"
        << "building model: input 'x' expects [N, 784] but the data is [N, 1, 28, 28]";
    QTest::newRow("too few classes")
        << "model" << "nodes:\n  - {id: x, op: Input, shape: [1, 28, 28]}\n  - {id: f, op: Flatten}\n  - {id: fc, op: Linear, out_features: 3}\n"
        << "building model: output 'fc' gives [N, 3]";
    QTest::newRow("unknown optimizer") << "optimizer" << "lbfgs" << "configuring training: unknown optimizer 'lbfgs'";
    // The validator's rules (core/validate), as check, train and launch apply them.
    QTest::newRow("multistep without milestones") << "schedule" << "multistep"
                                                  << "configuring training: field 'train.milestones'";
  }

  void errorsNameTheStage() {
    QFETCH(QString, field);
    QFETCH(QString, value);
    QFETCH(QString, expected);
    config::RunConfig c = mlpConfig();
    c.data.trainLimit = 200;
    c.data.testLimit = 100;
    if (field == "path") c.data.path = value.toStdString();
    if (field == "dataset") c.data.path.clear(), c.data.dataset = value.toStdString();
    if (field == "model") c.modelYaml = value.toStdString();
    if (field == "optimizer") c.train.optimizer = value.toStdString();
    if (field == "schedule") c.train.schedule = value.toStdString();
    const QString message = QString::fromStdString(errorOf(c));
    qInfo("%s", qPrintable(message));
    QVERIFY2(message.startsWith(expected), qPrintable(message));
  }

  void datasetSplitsAndShufflesDeterministically() {
    config::DataOptions o = mlpConfig().data;
    o.trainLimit = 1000;
    o.testLimit = 100;
    const engine::Dataset a = engine::loadDataset(o, 11);
    const engine::Dataset b = engine::loadDataset(o, 11);
    const engine::Dataset other = engine::loadDataset(o, 12);
    QCOMPARE(a.train.size(), int64_t(900));
    QCOMPARE(a.val.size(), int64_t(100));
    QVERIFY(torch::equal(a.val.targets, b.val.targets));
    QVERIFY(!torch::equal(a.val.inputs, other.val.inputs));
    QCOMPARE(a.fingerprint, b.fingerprint);
    QVERIFY(a.fingerprint != other.fingerprint);
    // Standardised with the training split's statistics.
    QVERIFY(std::abs(a.train.inputs.mean().item<double>()) < 1e-4);
    QVERIFY(std::abs(a.train.inputs.std().item<double>() - 1.0) < 1e-3);
    QVERIFY(a.preprocessing.imageMean > 0.2 && a.preprocessing.imageMean < 0.4);  // Fashion-MNIST's mean pixel is about 0.286

    // Each epoch is a different permutation of the whole split, the same for the same (seed, epoch).
    auto epochLabels = [&](int64_t seed, int64_t epoch) {
      engine::BatchOrder order(a.train.size(), 128, true, seed, epoch);
      std::vector<torch::Tensor> parts;
      for (int64_t b = 0; b < order.batches(); ++b) parts.push_back(engine::takeBatch(a.train, order, b).targets);
      return torch::cat(parts);
    };
    const torch::Tensor e1 = epochLabels(5, 1);
    QCOMPARE(e1.size(0), int64_t(900));
    QVERIFY(torch::equal(e1, epochLabels(5, 1)));
    QVERIFY(!torch::equal(e1, epochLabels(5, 2)));
    QVERIFY(torch::equal(std::get<0>(e1.sort()), std::get<0>(a.train.targets.sort())));

    o.normalize = false;
    const engine::Dataset raw = engine::loadDataset(o, 11);
    QVERIFY(raw.train.inputs.min().item<float>() >= 0.0f && raw.train.inputs.max().item<float>() == 1.0f);
    QVERIFY(raw.fingerprint != a.fingerprint);
  }
};

QTEST_GUILESS_MAIN(TestTrainer)
#include "test_trainer.moc"
