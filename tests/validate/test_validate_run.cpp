// The validator's rules, each with a run that breaks it and one that keeps it; the machine is a
// fake one, so the answers do not depend on this machine's GPUs or memory.

#include "validate_helpers.h"

#include "core/config/metric_direction.h"
#include "core/config/metric_keys.h"
#include "core/config/run_task.h"
#include "core/data/shard_set.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cstdlib>
#include <fstream>

using tw::config::RunConfig;

class TestValidateRun : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void smallRunIsValid() {
    const auto c = check(smallRun());
    QVERIFY2(c.ok(), qPrintable(problems(c)));
  }

  void multistepNeedsMilestones() {
    auto c = check(smallRun({"train.schedule=multistep"}));
    QVERIFY2(hasField(c, "train.milestones"), qPrintable(problems(c)));
    c = check(smallRun({"train.schedule=multistep", "train.milestones=[2, 4]"}));
    QVERIFY2(c.ok(), qPrintable(problems(c)));
  }

  void monitorIsAValidationMetricTheTaskRecords_data() {
    QTest::addColumn<QString>("monitor");
    QTest::addColumn<bool>("valid");
    QTest::newRow("val/loss") << "val/loss" << true;
    QTest::newRow("val/accuracy") << "val/accuracy" << true;
    QTest::newRow("val/top5_accuracy") << "val/top5_accuracy" << true;
    QTest::newRow("val/f1_weighted") << "val/f1_weighted" << true;
    QTest::newRow("train/loss: not validation") << "train/loss" << false;
    QTest::newRow("val/r2: regression only") << "val/r2" << false;
    QTest::newRow("val/top3_accuracy: top_k is 5") << "val/top3_accuracy" << false;
    QTest::newRow("accuracy: no split") << "accuracy" << false;
  }
  void monitorIsAValidationMetricTheTaskRecords() {
    QFETCH(QString, monitor);
    QFETCH(bool, valid);
    const auto c = check(smallRun({"train.monitor=" + monitor.toStdString()}));
    QVERIFY2(c.ok() == valid, qPrintable(problems(c)));
    if (!valid) QVERIFY2(problems(c).contains("val/accuracy") && hasField(c, "train.monitor"), qPrintable(problems(c)));
  }

  void lossFitsTheTask() {
    auto c = check(smallRun({"train.loss=mse"}));
    QVERIFY2(hasField(c, "train.loss") && problems(c).contains("regression loss"), qPrintable(problems(c)));
    c = check(smallRun({"train.loss=bce_with_logits"}));
    QVERIFY2(c.ok(), qPrintable(problems(c)));
    // A CSV regression table: cross_entropy is wrong, and its monitor may be val/r2.
    QTemporaryDir dir;
    const std::string csv = dir.filePath("t.csv").toStdString();
    std::ofstream(csv) << "a,b\n1,2\n";
    c = check(smallRun({"data.dataset=csv", "data.path=" + csv, "data.task=regression", "train.monitor=val/r2"}));
    QVERIFY2(hasField(c, "data.target"), qPrintable(problems(c)));  // the column to predict
    QVERIFY2(hasField(c, "train.loss") && problems(c).contains("classification loss"), qPrintable(problems(c)));
    QVERIFY2(!hasField(c, "train.monitor"), qPrintable(problems(c)));
    c = check(smallRun({"data.dataset=csv", "data.path=" + csv, "data.task=regression", "train.loss=huber",
                        "data.target=b"}));
    QVERIFY2(c.ok(), qPrintable(problems(c)));
  }

  // A weights file must be there to read, and whole; a run reference must read as one (the store checks
  // that the run exists when the run is recorded: test_cli_train).
  void initFromNamesWeightsThatCanBeRead() {
    QTemporaryDir dir;
    const std::string weights = dir.filePath("w.pt").toStdString();
    auto c = check(smallRun({"train.init_from=" + weights}));
    QVERIFY2(hasField(c, "train.init_from") && problems(c).contains("w.pt does not exist"), qPrintable(problems(c)));
    // Checkpoints and torch.save files are zip archives: one cut short has lost its directory.
    std::ofstream(weights) << "x";
    c = check(smallRun({"train.init_from=" + weights}));
    QVERIFY2(hasField(c, "train.init_from") && problems(c).contains("w.pt is truncated"), qPrintable(problems(c)));
    std::ofstream(weights, std::ios::binary) << std::string("PK\x05\x06", 4) << std::string(18, '\0');  // an empty archive
    c = check(smallRun({"train.init_from=" + weights}));
    QVERIFY2(c.ok(), qPrintable(problems(c)));
    c = check(smallRun({"train.init_from=run:@best"}));
    QVERIFY2(hasField(c, "train.init_from") && problems(c).contains("names no run"), qPrintable(problems(c)));
    c = check(smallRun({"train.init_from=run:base@latest"}));
    QVERIFY2(problems(c).contains("@latest names no checkpoint of a run (expected @best, @last or @epoch-N"),
             qPrintable(problems(c)));
    c = check(smallRun({"train.init_from=run:base"}));
    QVERIFY2(c.ok(), qPrintable(problems(c)));
  }

  // train.unfreeze names frozen nodes of the model at an epoch after the first; the map form
  // reads as the text form.
  void unfreezeNamesFrozenNodes() {
    const std::string model = "model: {nodes: [{id: x, op: Input, shape: [4]}, {id: h1.fc, op: Linear, out_features: 3, "
                              "trainable: false}, {id: h1.act, op: ReLU, trainable: false}, {id: out, op: Linear, "
                              "out_features: 2}]}\ntrain: {epochs: 4}\n";
    auto run = [&](const std::string &train) {
      return tw::config::parseRunConfig(model + "data: {dataset: blobs}\n", "run.yaml", {"train.unfreeze=" + train});
    };
    auto c = check(run("2:h1"));
    QVERIFY2(c.ok(), qPrintable(problems(c)));
    QVERIFY2(check(run("3:h1.fc")).ok(), qPrintable(problems(check(run("3:h1.fc")))));
    c = check(run("2:h9"));
    QVERIFY2(hasField(c, "train.unfreeze") && problems(c).contains("no node or block instance 'h9'"), qPrintable(problems(c)));
    c = check(run("2:out"));
    QVERIFY2(problems(c).contains("'out' has no frozen parameters"), qPrintable(problems(c)));
    c = check(run("1:h1"));
    QVERIFY2(problems(c).contains("epoch 1: unfreezing happens at the start of epoch 2 to train.epochs (4)"), qPrintable(problems(c)));
    c = check(run("5:h1"));
    QVERIFY2(hasField(c, "train.unfreeze"), qPrintable(problems(c)));
    c = check(run("two:h1"));
    QVERIFY2(problems(c).contains("'two:h1' is not a step"), qPrintable(problems(c)));
    const auto mapForm = tw::config::parseRunConfig(
        "model: {nodes: [{id: x, op: Input, shape: [4]}]}\ntrain: {unfreeze: [{epoch: 3, nodes: [h2, h1]}, {epoch: 5, nodes: c}]}\n",
        "run.yaml");
    QCOMPARE(mapForm.train.unfreeze, (std::vector<std::string>{"3:h2+h1", "5:c"}));
    QVERIFY_THROWS_EXCEPTION(tw::config::ConfigError,
                             tw::config::parseRunConfig("model: {nodes: []}\ntrain: {unfreeze: [{epoch: 3, node: h2}]}\n", "run.yaml"));
  }

  void optimiserAndPrecisionRules() {
    auto c = check(smallRun({"train.optimizer=sgd", "train.nesterov=true", "train.momentum=0"}));
    QVERIFY2(hasField(c, "train.nesterov"), qPrintable(problems(c)));
    c = check(smallRun({"train.loss=bce_with_logits", "train.label_smoothing=0.1"}));
    QVERIFY2(hasField(c, "train.label_smoothing"), qPrintable(problems(c)));
    c = check(smallRun({"train.precision=fp16"}));
    QVERIFY2(hasField(c, "train.precision") && problems(c).contains("bf16"), qPrintable(problems(c)));
    c = check(smallRun({"train.patience=3", "data.val_fraction=0"}));
    QVERIFY2(hasField(c, "train.patience"), qPrintable(problems(c)));
    c = check(smallRun({"distributed.backend=nccl"}));
    QVERIFY2(hasField(c, "distributed.backend"), qPrintable(problems(c)));
    c = check(smallRun({"distributed.backend=nccl", "train.device=cuda"}), 1);
    QVERIFY2(c.ok(), qPrintable(problems(c)));
  }

  void deviceNamesADeviceThisMachineHas_data() {
    QTest::addColumn<QString>("device");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<QString>("problem");  // empty: valid
    QTest::newRow("cpu") << "cpu" << 0 << "";
    QTest::newRow("tpu") << "tpu" << 2 << "unknown device 'tpu'";
    QTest::newRow("cuda:x") << "cuda:x" << 2 << "unknown device";
    QTest::newRow("cuda without GPU") << "cuda" << 0 << "no GPU";
    QTest::newRow("cuda:0 without GPU") << "cuda:0" << 0 << "no GPU";
    QTest::newRow("cuda with 1") << "cuda" << 1 << "";
    QTest::newRow("cuda:1 of 2") << "cuda:1" << 2 << "";
    QTest::newRow("cuda:2 of 2") << "cuda:2" << 2 << "has 2 GPUs (cuda:0 to cuda:1)";
    QTest::newRow("cuda:7 of 1") << "cuda:7" << 1 << "has 1 GPU (cuda:0)";
  }
  void deviceNamesADeviceThisMachineHas() {
    QFETCH(QString, device);
    QFETCH(int, gpus);
    QFETCH(QString, problem);
    const auto c = check(smallRun({"train.device=" + device.toStdString()}), gpus);
    if (problem.isEmpty()) {
      QVERIFY2(c.ok(), qPrintable(problems(c)));
    } else {
      QVERIFY2(hasField(c, "train.device") && problems(c).contains(problem), qPrintable(problems(c)));
    }
  }

  // The detected machine can be pinned by tests that run the real CLI.
  void machineOverridesForTests() {
    qputenv("TORCHWRIGHT_TEST_GPUS", "3");
    qputenv("TORCHWRIGHT_TEST_MEMORY_MB", "100");
    const tw::validate::Machine m = tw::validate::detectMachine();
    qunsetenv("TORCHWRIGHT_TEST_GPUS");
    qunsetenv("TORCHWRIGHT_TEST_MEMORY_MB");
    QCOMPARE(m.gpuCount, 3);
    QCOMPARE(m.hostMemoryBytes, 100.0 * 1024 * 1024);
    QCOMPARE(m.gpuMemoryBytes.size(), size_t(3));
  }

  void dataSourceExistsAndIsReadable() {
    QTemporaryDir dir;
    const std::string missing = dir.filePath("nope.csv").toStdString();
    auto c = check(smallRun({"data.dataset=csv", "data.path=" + missing}));
    QVERIFY2(hasField(c, "data.path") && problems(c).contains(QString::fromStdString(missing)), qPrintable(problems(c)));
    // An IDX folder without its label files names the file that is missing.
    std::ofstream(dir.filePath("train-images-idx3-ubyte").toStdString()) << "x";
    c = check(smallRun({"data.dataset=mnist", "data.path=" + dir.path().toStdString()}));
    QVERIFY2(hasField(c, "data.path") && problems(c).contains("train-labels-idx1-ubyte"), qPrintable(problems(c)));
    // An image folder needs class folders.
    c = check(smallRun({"data.dataset=image-folder", "data.path=" + dir.path().toStdString()}));
    QVERIFY2(hasField(c, "data.path") && problems(c).contains("no class folders"), qPrintable(problems(c)));
    QVERIFY(QDir(dir.path()).mkdir("cat"));
    c = check(smallRun({"data.dataset=image-folder", "data.path=" + dir.path().toStdString()}));
    QVERIFY2(!hasField(c, "data.path"), qPrintable(problems(c)));
    // Unreadable: permissions (root reads everything, so only checked when they bite).
    const std::string locked = dir.filePath("locked.csv").toStdString();
    std::ofstream(locked) << "a,b\n";
    QFile::setPermissions(QString::fromStdString(locked), QFileDevice::WriteOwner);
    if (!std::ifstream(locked)) {
      c = check(smallRun({"data.dataset=csv", "data.path=" + locked}));
      QVERIFY2(hasField(c, "data.path") && problems(c).contains("locked.csv"), qPrintable(problems(c)));
    }
  }

  // A batch larger than the training split would make every epoch one step; the rule counts the
  // split as the loader will (data.train_limit, the fractions) where that needs no example read.
  void batchFitsTheTrainingSplit() {
    // spirals, 3000 samples: 300 validation, 600 test, 2100 for training.
    auto c = check(smallRun({"data.batch_size=2100"}));
    QVERIFY2(c.ok(), qPrintable(problems(c)));
    c = check(smallRun({"data.batch_size=2101"}));
    QVERIFY2(hasField(c, "data.batch_size") && problems(c).contains("training split (2100 examples)"),
             qPrintable(problems(c)));
    c = check(smallRun({"data.batch_size=500", "data.samples=500"}));  // 350 for training
    QVERIFY2(hasField(c, "data.batch_size") && problems(c).contains("use at most 350"), qPrintable(problems(c)));

    // An IDX set: the training labels file says how many there are (50 here), data.train_limit
    // takes the first ones, and its own test file leaves the rest to training and validation.
    QTemporaryDir dir;
    const auto idx = [&](const char *stem, unsigned char kind, int count) {
      std::ofstream out(dir.filePath(stem).toStdString(), std::ios::binary);
      const unsigned char header[] = {0, 0, 8, kind, 0, 0, 0, static_cast<unsigned char>(count)};
      out.write(reinterpret_cast<const char *>(header), sizeof header);
      if (kind == 3) out.write("\0\0\0\2\0\0\0\2", 8);  // 2x2 images
      for (int i = 0; i < count * (kind == 3 ? 4 : 1); ++i) out.put(static_cast<char>(i % 10));
    };
    idx("train-images-idx3-ubyte", 3, 50);
    idx("train-labels-idx1-ubyte", 1, 50);
    idx("t10k-images-idx3-ubyte", 3, 3);
    idx("t10k-labels-idx1-ubyte", 1, 3);
    const std::string path = "data.path=" + dir.path().toStdString();
    c = check(smallRun({"data.dataset=mnist", path, "data.batch_size=45"}));  // 5 for validation
    QVERIFY2(!hasField(c, "data.batch_size"), qPrintable(problems(c)));
    c = check(smallRun({"data.dataset=mnist", path, "data.batch_size=46"}));
    QVERIFY2(hasField(c, "data.batch_size") && problems(c).contains("(45 examples)"), qPrintable(problems(c)));
    c = check(smallRun({"data.dataset=mnist", path, "data.train_limit=20", "data.batch_size=19"}));
    QVERIFY2(hasField(c, "data.batch_size") && problems(c).contains("(18 examples)"), qPrintable(problems(c)));
    // A shard set: its manifest counts the training split; its own test split holds none out.
    const QString shards = dir.filePath("shards");
    {
      tw::data::ShardSetInfo info;
      info.kind = "array";
      info.classes = 2;
      info.classNames = {"a", "b"};
      info.featureShape = {2};
      info.dtype = "float32";
      tw::data::ShardSetWriter writer(shards.toStdString(), info, {});
      for (int i = 0; i < 50; ++i) {
        tw::data::ShardExample example;
        example.members = {{"npy", std::string(8, '\0')}, {"cls", std::to_string(i % 2)}};
        example.label = i % 2;
        writer.add(i < 40 ? "train" : "test", example);
      }
      writer.finish();
    }
    const std::string shardPath = "data.path=" + shards.toStdString();
    c = check(smallRun({"data.dataset=shards", shardPath, "data.batch_size=36"}));  // 4 for validation
    QVERIFY2(!hasField(c, "data.batch_size"), qPrintable(problems(c)));
    c = check(smallRun({"data.dataset=shards", shardPath, "data.batch_size=37"}));
    QVERIFY2(hasField(c, "data.batch_size") && problems(c).contains("(36 examples)"), qPrintable(problems(c)));
    // Without the data check (the engine, which reads the data itself), the rule is not applied.
    tw::validate::ValidateOptions options;
    options.machine = fakeMachine(0);
    options.checkData = false;
    const RunConfig big = smallRun({"data.batch_size=5000"});
    QVERIFY(tw::validate::validateRun(big, analysisOf(big), options).ok());
  }

  // A named dataset that is not installed says how to get it; a folder of one's own does not.
  void missingDatasetSaysHowToGetIt() {
    QTemporaryDir empty;
    qputenv("TORCHWRIGHT_DATASETS_DIR", empty.path().toUtf8());
    auto c = check(smallRun({"data.dataset=fashion-mnist"}));
    qunsetenv("TORCHWRIGHT_DATASETS_DIR");
    QVERIFY2(hasField(c, "data.path") && problems(c).contains("sudo apt-get install dataset-fashion-mnist"),
             qPrintable(problems(c)));
    c = check(smallRun({"data.dataset=fashion-mnist", "data.path=" + empty.path().toStdString()}));
    QVERIFY2(hasField(c, "data.path") && !problems(c).contains("apt-get"), qPrintable(problems(c)));
  }

  // A problem names the run file and the line of the key when the key is written there.
  void problemsNameFileAndLine() {
    QTemporaryDir dir;
    const QString path = dir.filePath("run.yaml");
    std::ofstream(path.toStdString()) << kSmallModel << "train:\n  lr: 0.1\n  schedule: multistep\n  monitor: val/r2\n";
    const RunConfig config = tw::config::loadRunConfig(path.toStdString());
    const auto c = check(config);
    QCOMPARE(c.diagnostics.size(), size_t(2));
    const QString text = problems(c);
    QVERIFY2(text.contains(path + ":10: field 'train.monitor'"), qPrintable(text));
    QVERIFY2(text.contains(path + ": field 'train.milestones'"), qPrintable(text));  // not written: no line
  }

  void modelFeedsFromOneInput() {
    auto config = smallRun();
    config.modelYaml = "nodes:\n  - {id: a, op: Input, shape: [2]}\n  - {id: b, op: Input, shape: [2]}\n"
                       "  - {id: s, op: Add, inputs: [a, b]}\n";
    const auto c = check(config);
    QVERIFY2(hasField(c, "model") && problems(c).contains("2 Input nodes"), qPrintable(problems(c)));
  }

  void metricDirectionAndImprovement() {
    using namespace tw::config::metrics;
    QVERIFY(lowerIsBetter("loss") && lowerIsBetter(kValLoss) && lowerIsBetter("mse") && lowerIsBetter("val/mae") &&
            lowerIsBetter("val/perplexity"));
    QVERIFY(!lowerIsBetter(kValAccuracy) && !lowerIsBetter("r2") && !lowerIsBetter("val/f1_macro"));
    QVERIFY(improves(0.4, 0.5, true, 0.05));
    QVERIFY(!improves(0.46, 0.5, true, 0.05));  // within min_delta
    QVERIFY(improves(0.9, 0.8, false, 0.0));
    QVERIFY(!improves(0.8, 0.8, false, 0.0));
    QVERIFY(!improves(0.84, 0.8, false, 0.05));
  }

  void metricKeysOfATask() {
    using namespace tw::config::metrics;
    const auto classification = evaluationNames(RunTask::Classification, 3);
    QCOMPARE(classification.size(), size_t(9));
    QCOMPARE(classification[2], std::string("top3_accuracy"));
    QCOMPARE(evaluationNames(RunTask::Regression, 5), (std::vector<std::string>{"loss", "mse", "mae", "r2"}));
    QCOMPARE(key("val", kAccuracy), std::string(kValAccuracy));
    // What train.monitor may name: exactly the validation split's metrics of the task.
    tw::config::DataOptions table;
    table.dataset = "csv";
    table.task = "regression";
    QCOMPARE(tw::config::monitorKeys(table, 5), (std::vector<std::string>{"val/loss", "val/mse", "val/mae", "val/r2"}));
    tw::config::DataOptions tokens;
    tokens.dataset = "token-file";
    QCOMPARE(tw::config::monitorKeys(tokens, 5),
             (std::vector<std::string>{"val/loss", "val/accuracy", "val/perplexity"}));
    const auto monitors = tw::config::monitorKeys(tw::config::DataOptions(), 3);
    QCOMPARE(monitors.size(), classification.size());
    for (const std::string &monitor : monitors) {
      const auto c = check(smallRun({"train.top_k=3", "train.monitor=" + monitor}));
      QVERIFY2(c.ok(), qPrintable(problems(c)));
    }
  }
};

QTEST_GUILESS_MAIN(TestValidateRun)
#include "test_validate_run.moc"
