// The memory estimate, figure by figure, and the refusal of a run that cannot fit its device.

#include "validate_helpers.h"

#include "core/config/number_text.h"

#include <QtTest>

class TestMemoryEstimate : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  // x [2] -> h [16] -> y [3]: 2*16+16 + 16*3+3 = 99 parameters.
  void figuresOfASmallModel_data() {
    QTest::addColumn<QString>("optimizer");
    QTest::addColumn<double>("momentum");
    QTest::addColumn<int>("states");
    QTest::newRow("adam") << "adam" << 0.9 << 2;
    QTest::newRow("adamw") << "adamw" << 0.9 << 2;
    QTest::newRow("sgd") << "sgd" << 0.0 << 0;
    QTest::newRow("sgd momentum") << "sgd" << 0.9 << 1;
    QTest::newRow("rmsprop") << "rmsprop" << 0.0 << 1;
    QTest::newRow("rmsprop momentum") << "rmsprop" << 0.5 << 2;
  }
  void figuresOfASmallModel() {
    QFETCH(QString, optimizer);
    QFETCH(double, momentum);
    QFETCH(int, states);
    const auto config = smallRun({"train.optimizer=" + optimizer.toStdString(),
                                  "train.momentum=" + std::to_string(momentum), "data.batch_size=10"});
    const auto e = tw::validate::estimateMemory(config, analysisOf(config));
    QCOMPARE(e.parameters, 99.0 * 4);
    QCOMPARE(e.gradients, 99.0 * 4);
    QCOMPARE(e.optimizerStates, states);
    QCOMPARE(e.optimizerState, 99.0 * 4 * states);
    QCOMPARE(e.batch, int64_t(10));
    QCOMPARE(e.activations, (2.0 + 16 + 3) * 10 * 4);
    QCOMPARE(e.total(), e.parameters + e.gradients + e.optimizerState + e.activations);
  }

  // Half-width activations under autocast; the batch is split across the ranks.
  void precisionAndRanks() {
    const auto config = smallRun({"train.precision=bf16", "data.batch_size=10", "distributed.nproc_per_node=2"});
    const auto e = tw::validate::estimateMemory(config, analysisOf(config));
    QCOMPARE(e.batch, int64_t(5));
    QCOMPARE(e.activations, 2.0 * 5 * 4 + (16.0 + 3) * 5 * 2);  // the Input stays float32
  }

  // distributed.shard over the 4 ranks of this machine: a quarter of the optimiser state each,
  // plus a quarter of the parameters stepped as a flat copy; sharding gradients, a quarter of
  // them and the buckets in flight, unless accumulation keeps whole gradients between micro-steps.
  void shardingDividesByTheRanks_data() {
    QTest::addColumn<QString>("shard");
    QTest::addColumn<int>("accumulate");
    QTest::addColumn<bool>("gradientsSharded");
    QTest::newRow("optimizer") << "optimizer" << 1 << false;
    QTest::newRow("gradients") << "gradients" << 1 << true;
    QTest::newRow("gradients, accumulating") << "gradients" << 2 << false;
  }
  void shardingDividesByTheRanks() {
    QFETCH(QString, shard);
    QFETCH(int, accumulate);
    QFETCH(bool, gradientsSharded);
    const auto config = smallRun({"distributed.nproc_per_node=4", "distributed.shard=" + shard.toStdString(),
                                  "train.accumulate=" + std::to_string(accumulate)});
    const auto e = tw::validate::estimateMemory(config, analysisOf(config));
    QCOMPARE(e.shardRanks, 4);
    QCOMPARE(e.optimizerState, 99.0 * 4 * 2 / 4);
    QCOMPARE(e.parameterShard, 99.0 * 4 / 4);
    QCOMPARE(e.gradientsSharded, gradientsSharded);
    // The buckets in flight: four of 25 MB, but never more than the 396 B of gradients there are.
    QCOMPARE(e.gradients, gradientsSharded ? 99.0 * 4 / 4 + 99.0 * 4 : 99.0 * 4);
    QCOMPARE(e.total(), e.parameters + e.gradients + e.optimizerState + e.parameterShard + e.activations);
    const std::string text = tw::validate::formatMemoryEstimate(e, config);
    QVERIFY2(text.find("optimiser state (2x, 1/4)") != std::string::npos, text.c_str());
    QVERIFY2(text.find("parameter shard (1/4)") != std::string::npos, text.c_str());
    QCOMPARE(text.find("gradients (1/4 + buckets)") != std::string::npos, gradientsSharded);
    // One rank has nothing to split with.
    const auto alone = smallRun({"distributed.shard=" + shard.toStdString()});
    QCOMPARE(tw::validate::estimateMemory(alone, analysisOf(alone)).shardRanks, 1);
  }

  void runThatCannotFitIsRefusedWithTheExcess() {
    auto config = smallRun({"data.batch_size=1000"});
    // A 4096-wide MLP: 4096*4096 weights per layer, far more than 10 MiB.
    config.modelYaml = "nodes:\n  - {id: x, op: Input, shape: [4096]}\n  - {id: a, op: Linear, out_features: 4096}\n"
                       "  - {id: b, op: Linear, out_features: 10}\n";
    tw::validate::ValidateOptions options;
    options.machine = fakeMachine(0, 10.0 * 1024 * 1024);
    const auto analysis = analysisOf(config);
    auto c = tw::validate::validateRun(config, analysis, options);
    QVERIFY2(hasField(c, "train.device"), qPrintable(problems(c)));
    const QString text = problems(c);
    QVERIFY2(text.contains("this machine's RAM has 10.0 MiB") && text.contains("too much"), qPrintable(text));
    QVERIFY2(text.contains("at batch 1000"), qPrintable(text));
    QVERIFY2(!text.contains("distributed.shard"), qPrintable(text));  // one rank: nothing to shard
    config.distributed.nprocPerNode = 2;
    const QString twoRanks = problems(tw::validate::validateRun(config, analysis, options));
    QVERIFY2(twoRanks.contains("(distributed.shard: gradients)"), qPrintable(twoRanks));
    // With room enough, or with the check off, the same run passes.
    options.machine = fakeMachine(0, 64.0 * 1024 * 1024 * 1024);
    QVERIFY2(tw::validate::validateRun(config, analysis, options).ok(), qPrintable(problems(c)));
    options.machine = fakeMachine(0, 10.0 * 1024 * 1024);
    options.checkMemory = false;
    QVERIFY(tw::validate::validateRun(config, analysis, options).ok());
  }

  // Ranks on one CPU machine each hold a copy; a GPU run is compared with the GPU it names.
  void devicesCompared() {
    auto config = smallRun({"distributed.nproc_per_node=4", "data.batch_size=4"});
    const auto analysis = analysisOf(config);
    const double one = tw::validate::estimateMemory(config, analysis).total();
    tw::validate::ValidateOptions options;
    options.machine = fakeMachine(0, one * 3);
    QVERIFY(!tw::validate::validateRun(config, analysis, options).ok());  // 4 copies in RAM
    options.machine = fakeMachine(0, one * 4);
    QVERIFY(tw::validate::validateRun(config, analysis, options).ok());
    config = smallRun({"train.device=cuda:1"});
    options.machine = fakeMachine(2, 1.0);  // tiny RAM does not matter for a GPU run
    options.machine->gpuMemoryBytes = {1e12, 100.0};
    const auto c = tw::validate::validateRun(config, analysis, options);
    QVERIFY2(problems(c).contains("cuda:1 has 100 B"), qPrintable(problems(c)));
  }

  void formatted() {
    QCOMPARE(tw::config::formatBytes(512), std::string("512 B"));
    QCOMPARE(tw::config::formatBytes(1536), std::string("1.5 KiB"));
    QCOMPARE(tw::config::formatBytes(3.0 * 1024 * 1024 * 1024), std::string("3.0 GiB"));
    const auto config = smallRun();
    const std::string text = tw::validate::formatMemoryEstimate(tw::validate::estimateMemory(config, analysisOf(config)), config);
    QVERIFY2(text.find("optimiser state (2x)") != std::string::npos && text.find("total") != std::string::npos, text.c_str());
  }
};

QTEST_GUILESS_MAIN(TestMemoryEstimate)
#include "test_memory_estimate.moc"
