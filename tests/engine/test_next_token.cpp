// Next-token prediction from a token file through the engine: each batch is windows of the file
// with targets one token ahead, a small causal Transformer learns a sequence rule far above
// chance and records accuracy and perplexity, a run stopped mid-epoch resumes bit-identical, and
// a model or a file that does not fit is refused naming what is wrong.
#include "core/config/metric_keys.h"
#include "core/engine/dataset.h"
#include "core/engine/trainer.h"
#include "train_helpers.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <string>

using namespace tw;

namespace {

constexpr int64_t kVocab = 32, kSeqLen = 16;

// A stream with a rule: after token t usually comes (5t + 3) mod 32, else a token drawn at
// random, so the best possible next-token accuracy is about 0.9 and chance is 1/32.
std::string writeRuleTokens(const QTemporaryDir &tmp, const std::string &name, int64_t count) {
  const std::string path = tmp.path().toStdString() + "/" + name;
  std::ofstream out(path, std::ios::binary);
  uint64_t state = 12345;
  int64_t t = 0;
  for (int64_t i = 0; i < count; ++i) {
    const uint16_t v = static_cast<uint16_t>(t);
    out.write(reinterpret_cast<const char *>(&v), 2);  // little-endian on the hosts we build for
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const bool noise = (state >> 33) % 10 == 0;
    t = noise ? static_cast<int64_t>((state >> 40) % kVocab) : (5 * t + 3) % kVocab;
  }
  return path;
}

config::RunConfig languageModelRun(const std::string &path) {
  config::RunConfig c;
  c.modelYaml = "nodes:\n"
                "  - {id: tokens, op: Input, shape: [16], dtype: int64}\n"
                "  - {id: embed, op: Embedding, num_embeddings: 32, embedding_dim: 32}\n"
                "  - {id: position, op: PositionalEmbedding}\n"
                "  - {id: block, op: TransformerEncoderLayer, nhead: 4, dim_feedforward: 64, dropout: 0.0, causal: true}\n"
                "  - {id: next, op: Linear, out_features: 32}\n";
  c.data.dataset = "token-file";
  c.data.path = path;
  c.data.seqLen = kSeqLen;
  c.data.batchSize = 32;
  c.data.valFraction = 0.1;
  c.data.testFraction = 0.1;
  c.train.optimizer = "adamw";
  c.train.lr = 0.005;
  c.train.epochs = 2;
  c.train.seed = 5;
  c.train.threads = 1;
  return c;
}

// What the model above asks of the data: token ids into an Embedding of kVocab rows.
data::ModelUse tokenUse() {
  data::ModelUse use;
  use.indexInputs = true;
  use.embeddings = {{"embed", kVocab}};
  return use;
}

using tw::testing::errorOf;
using tw::testing::trainTracked;

}  // namespace

class TestNextToken : public QObject {
  Q_OBJECT
  QTemporaryDir m_tmp;

 private Q_SLOTS:
  void batchesAreWindowsWithTheNextTokens() {
    const std::string path = writeRuleTokens(m_tmp, "batches.bin", 2000);
    config::RunConfig c = languageModelRun(path);
    const engine::Dataset d = engine::loadDataset(c.data, c.train.seed, tokenUse());
    QCOMPARE(d.task, data::Task::NextToken);
    QCOMPARE(d.train.size(), int64_t((1600 - 1) / kSeqLen));
    const engine::Batch b = d.train.gather(torch::tensor({3, 0}, torch::kLong));
    QCOMPARE(b.inputs.sizes().vec(), (std::vector<int64_t>{2, kSeqLen}));
    QCOMPARE(b.targets.sizes().vec(), (std::vector<int64_t>{2, kSeqLen}));
    QCOMPARE(b.targets.scalar_type(), torch::kLong);
    // Each position's target is the next position's input.
    QVERIFY(torch::equal(b.inputs.slice(1, 1).to(torch::kLong), b.targets.slice(1, 0, kSeqLen - 1)));
    // Window 3 starts at token 48 of the file.
    std::ifstream in(path, std::ios::binary);
    in.seekg(48 * 2);
    uint16_t first = 0;
    in.read(reinterpret_cast<char *>(&first), 2);
    QCOMPARE(b.inputs[0][0].item<float>(), float(first));
  }

  void causalTransformerLearnsTheRule() {
    const std::string path = writeRuleTokens(m_tmp, "learn.bin", 40000);
    const auto t = trainTracked(languageModelRun(path));
    const auto accuracy = t->points(config::metrics::key("val", config::metrics::kAccuracy));
    const auto loss = t->points(config::metrics::kValLoss);
    const auto perplexity = t->points(config::metrics::key("val", config::metrics::kPerplexity));
    QCOMPARE(accuracy.size(), size_t(2));
    QCOMPARE(perplexity.size(), size_t(2));
    // Chance is 1/32; the rule allows about 0.9.
    QVERIFY2(accuracy.back().value > 0.6, qPrintable(QString::number(accuracy.back().value)));
    QVERIFY(std::abs(perplexity.back().value - std::exp(loss.back().value)) < 1e-6 * perplexity.back().value);
    QVERIFY(perplexity.back().value < 4.0);
    QVERIFY(t->summary.testAccuracy > 0.6);
  }

  // data.windows_per_epoch: the training split is that many windows, each epoch fresh ones.
  void randomWindowsAreFreshEachEpoch() {
    const std::string path = writeRuleTokens(m_tmp, "fresh.bin", 8000);
    config::RunConfig c = languageModelRun(path);
    c.data.windowsPerEpoch = 100;
    const engine::Dataset d = engine::loadDataset(c.data, c.train.seed, tokenUse());
    QCOMPARE(d.train.size(), int64_t(100));
    const engine::BatchOrder first = engine::epochOrder(d.train, c.data, c.train.seed, 1);
    const engine::BatchOrder second = engine::epochOrder(d.train, c.data, c.train.seed, 2);
    QCOMPARE(first.batches(), int64_t(4));  // 100 windows in batches of 32
    const engine::Batch a = engine::takeBatch(d.train, first, 0), b = engine::takeBatch(d.train, second, 0);
    QCOMPARE(a.inputs.size(0), int64_t(32));
    QVERIFY(!torch::equal(a.inputs, b.inputs));
    QVERIFY(torch::equal(a.inputs, engine::takeBatch(d.train, engine::epochOrder(d.train, c.data, c.train.seed, 1), 0).inputs));
    QVERIFY(torch::equal(a.inputs.slice(1, 1).to(torch::kLong), a.targets.slice(1, 0, kSeqLen - 1)));
  }

  void midEpochResumeIsExact_data() {
    QTest::addColumn<int64_t>("windowsPerEpoch");
    QTest::newRow("every window once") << int64_t(0);
    QTest::newRow("random windows") << int64_t(399);
  }

  void midEpochResumeIsExact() {
    QFETCH(int64_t, windowsPerEpoch);
    const std::string path = writeRuleTokens(m_tmp, "resume.bin", 8000);
    config::RunConfig c = languageModelRun(path);
    c.data.windowsPerEpoch = windowsPerEpoch;
    c.train.epochs = 3;
    engine::TrainEnvironment straightEnv;
    straightEnv.runDir = m_tmp.path().toStdString() + "/straight" + std::to_string(windowsPerEpoch);
    const engine::TrainSummary straight = engine::train(c, nullptr, {}, straightEnv);

    engine::TrainEnvironment env;
    env.runDir = m_tmp.path().toStdString() + "/stopped" + std::to_string(windowsPerEpoch);
    engine::TrainCallbacks stop = testing::stopAfterPolls(20);  // 13 batches an epoch: inside the second
    QVERIFY(engine::train(c, nullptr, stop, env).stopped);
    env.resume = true;
    const engine::TrainSummary resumed = engine::train(c, nullptr, {}, env);
    QVERIFY2(resumed.resumedFromStep > 13 && resumed.resumedFromStep < 26,
             qPrintable(QString::number(resumed.resumedFromStep)));
    QCOMPARE(resumed.weightsDigest, straight.weightsDigest);
  }

  void modelsAndFilesThatDoNotFitAreRefused() {
    const std::string path = writeRuleTokens(m_tmp, "refuse.bin", 4000);
    config::RunConfig pooled = languageModelRun(path);
    pooled.modelYaml += "  - {id: pool, op: Mean, dim: 1}\n  - {id: head, op: Linear, out_features: 32}\n";
    std::string e = errorOf(pooled);
    QVERIFY2(e.find("output 'head'") != std::string::npos && e.find("every position") != std::string::npos, e.c_str());

    config::RunConfig small = languageModelRun(path);
    small.modelYaml.replace(small.modelYaml.find("num_embeddings: 32"), 18, "num_embeddings: 20");
    e = errorOf(small);
    QVERIFY2(e.find("refuse.bin") != std::string::npos && e.find("outside the model's vocabulary 0..19") != std::string::npos,
             e.c_str());

    config::RunConfig mse = languageModelRun(path);
    mse.train.loss = "mse";
    e = errorOf(mse);
    QVERIFY2(e.find("cross_entropy") != std::string::npos, e.c_str());
  }
};

QTEST_GUILESS_MAIN(TestNextToken)
#include "test_next_token.moc"
