// A CSV table larger than data.memory_mb trained through the engine, read a batch at a time from
// the file: each batch is the in-memory table's standardised rows, training is bit-identical to
// the same run in memory and whatever the parsing threads, and a run stopped mid-epoch and resumed
// with other data.workers ends bit-identical.
#include "core/engine/dataset.h"
#include "core/engine/trainer.h"
#include "train_helpers.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <string>

using namespace tw;

namespace {

// 6,000 rows of 48 numeric columns and a categorical one (1.2 MiB as floats: past a 1 MiB
// budget), whose class follows a weighted sum.
std::string writeTable(const QTemporaryDir &tmp) {
  const std::string path = tmp.path().toStdString() + "/table.csv";
  std::ofstream out(path);
  for (int j = 0; j < 48; ++j) out << "x" << j << ",";
  out << "kind,label\n";
  uint64_t state = 99;
  for (int i = 0; i < 6000; ++i) {
    double sum = 0;
    for (int j = 0; j < 48; ++j) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      const double v = static_cast<double>((state >> 33) % 2001) / 100.0 - 10.0;
      sum += v * (j % 4 == 0 ? 1.0 : -0.3);
      out << v << ",";
    }
    out << (i % 3 == 0 ? "a" : i % 3 == 1 ? "b" : "\"c, d\"") << "," << (sum > 0 ? "up" : "down") << "\n";
  }
  return path;
}

config::RunConfig tableRun(const std::string &path, int64_t memoryMb) {
  config::RunConfig c;
  c.modelYaml = "nodes:\n  - {id: x, op: Input, shape: [51]}\n"
                "  - {id: h, op: Linear, out_features: 16}\n  - {id: r, op: ReLU}\n"
                "  - {id: out, op: Linear, out_features: 2}\n";
  c.data.dataset = "csv";
  c.data.path = path;
  c.data.target = "label";
  c.data.categorical = {"kind"};
  c.data.memoryMb = memoryMb;
  c.data.batchSize = 500;
  c.train.lr = 0.01;
  c.train.epochs = 2;
  c.train.seed = 4;
  c.train.threads = 1;
  return c;
}

}  // namespace

class TestStreamedTable : public QObject {
  Q_OBJECT
  QTemporaryDir m_tmp;
  std::string m_path;

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(m_tmp.isValid());
    m_path = writeTable(m_tmp);
  }

  void batchesAreTheInMemoryRows() {
    const config::RunConfig streamedRun = tableRun(m_path, 1), wholeRun = tableRun(m_path, 0);
    const engine::Dataset streamed = engine::loadDataset(streamedRun.data, 4), whole = engine::loadDataset(wholeRun.data, 4);
    QVERIFY(streamed.train.table);
    QVERIFY(!streamed.train.inputs.defined());
    QVERIFY(!whole.train.table);
    QCOMPARE(streamed.inputShape, std::vector<int64_t>({51}));
    QCOMPARE(streamed.train.size(), whole.train.size());
    const engine::BatchOrder order(streamed.train.size(), 64, /*shuffle=*/true, 4, 1);
    for (const engine::Split *pair : {&streamed.train}) {
      const engine::Batch a = engine::takeBatch(*pair, order, 2), b = engine::takeBatch(whole.train, order, 2);
      QVERIFY(torch::equal(a.inputs, b.inputs));
      QVERIFY(torch::equal(a.targets, b.targets));
    }
    const engine::Batch a = streamed.test.range(10, 90), b = whole.test.range(10, 90);
    QVERIFY(torch::equal(a.inputs, b.inputs));
    QVERIFY(torch::equal(a.targets, b.targets));
  }

  void trainingIsTheInMemoryRunWhateverThreads() {
    config::RunConfig whole = tableRun(m_path, 0), one = tableRun(m_path, 1), three = tableRun(m_path, 1);
    one.data.workers = 1;
    three.data.workers = 3;
    const engine::TrainSummary a = engine::train(whole, nullptr), b = engine::train(one, nullptr),
                               c = engine::train(three, nullptr);
    QVERIFY(!a.weightsDigest.empty());
    QCOMPARE(b.weightsDigest, a.weightsDigest);
    QCOMPARE(c.weightsDigest, a.weightsDigest);
    QCOMPARE(b.testAccuracy, a.testAccuracy);
    QVERIFY2(a.testAccuracy > 0.8, qPrintable(QString::number(a.testAccuracy)));
  }

  void midEpochResumeWithOtherWorkersIsExact() {
    config::RunConfig c = tableRun(m_path, 1);
    c.train.epochs = 3;
    engine::TrainEnvironment straightEnv, env;
    straightEnv.runDir = m_tmp.path().toStdString() + "/straight";
    env.runDir = m_tmp.path().toStdString() + "/stopped";
    const engine::TrainSummary straight = engine::train(c, nullptr, {}, straightEnv);
    engine::TrainCallbacks stop = testing::stopAfterPolls(14);
    c.data.workers = 1;
    QVERIFY(engine::train(c, nullptr, stop, env).stopped);
    c.data.workers = 2;
    env.resume = true;
    const engine::TrainSummary resumed = engine::train(c, nullptr, {}, env);
    // 9 batches an epoch: stopped inside the second.
    QVERIFY2(resumed.resumedFromStep > 9 && resumed.resumedFromStep < 18,
             qPrintable(QString::number(resumed.resumedFromStep)));
    QCOMPARE(resumed.weightsDigest, straight.weightsDigest);
  }
};

QTEST_GUILESS_MAIN(TestStreamedTable)
#include "test_streamed_table.moc"
