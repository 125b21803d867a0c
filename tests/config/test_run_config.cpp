// The run file: defaults, overrides, precise errors, and a resolved form that reloads identically.

#include "core/config/config_fields.h"
#include "core/config/run_config.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <fstream>

using tw::config::ConfigError;
using tw::config::parseRunConfig;

namespace {

const char *kInlineModel = "model:\n  nodes:\n    - {id: x, op: Input, shape: [4]}\n    - {id: y, op: Linear, out_features: 2}\n";

std::string errorOf(const std::string &yaml, const std::vector<std::string> &overrides = {}) {
  try {
    parseRunConfig(yaml, "run.yaml", overrides);
  } catch (const ConfigError &e) {
    return e.what();
  }
  return {};
}

}  // namespace

class TestRunConfig : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void defaultsAndValues() {
    auto c = parseRunConfig(std::string(kInlineModel) + "train: {lr: 0.01, epochs: 3, optimizer: sgd}\n", "run.yaml");
    QCOMPARE(c.train.lr, 0.01);
    QCOMPARE(c.train.epochs, int64_t(3));
    QCOMPARE(c.train.optimizer, std::string("sgd"));
    QCOMPARE(c.data.batchSize, int64_t(128));
    QCOMPARE(c.train.threads, int64_t(0));
    QCOMPARE(c.distributed.maxRestarts, int64_t(3));  // the README's "--max-restarts (..., 3)"
    QVERIFY(c.modelYaml.find("Linear") != std::string::npos);
    QVERIFY(c.modelFile.empty());
  }

  void tokenSourceKeys() {
    auto c = parseRunConfig(std::string(kInlineModel) + "data: {dataset: tokens, seq_len: 16, vocab_size: 40}\n",
                            "run.yaml");
    QCOMPARE(c.data.dataset, std::string("tokens"));
    QCOMPARE(c.data.seqLen, int64_t(16));
    QCOMPARE(c.data.vocabSize, int64_t(40));
    QCOMPARE(flattenConfig(c).at("data.vocab_size"), std::string("40"));
  }

  void overrides() {
    auto c = parseRunConfig(kInlineModel, "run.yaml", {"train.lr=3e-4", "data.batch_size=256", "train.threads=2"});
    QCOMPARE(c.train.lr, 3e-4);
    QCOMPARE(c.data.batchSize, int64_t(256));
    QCOMPARE(c.train.threads, int64_t(2));
  }

  void errors_data() {
    QTest::addColumn<QString>("yaml");
    QTest::addColumn<QStringList>("overrides");
    QTest::addColumn<QString>("expected");
    const QString m = kInlineModel;
    QTest::newRow("unknown key names file, line and key")
        << m + "train:\n  lr: 0.1\n  lrr: 0.2\n" << QStringList() << "run.yaml:7:3: unknown key 'train.lrr'";
    QTest::newRow("unknown section") << m + "trian: {}\n" << QStringList() << "run.yaml:5:1: unknown key 'trian'";
    QTest::newRow("wrong type") << m + "train: {epochs: many}\n" << QStringList()
                                << "key 'train.epochs': expected an integer, got 'many'";
    // Integer ranges print as integers, not 1048576.000000.
    QTest::newRow("out of range") << m + "data: {batch_size: 0}\n" << QStringList()
                                  << "key 'data.batch_size': expected a value in [1, 1048576], got '0'";
    QTest::newRow("below a minimum") << m << QStringList{"train.step_size=0"} << "expected a value >= 1, got '0'";
    QTest::newRow("tab in indentation") << m + "train:\n  lr: 0.1\n\tepochs: 2\n" << QStringList()
                                        << "run.yaml:7:1: invalid YAML: a tab in the indentation";
    QTest::newRow("nesting too deep") << m + "data: " + QString(600, '[') << QStringList() << "nested too deeply";
    QTest::newRow("duplicate key") << m + "train:\n  lr: 0.1\n  lr: 0.2\n" << QStringList()
                                   << "run.yaml:7:3: key 'lr' appears twice in one map (first on line 6)";
    QTest::newRow("sequence length out of range") << m + "data: {dataset: tokens, seq_len: 0}\n" << QStringList()
                                                  << "key 'data.seq_len': expected a value in [";
    QTest::newRow("bad choice") << m + "train: {optimizer: lbfgs}\n" << QStringList()
                                << "expected one of sgd, adam, adamw, rmsprop, got 'lbfgs'";
    QTest::newRow("bad yaml") << m + "train: {lr: [1, 2\n" << QStringList() << "run.yaml:";
    QTest::newRow("no model") << "train: {lr: 0.1}\n" << QStringList() << "no 'model' given";
    QTest::newRow("missing model file") << "model: does_not_exist.yaml\n" << QStringList()
                                        << "cannot read model file";
    QTest::newRow("unknown override") << m << QStringList{"train.learning_rate=1"}
                                      << "override 'train.learning_rate=1': unknown key 'train.learning_rate' (known in train:";
    QTest::newRow("override without value") << m << QStringList{"train.lr"} << "expected key=value";
    QTest::newRow("override wrong type") << m << QStringList{"train.epochs=1.5"} << "expected an integer, got '1.5'";
  }
  void errors() {
    QFETCH(QString, yaml);
    QFETCH(QStringList, overrides);
    QFETCH(QString, expected);
    std::vector<std::string> ov;
    for (const auto &o : overrides) ov.push_back(o.toStdString());
    const QString message = QString::fromStdString(errorOf(yaml.toStdString(), ov));
    QVERIFY2(message.contains(expected), qPrintable("got: " + message));
  }

  void modelFileRelativeToRunFile() {
    QTemporaryDir dir;
    {
      std::ofstream model((dir.path() + "/m.yaml").toStdString());
      model << "nodes:\n  - {id: x, op: Input, shape: [3]}\n";
      std::ofstream run((dir.path() + "/run.yaml").toStdString());
      run << "model: m.yaml\n";
    }
    auto c = tw::config::loadRunConfig((dir.path() + "/run.yaml").toStdString());
    QVERIFY(c.modelFile.find("m.yaml") != std::string::npos);
    QVERIFY(c.modelYaml.find("Input") != std::string::npos);
  }

  void resolvedYamlRoundTrips() {
    auto c = parseRunConfig(std::string(kInlineModel) + "train: {lr: 0.0003, threads: 2}\ntracking: {run_name: a}\n",
                            "run.yaml", {"data.train_limit=2000"});
    const std::string resolved = tw::config::toYaml(c);
    auto again = parseRunConfig(resolved, "config.yaml");
    QCOMPARE(tw::config::toYaml(again), resolved);
    QCOMPARE(again.train.lr, 0.0003);
    QCOMPARE(again.data.trainLimit, int64_t(2000));
    QCOMPARE(tw::config::configHash(again), tw::config::configHash(c));
  }

  void hashIgnoresTrackingButNotTraining() {
    auto a = parseRunConfig(std::string(kInlineModel) + "tracking: {run_name: a}\n", "run.yaml");
    auto b = parseRunConfig(std::string(kInlineModel) + "tracking: {run_name: b}\n", "run.yaml");
    auto c = parseRunConfig(kInlineModel, "run.yaml", {"train.lr=0.5"});
    QCOMPARE(tw::config::configHash(a), tw::config::configHash(b));
    QVERIFY(tw::config::configHash(a) != tw::config::configHash(c));
    QCOMPARE(tw::config::configHash(a).size(), size_t(64));
  }

  void flattenedParams() {
    auto c = parseRunConfig(kInlineModel, "run.yaml", {"train.lr=0.25"});
    auto flat = tw::config::flattenConfig(c);
    QCOMPARE(flat.at("train.lr"), std::string("0.25"));
    QCOMPARE(flat.at("train.threads"), std::string("auto"));
    QVERIFY(flat.count("data.batch_size"));
    // The shortest text that reads back exactly, not 17 digits of binary noise.
    QCOMPARE(flat.at("data.val_fraction"), std::string("0.1"));
    QCOMPARE(flat.at("train.beta1"), std::string("0.9"));
    auto precise = parseRunConfig(kInlineModel, "run.yaml", {"train.lr=0.00012345678901234567"});
    QCOMPARE(std::stod(tw::config::flattenConfig(precise).at("train.lr")), 0.00012345678901234567);
  }

  // The table says which data source reads which key; Compare offers a key only for its runs'.
  void keysOfDataSources_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("dataset");
    QTest::addColumn<bool>("applies");
    QTest::newRow("csv target, csv") << "data.target" << "csv" << true;
    QTest::newRow("csv target, IDX") << "data.target" << "fashion-mnist" << false;
    QTest::newRow("csv features, tokens") << "data.features" << "tokens" << false;
    QTest::newRow("vocab size, tokens") << "data.vocab_size" << "tokens" << true;
    QTest::newRow("vocab size, csv") << "data.vocab_size" << "csv" << false;
    QTest::newRow("flip, IDX images") << "data.flip" << "mnist" << true;
    QTest::newRow("flip, spirals") << "data.flip" << "spirals" << false;
    QTest::newRow("test share, IDX has its own") << "data.test_fraction" << "fashion-mnist" << false;
    QTest::newRow("test share, csv") << "data.test_fraction" << "csv" << true;
    QTest::newRow("every source") << "train.lr" << "csv" << true;
    QTest::newRow("no source recorded") << "data.target" << "" << true;
    QTest::newRow("not a run-file key") << "model.parameters" << "mnist" << true;
  }

  void keysOfDataSources() {
    QFETCH(QString, key);
    QFETCH(QString, dataset);
    QFETCH(bool, applies);
    QCOMPARE(tw::config::appliesToSource(key.toStdString(), dataset.toStdString()), applies);
  }

  // Every source a row names is one data.dataset offers: a typo would hide the key everywhere.
  void sourcesAreDatasets() {
    const auto &choices = tw::config::findConfigField("data.dataset")->choices;
    int restricted = 0;
    for (const auto &field : tw::config::configFields()) {
      restricted += field.sources.empty() ? 0 : 1;
      for (const std::string &source : field.sources)
        QVERIFY2(std::find(choices.begin(), choices.end(), source) != choices.end(),
                 (field.key + ": " + source).c_str());
    }
    QVERIFY(restricted >= 10);
  }

  // The table says which schedule reads which key, and only schedule keys are restricted: the
  // Launch form shows cosine's min_lr, not step's step_size.
  void keysOfSchedules_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("schedule");
    QTest::addColumn<bool>("applies");
    QTest::newRow("step size, step") << "train.step_size" << "step" << true;
    QTest::newRow("step size, cosine") << "train.step_size" << "cosine" << false;
    QTest::newRow("milestones, multistep") << "train.milestones" << "multistep" << true;
    QTest::newRow("milestones, cosine") << "train.milestones" << "cosine" << false;
    QTest::newRow("gamma, exponential") << "train.gamma" << "exponential" << true;
    QTest::newRow("gamma, plateau") << "train.gamma" << "plateau" << true;
    QTest::newRow("gamma, cosine") << "train.gamma" << "cosine" << false;
    QTest::newRow("gamma, none") << "train.gamma" << "none" << false;
    QTest::newRow("min lr, cosine") << "train.min_lr" << "cosine" << true;
    QTest::newRow("min lr, onecycle") << "train.min_lr" << "onecycle" << false;
    QTest::newRow("pct start, onecycle") << "train.pct_start" << "onecycle" << true;
    QTest::newRow("pct start, cosine") << "train.pct_start" << "cosine" << false;
    QTest::newRow("plateau patience, plateau") << "train.plateau_patience" << "plateau" << true;
    QTest::newRow("plateau patience, step") << "train.plateau_patience" << "step" << false;
    QTest::newRow("warm-up, every schedule") << "train.warmup_steps" << "cosine" << true;
    QTest::newRow("the schedule itself") << "train.schedule" << "none" << true;
    QTest::newRow("no schedule recorded") << "train.gamma" << "" << true;
  }

  void keysOfSchedules() {
    QFETCH(QString, key);
    QFETCH(QString, schedule);
    QFETCH(bool, applies);
    QCOMPARE(tw::config::appliesToSchedule(key.toStdString(), schedule.toStdString()), applies);
  }

  // Every schedule a row names is one train.schedule offers, and only the schedule section's keys
  // depend on the schedule.
  void schedulesAreChoices() {
    const auto &choices = tw::config::findConfigField("train.schedule")->choices;
    int restricted = 0;
    for (const auto &field : tw::config::configFields()) {
      if (field.schedules.empty()) continue;
      ++restricted;
      QCOMPARE(field.section, std::string("schedule"));
      for (const std::string &schedule : field.schedules)
        QVERIFY2(std::find(choices.begin(), choices.end(), schedule) != choices.end(),
                 (field.key + ": " + schedule).c_str());
    }
    QCOMPARE(restricted, 6);
  }
};

QTEST_APPLESS_MAIN(TestRunConfig)
#include "test_run_config.moc"
