// A trial's configuration: the sweep's base with the sampled values applied (run-file keys through
// the config table, model fields into the model), checked before any process would start.
#include "core/spec/analysis.h"
#include "core/sweep/trial_check.h"
#include "core/sweep/trial_params.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace tw;

namespace {

const std::string kExamples = std::string(TW_SOURCE_DIR) + "/resources/examples/";

sweep::SweepFile exampleSweep() {
  return sweep::loadSweepFile(kExamples + "fashion_mlp.sweep.yaml", {"sampler.type=random"});
}

// The values as a person writes them, turned into the sampler's numbers.
search::Params paramsOf(const sweep::SweepFile &s, const std::map<std::string, std::string> &text) {
  return sweep::paramsFromText(s, text);
}

const spec::Node &nodeOf(const spec::ModelSpec &model, const std::string &id) {
  const spec::Node *node = model.find(id);
  if (!node) throw std::runtime_error("no node " + id);
  return *node;
}

QString format(const std::vector<spec::Diagnostic> &diagnostics) {
  return QString::fromStdString(spec::formatDiagnostics(diagnostics));
}

}  // namespace

class TestSweepTrials : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void trialConfigAppliesEveryKey() {
    const sweep::SweepFile s = exampleSweep();
    const config::RunConfig c = sweep::trialConfig(
        s, paramsOf(s, {{"train.lr", "0.0125"}, {"train.optimizer", "sgd"}, {"train.momentum", "0.5"},
                        {"data.batch_size", "64"}, {"model.h1.width", "96"}}));
    QCOMPARE(c.train.lr, 0.0125);
    QCOMPARE(c.train.optimizer, std::string("sgd"));
    QCOMPARE(c.train.momentum, 0.5);
    QCOMPARE(c.data.batchSize, int64_t(64));
    QCOMPARE(c.train.epochs, int64_t(20));  // the base's own settings stay
    QCOMPARE(c.train.schedule, std::string("cosine"));
    // The model keeps its blocks; the instance's parameter reaches the member it sets.
    QVERIFY(c.modelFile.empty());
    QVERIFY(c.modelYaml.find("blocks") != std::string::npos);
    const spec::ModelSpec model = spec::parseModelYaml(c.modelYaml);
    QCOMPARE(spec::getInt(nodeOf(model, "h1.fc").params, "out_features"), int64_t(96));
    QCOMPARE(spec::getInt(nodeOf(model, "h2.fc").params, "out_features"), int64_t(128));
    const spec::Analysis analysis = spec::analyze(model);
    QVERIFY2(analysis.ok(), spec::formatDiagnostics(analysis.diagnostics).c_str());
    QCOMPARE(analysis.find("h2.fc")->inputShapes[0].back(), int64_t(96));
  }

  void anInactiveParameterLeavesTheBaseValue() {
    const sweep::SweepFile s = exampleSweep();
    const config::RunConfig c = sweep::trialConfig(s, paramsOf(s, {{"train.optimizer", "adam"}, {"train.lr", "0.001"}}));
    QCOMPARE(c.train.momentum, config::TrainOptions().momentum);
    // Without a model key the trial trains the base's model file itself.
    QVERIFY(c.modelFile.find("fashion_mlp.model.yaml") != std::string::npos);
  }

  void paramsTextRoundTrips() {
    const sweep::SweepFile s = exampleSweep();
    const std::map<std::string, std::string> text = {
        {"train.lr", "0.0031"}, {"train.optimizer", "adam"}, {"data.batch_size", "128"}, {"model.h1.width", "256"}};
    const search::Params params = sweep::paramsFromText(s, text);
    QCOMPARE(params.at("train.optimizer"), 1.0);
    QCOMPARE(sweep::paramsText(s, params), text);
  }

  void valuesOutsideTheSpaceAreRefused_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("expected");
    QTest::newRow("not a key") << "train.epochs" << "3" << "'train.epochs' is not a key of the sweep's space";
    QTest::newRow("off the step") << "model.h1.width" << "40" << "'40' is not a value";
    QTest::newRow("not a choice") << "train.optimizer" << "rmsprop" << "'rmsprop' is not a value";
  }
  void valuesOutsideTheSpaceAreRefused() {
    QFETCH(QString, key);
    QFETCH(QString, value);
    QFETCH(QString, expected);
    const sweep::SweepFile s = exampleSweep();
    QString message;
    try {
      sweep::paramsFromText(s, {{key.toStdString(), value.toStdString()}});
    } catch (const config::ConfigError &e) {
      message = e.what();
    }
    QVERIFY2(message.contains(expected) && message.contains("fashion_mlp.sweep.yaml"), qPrintable(message));
  }

  void checkTrialNamesTheNodeAShapeMismatchBreaks() {
    // A model whose last layer states its input size: a wider h1 no longer fits it.
    QTemporaryDir dir;
    const std::string model = dir.filePath("m.model.yaml").toStdString();
    std::ofstream(model) << "nodes:\n"
                            "  - {id: x, op: Input, shape: [2]}\n"
                            "  - {id: h1, op: Linear, out_features: 16}\n"
                            "  - {id: act, op: ReLU}\n"
                            "  - {id: out, op: Linear, in_features: 16, out_features: 3}\n";
    std::ofstream(dir.filePath("r.run.yaml").toStdString())
        << "model: m.model.yaml\ndata: {dataset: blobs, samples: 60, classes: 3, batch_size: 16}\ntrain: {epochs: 1}\n";
    const std::string file = dir.filePath("s.sweep.yaml").toStdString();
    std::ofstream(file) << "base: r.run.yaml\nobjective: val/accuracy\nsampler: random\nbudget: {trials: 2}\n"
                           "space:\n  model.h1.out_features: [16, 32]\n  train.loss: [cross_entropy, mse]\n";
    const sweep::SweepFile s = sweep::loadSweepFile(file);

    auto fits = sweep::checkTrial(s, paramsOf(s, {{"model.h1.out_features", "16"}, {"train.loss", "cross_entropy"}}));
    QVERIFY2(fits.empty(), qPrintable(format(fits)));

    auto broken = sweep::checkTrial(s, paramsOf(s, {{"model.h1.out_features", "32"}, {"train.loss", "cross_entropy"}}));
    QVERIFY2(broken.size() == 1, qPrintable(format(broken)));
    QCOMPARE(broken[0].node, std::string("out"));
    QCOMPARE(broken[0].field, std::string("in_features"));
    // At the node's line in the model file a person wrote, not in the generated trial model.
    QCOMPARE(broken[0].where.file, model);
    QCOMPARE(broken[0].where.line, 5);

    // The run's own rules too: a regression loss on a classification task.
    auto rule = sweep::checkTrial(s, paramsOf(s, {{"model.h1.out_features", "16"}, {"train.loss", "mse"}}));
    QVERIFY2(rule.size() == 1 && rule[0].field == "train.loss" && rule[0].message.find("regression loss") != std::string::npos,
             qPrintable(format(rule)));
  }

  void theTrialModelMeansWhatTheFileMeans() {
    // Quoted, '$p' is text (and no Dropout probability); written back unquoted it would name the
    // block parameter and the trial would pass a check the base model fails.
    QTemporaryDir dir;
    std::ofstream(dir.filePath("q.model.yaml").toStdString())
        << "blocks:\n  dense:\n    params: {width: 8, p: 0.1}\n    inputs: [x]\n    nodes:\n"
           "      - {id: fc, op: Linear, out_features: $width, inputs: [x]}\n"
           "      - {id: drop, op: Dropout, p: '$p'}\n"
           "nodes:\n  - {id: x, op: Input, shape: [2]}\n  - {id: h, block: dense}\n  - {id: out, op: Linear, out_features: 3}\n";
    std::ofstream(dir.filePath("q.run.yaml").toStdString()) << "model: q.model.yaml\ndata: {dataset: blobs, samples: 60, batch_size: 16}\n";
    const std::string file = dir.filePath("q.sweep.yaml").toStdString();
    std::ofstream(file) << "base: q.run.yaml\nsampler: random\nbudget: {trials: 1}\nspace: {model.h.width: [8, 16]}\n";
    const sweep::SweepFile s = sweep::loadSweepFile(file);
    const config::RunConfig c = sweep::trialConfig(s, paramsOf(s, {{"model.h.width", "16"}}));
    QVERIFY2(c.modelYaml.find("\"$p\"") != std::string::npos, c.modelYaml.c_str());
    const auto problems = sweep::checkTrial(s, paramsOf(s, {{"model.h.width", "16"}}));
    QVERIFY2(problems.size() == 1 && problems[0].node == "h.drop" && problems[0].field == "p",
             qPrintable(format(problems)));
  }

  void checkTrialReportsAValueTheBaseCannotTake() {
    const sweep::SweepFile s = exampleSweep();
    search::Params params = paramsOf(s, {{"train.lr", "0.01"}});
    params["train.nope"] = 1.0;
    const auto problems = sweep::checkTrial(s, params);
    QVERIFY2(problems.size() == 1 && problems[0].message.find("train.nope") != std::string::npos,
             qPrintable(format(problems)));
  }

  void anInlineBaseTrainsItsModelFile() {
    const sweep::SweepFile s = sweep::parseSweepFile(
        "base:\n  model: fashion_mlp.model.yaml\n  data: {dataset: spirals}\n"
        "space: {model.h2.width: [16, 32], data.noise: {type: float, low: 0.1, high: 0.5}}\n"
        "sampler: random\nbudget: {trials: 2}\n",
        kExamples + "inline.sweep.yaml");
    const config::RunConfig c = sweep::trialConfig(s, paramsOf(s, {{"data.noise", "0.25"}}));
    QCOMPARE(c.modelFile, kExamples + "fashion_mlp.model.yaml");
    QCOMPARE(c.data.noise, 0.25);
    QCOMPARE(c.data.dataset, std::string("spirals"));
  }
};

QTEST_APPLESS_MAIN(TestSweepTrials)
#include "test_sweep_trials.moc"
