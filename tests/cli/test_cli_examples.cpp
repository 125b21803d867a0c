// The bundled examples beyond Fashion-MNIST, run as a user would: the CSV regression as shipped
// (fewer epochs), the image-folder example on images drawn by `torchwright demo-images`, the
// Transformer example checked and trained briefly on a Fashion-MNIST slice, the token-sequence
// Transformer as shipped, the byte-level language model on its bundled token file, and the
// fine-tuning example's three runs (briefly; tests/bench/bench_finetune.py compares them whole).

#include "cli_runner.h"

#include "tracking/store.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

namespace {

double latest(tw::tracking::Store &store, int64_t runId, const std::string &key) {
  for (const auto &m : store.latestMetrics(runId))
    if (m.key == key) return m.value;
  return -1.0;
}

}  // namespace

class TestCliExamples : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir m_dir;
  QString workspace() const { return m_dir.path() + "/ws"; }

 private Q_SLOTS:
  void csvRegressionExample() {
    auto r = runCli({"train", TW_SOURCE_DIR "/resources/examples/houses_regression.run.yaml", "--workspace",
                     workspace(), "--set", "train.epochs=40", "--set", "tracking.run_name=houses"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    QVERIFY2(r.out.contains("R2"), qPrintable(r.out));
    auto store = tw::tracking::Store::open((workspace() + "/tracking.db").toStdString());
    const auto run = store->findRun("houses");
    QVERIFY(run.has_value());
    QVERIFY2(latest(*store, run->id, "test/r2") > 0.9, qPrintable(QString::number(latest(*store, run->id, "test/r2"))));
    // The data path was relative to the run file; the record holds where it really was.
    QVERIFY(store->params(run->id).at("data.path").find("/resources/examples/data/houses.csv") != std::string::npos);
  }

  void transformerExample() {
    const QString runFile = TW_SOURCE_DIR "/resources/examples/fashion_transformer.run.yaml";
    auto check = runCli({"check", runFile});
    QVERIFY2(check.exitCode == 0, qPrintable(check.all()));
    QVERIFY2(check.out.contains("TransformerEncoderLayer"), qPrintable(check.out));
    QVERIFY2(check.out.contains("71,242"), qPrintable(check.out));  // as torch counts the layers
    QVERIFY(check.out.contains("[N, 28, 64]") && check.out.contains("[N, 10]"));

    auto r = runCli({"train", runFile, "--workspace", workspace(), "--set", "train.epochs=2", "--set",
                     "data.train_limit=2000", "--set", "data.test_limit=500", "--set", "train.warmup_steps=0",
                     "--set", "tracking.run_name=transformer"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    auto store = tw::tracking::Store::open((workspace() + "/tracking.db").toStdString());
    const auto run = store->findRun("transformer");
    QVERIFY(run.has_value());
    // Ten classes, chance is 0.1; these 30 steps measured 0.54-0.58 across seeds.
    QVERIFY2(latest(*store, run->id, "test/accuracy") > 0.4,
             qPrintable(QString::number(latest(*store, run->id, "test/accuracy"))));
  }

  // Pretrain on classes 0-4, fine-tune on 500 images of 5-9 from that run by its name: the
  // backbone and dense layer taken, the new head from the seed, every run scoring above chance.
  void fineTuningExample() {
    QTemporaryDir dir;
    const QString ws = dir.path() + "/ws", examples = TW_SOURCE_DIR "/resources/examples/";
    auto pretrain = runCli({"train", examples + "fashion_pretrain.run.yaml", "--workspace", ws, "--set",
                            "train.epochs=1", "--set", "data.train_limit=3000", "--set", "data.test_limit=500"});
    QVERIFY2(pretrain.exitCode == 0, qPrintable(pretrain.all()));
    auto tuned = runCli({"train", examples + "fashion_finetune.run.yaml", "--workspace", ws, "--set", "train.epochs=1",
                         "--set", "data.test_limit=500"});
    QVERIFY2(tuned.exitCode == 0, qPrintable(tuned.all()));
    QVERIFY2(tuned.out.contains("weights from run:fashion-pretrain@best: 16 of 18 tensors taken") &&
                 tuned.out.contains("missing         head.weight [5, 256] (starts from the seed)"),
             qPrintable(tuned.out));
    QVERIFY2(tuned.out.contains("train/val/test   450 / 50 / 500"), qPrintable(tuned.out));
    auto scratch = runCli({"train", examples + "fashion_scratch.run.yaml", "--workspace", ws, "--set", "train.epochs=1",
                           "--set", "data.test_limit=500"});
    QVERIFY2(scratch.exitCode == 0, qPrintable(scratch.all()));
    auto store = tw::tracking::Store::open((ws + "/tracking.db").toStdString());
    for (const char *name : {"fashion-pretrain", "fashion-finetune", "fashion-scratch"}) {
      const auto run = store->findRun(name);
      QVERIFY2(run.has_value() && latest(*store, run->id, "test/accuracy") > 0.2, name);  // five classes: chance 0.2
    }
  }

  // As shipped: the synthetic token set needs no file. Four classes, chance is 0.25.
  void tokensTransformerExample() {
    const QString runFile = TW_SOURCE_DIR "/resources/examples/tokens_transformer.run.yaml";
    auto check = runCli({"check", runFile});
    QVERIFY2(check.exitCode == 0, qPrintable(check.all()));
    QVERIFY2(check.out.contains("[N, 32, 32]") && check.out.contains("[N, 4]"), qPrintable(check.out));
    auto r = runCli({"train", runFile, "--workspace", workspace(), "--set", "tracking.run_name=tokens"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    auto store = tw::tracking::Store::open((workspace() + "/tracking.db").toStdString());
    const auto run = store->findRun("tokens");
    QVERIFY(run.has_value());
    QVERIFY2(latest(*store, run->id, "test/accuracy") > 0.8,
             qPrintable(QString::number(latest(*store, run->id, "test/accuracy"))));
  }

  // As shipped, three epochs instead of twelve: a causal Transformer predicting the next byte of
  // the bundled token file. The most frequent byte (the space) is 14% of the test split; a model
  // that learned nothing but that stays at or below it, and a uniform guess has perplexity 256.
  void tokenFileLanguageModelExample() {
    const QString runFile = TW_SOURCE_DIR "/resources/examples/tokens_lm.run.yaml";
    auto check = runCli({"check", runFile});
    QVERIFY2(check.exitCode == 0, qPrintable(check.all()));
    QVERIFY2(check.out.contains("[N, 64, 256]"), qPrintable(check.out));
    auto r = runCli({"train", runFile, "--workspace", workspace(), "--set", "tracking.run_name=bytes", "--set",
                     "train.epochs=3"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    QVERIFY2(r.out.contains("val perplexity") && r.out.contains("best             epoch"), qPrintable(r.out));
    auto store = tw::tracking::Store::open((workspace() + "/tracking.db").toStdString());
    const auto run = store->findRun("bytes");
    QVERIFY(run.has_value());
    QVERIFY2(latest(*store, run->id, "test/accuracy") > 0.2,
             qPrintable(QString::number(latest(*store, run->id, "test/accuracy"))));
    const double perplexity = latest(*store, run->id, "test/perplexity");
    QVERIFY2(perplexity > 1.0 && perplexity < 20.0, qPrintable(QString::number(perplexity)));
    // `data bench` reads every training window once, as an epoch does.
    auto bench = runCli({"data", "bench", runFile, "--json"});
    QVERIFY2(bench.exitCode == 0, qPrintable(bench.all()));
    QVERIFY2(bench.out.contains("\"examples\": 1172") && bench.out.contains("\"streamed\": true"),
             qPrintable(bench.out));
  }

  // A token file that is no whole number of tokens is refused by `check` and by `train` before a
  // run is recorded, naming the file.
  void damagedTokenFileIsRefusedBeforeRecording() {
    const QString bad = m_dir.path() + "/odd.bin";
    QFile file(bad);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray(2001, 'a'));
    file.close();
    const QString runFile = TW_SOURCE_DIR "/resources/examples/tokens_lm.run.yaml";
    const QString ws = m_dir.path() + "/refused_ws";
    auto r = runCli({"train", runFile, "--workspace", ws, "--set", "data.path=" + bad});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.all().contains("field 'data.path'") && r.all().contains("odd.bin") && r.all().contains("2,001 bytes"),
             qPrintable(r.all()));
    auto listed = runCli({"runs", "list", "--workspace", ws, "--json"});
    QVERIFY2(listed.exitCode == 1 && listed.all().contains("no tracking database"), qPrintable(listed.all()));
  }

  void imageFolderExample() {
    const QString images = m_dir.path() + "/shapes";
    auto made = runCli({"demo-images", images, "--per-class", "80"});
    QVERIFY2(made.exitCode == 0, qPrintable(made.all()));
    QCOMPARE(QDir(images + "/triangle").entryList(QDir::Files).size(), 80);
    auto r = runCli({"train", TW_SOURCE_DIR "/resources/examples/shapes_cnn.run.yaml", "--workspace", workspace(),
                     "--set", "data.path=" + images, "--set", "tracking.run_name=shapes"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    auto store = tw::tracking::Store::open((workspace() + "/tracking.db").toStdString());
    const auto run = store->findRun("shapes");
    QVERIFY2(latest(*store, run->id, "test/accuracy") > 0.9,
             qPrintable(QString::number(latest(*store, run->id, "test/accuracy"))));
    QVERIFY(QFile::exists(QString::fromStdString(run->runDir) + "/artifacts/test_confusion_matrix.csv"));
    const auto artifacts = store->artifacts(run->id);
    QVERIFY(std::any_of(artifacts.begin(), artifacts.end(), [](auto &a) { return a.path == "checkpoints/best.pt"; }));
  }
};

QTEST_GUILESS_MAIN(TestCliExamples)
#include "test_cli_examples.moc"
