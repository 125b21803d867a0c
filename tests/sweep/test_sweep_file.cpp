// Sweep files read and checked: the issue's space as written, every section's defaults and
// overrides, and bad input, each refused with the file, line and key.
#include "core/sweep/sweep_file.h"
#include "core/sweep/sweep_writer.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace tw;

namespace {

const std::string kExamples = std::string(TW_SOURCE_DIR) + "/resources/examples/";
// The example's sampler is tpe, which another part of the catalog provides; these tests need only
// what every build has.
const std::vector<std::string> kPlainMethods = {"sampler.type=random"};

std::string withBase(std::string text) {
  const std::string placeholder = "%BASE%";
  for (size_t at = text.find(placeholder); at != std::string::npos; at = text.find(placeholder))
    text.replace(at, placeholder.size(), kExamples + "fashion_mlp.run.yaml");
  return text;
}

// The message of the ConfigError parsing `text` throws, or "" when it parses.
QString problemsOf(const std::string &text, const std::string &file = "bad.sweep.yaml", bool requireBase = true) {
  try {
    sweep::parseSweepFile(withBase(text), file, {}, requireBase);
  } catch (const config::ConfigError &e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

}  // namespace

class TestSweepFile : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void issueExampleParsesAsWritten() {
    const sweep::SweepFile s = sweep::loadSweepFile(kExamples + "fashion_mlp.sweep.yaml", kPlainMethods);
    QCOMPARE(s.studyName, std::string("fashion_mlp"));
    QVERIFY(s.baseFile.size() > 0 && s.baseFile.find("fashion_mlp.run.yaml") != std::string::npos);
    QVERIFY(s.baseYaml.find("fashion_mlp.model.yaml") != std::string::npos);
    QCOMPARE(s.objectives.size(), size_t(1));
    QCOMPARE(s.objectives[0].metric, std::string("val/accuracy"));
    QVERIFY(s.objectives[0].direction == search::Direction::Maximize);
    QCOMPARE(s.seed, uint64_t(1));
    QCOMPARE(s.pruner, std::string("median"));
    QVERIFY(s.prunerOptions.empty());
    QCOMPARE(s.budget.trials, 24);
    QCOMPARE(s.budget.minutes, 120.0);
    QCOMPARE(s.parallel, 2);
    QVERIFY(!s.parallelAuto);
    QVERIFY(s.text.find("model.h1.width") != std::string::npos);

    QCOMPARE(s.space.params.size(), size_t(5));
    const search::ParamSpec *lr = s.space.find("train.lr");
    QVERIFY(lr && lr->type == search::ParamType::Float && lr->log && lr->low == 1e-4 && lr->high == 0.3);
    QCOMPARE(lr->line, 7);
    const search::ParamSpec *opt = s.space.find("train.optimizer");
    QVERIFY(opt && opt->type == search::ParamType::Categorical);
    QCOMPARE(opt->choices, (std::vector<std::string>{"sgd", "adam"}));
    const search::ParamSpec *momentum = s.space.find("train.momentum");
    QVERIFY(momentum && momentum->when.size() == 1);
    QCOMPARE(momentum->when[0].key, std::string("train.optimizer"));
    QCOMPARE(momentum->when[0].values, std::vector<std::string>{"sgd"});
    const search::ParamSpec *batch = s.space.find("data.batch_size");
    QVERIFY(batch && batch->type == search::ParamType::Int && batch->log && batch->low == 16 && batch->high == 256);
    const search::ParamSpec *width = s.space.find("model.h1.width");
    QVERIFY(width && width->type == search::ParamType::Int && width->step == 32 && width->high == 512);
  }

  void defaults() {
    const sweep::SweepFile s = sweep::parseSweepFile(withBase("base: %BASE%\n"
                                                              "space: {train.lr: {type: float, low: 0.001, high: 0.1}}\n"
                                                              "sampler: random\n"
                                                              "budget: {minutes: 5}\n"),
                                                     "/tmp/lr-search.sweep.yaml");
    QCOMPARE(s.studyName, std::string("lr-search"));
    // No objective: the metric the base run already watches (train.monitor, val/loss by default),
    // in its direction.
    QCOMPARE(s.objectives.size(), size_t(1));
    QCOMPARE(s.objectives[0].metric, std::string("val/loss"));
    QVERIFY(s.objectives[0].direction == search::Direction::Minimize);
    QCOMPARE(s.pruner, std::string("none"));
    QCOMPARE(s.parallel, 1);
    QCOMPARE(s.retries, 0);
    QCOMPARE(s.budget.trials, 0);
    QCOMPARE(s.budget.minutes, 5.0);
  }

  // Without a sampler key: the catalog's default with its own option defaults (the multivariate
  // TPE, chosen by tests/bench/bench_samplers.sh), nothing written into the sweep.
  void samplerDefaultsToTheCatalogs() {
    const sweep::SweepFile s = sweep::parseSweepFile(
        withBase("base: %BASE%\nspace: {train.lr: [0.1, 0.01]}\nbudget: {trials: 2}\n"), "d.yaml");
    QCOMPARE(s.sampler, search::defaultSamplerName());
    QVERIFY(s.samplerOptions.empty());
    QCOMPARE(s.seed, uint64_t(0));
  }

  void directionFollowsTheMetric_data() {
    QTest::addColumn<QString>("metric");
    QTest::addColumn<bool>("maximize");
    QTest::newRow("accuracy") << "val/accuracy" << true;
    QTest::newRow("f1") << "val/f1_macro" << true;
    QTest::newRow("loss") << "val/loss" << false;
  }
  void directionFollowsTheMetric() {
    QFETCH(QString, metric);
    QFETCH(bool, maximize);
    const sweep::SweepFile s = sweep::parseSweepFile(
        withBase("base: %BASE%\nobjective: {metric: " + metric.toStdString() +
                 "}\nspace: {train.lr: [0.1, 0.01]}\nsampler: random\nbudget: {trials: 2}\n"),
        "d.yaml");
    QCOMPARE(s.objectives[0].direction == search::Direction::Maximize, maximize);
  }

  void twoObjectivesWithTheParameterCount() {
    const sweep::SweepFile s = sweep::parseSweepFile(
        withBase("base: %BASE%\n"
                 "objective: [{metric: val/accuracy}, params]\n"
                 "space: {model.h1.width: {type: int, low: 32, high: 256}}\n"
                 "sampler: random\nbudget: {trials: 2}\nparallel: auto\nretries: 2\nstudy: front\n"),
        "two.yaml");
    QCOMPARE(s.objectives.size(), size_t(2));
    QVERIFY(s.objectives[0].direction == search::Direction::Maximize);
    QCOMPARE(s.objectives[1].metric, std::string("params"));
    QVERIFY(s.objectives[1].direction == search::Direction::Minimize);
    QVERIFY(s.parallelAuto);
    QCOMPARE(s.retries, 2);
    QCOMPARE(s.studyName, std::string("front"));
  }

  void overridesSetTheSweepFilesOwnKeys() {
    const sweep::SweepFile s = sweep::loadSweepFile(
        kExamples + "fashion_mlp.sweep.yaml",
        {"sampler.type=random", "pruner.type=asha", "pruner.reduction_factor=4", "budget.trials=10", "parallel=3",
         "sampler.seed=7", "space.train.lr.high=0.1", "study=quick"});
    QCOMPARE(s.budget.trials, 10);
    QCOMPARE(s.parallel, 3);
    QCOMPARE(s.seed, uint64_t(7));
    QCOMPARE(s.space.find("train.lr")->high, 0.1);
    QCOMPARE(s.studyName, std::string("quick"));
    QCOMPARE(s.pruner, std::string("asha"));
    QCOMPARE(s.prunerOptions, (search::OptionValues{{"reduction_factor", "4"}}));
  }

  void badOverridesAreNamed_data() {
    QTest::addColumn<QString>("override_");
    QTest::addColumn<QString>("expected");
    QTest::newRow("no value") << "budget.trials" << "override 'budget.trials': expected key=value";
    QTest::newRow("a map") << "budget={trials: 3}" << "sets a single value";
    QTest::newRow("into a map") << "space=3" << "holds more than one value";
    QTest::newRow("unknown key") << "bugdet.trials=3" << "(set by an override): unknown key 'bugdet'";
    QTest::newRow("bad value") << "budget.trials=-2" << "(set by an override): key 'budget.trials': must be 0 or more";
    QTest::newRow("under a scalar") << "parallel.x=1" << "'parallel' is not a map";
  }
  void badOverridesAreNamed() {
    QFETCH(QString, override_);
    QFETCH(QString, expected);
    std::vector<std::string> overrides = kPlainMethods;
    overrides.push_back(override_.toStdString());
    QString message;
    try {
      sweep::loadSweepFile(kExamples + "fashion_mlp.sweep.yaml", overrides);
    } catch (const config::ConfigError &e) {
      message = e.what();
    }
    QVERIFY2(message.contains(expected), qPrintable(message));
  }

  void badInputIsNamed_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("expected");
    const QString head = "base: %BASE%\nsampler: random\nbudget: {trials: 4}\n";  // lines 1-3
    QTest::newRow("malformed YAML") << head + "space:\n  train.lr: {type: float, low: 1\n" << 6 << "invalid YAML";
    QTest::newRow("unknown top-level key")
        << head + "space: {train.lr: [0.1]}\nbugdet: 3\n" << 5 << "unknown key 'bugdet' (did you mean 'budget'?)";
    QTest::newRow("unknown run-file key")
        << head + "space:\n  train.lrr: {type: float, low: 0.1, high: 1}\n" << 5 << "did you mean 'train.lr'?";
    QTest::newRow("lr above the table's max")
        << head + "space:\n  train.lr: {type: float, low: 0.1, high: 2000}\n" << 5
        << "space key 'train.lr': high 2000 is outside what the run-file key train.lr (float) allows ([0, 1000])";
    QTest::newRow("batch size of zero")
        << head + "space:\n  data.batch_size: {type: int, low: 0, high: 64}\n" << 5
        << "space key 'data.batch_size': low 0 is outside";
    QTest::newRow("a choice the key does not allow")
        << head + "space:\n  train.optimizer: [sgd, lbfgs]\n" << 5
        << "choice 'lbfgs' is not allowed for the run-file key train.optimizer (string): expected one of sgd, adam";
    QTest::newRow("a float for an int key")
        << head + "space:\n  data.batch_size: {type: float, low: 16, high: 64}\n" << 5
        << "a float parameter cannot set the run-file key data.batch_size (int)";
    QTest::newRow("a range for a bool key")
        << head + "space:\n  data.shuffle: {type: int, low: 0, high: 1}\n" << 5 << "takes true or false";
    QTest::newRow("a model field that does not exist")
        << head + "space:\n  model.h1.widht: {type: int, low: 32, high: 64}\n" << 5
        << "node 'h1' (block dense) has no parameter 'widht' (did you mean 'width'?)";
    QTest::newRow("a model node that does not exist")
        << head + "space:\n  model.h3.width: {type: int, low: 32, high: 64}\n" << 5 << "the model has no node 'h3'";
    QTest::newRow("an op's field that does not exist")
        << head + "space:\n  model.logits.out_feature: {type: int, low: 32, high: 64}\n" << 5
        << "node 'logits' (Linear) has no parameter 'out_feature' (did you mean 'out_features'?); searchable: "
           "out_features, bias";
    QTest::newRow("an inferred field")
        << head + "space:\n  model.logits.in_features: {type: int, low: 32, high: 64}\n" << 5
        << "inferred from the incoming shape";
    QTest::newRow("a member of a block instance")
        << head + "space:\n  model.h1.fc.out_features: {type: int, low: 32, high: 64}\n" << 5
        << "search model.h1.width";
    QTest::newRow("a block parameter out of its op's range")
        << head + "space:\n  model.h1.p: {type: float, low: 0.1, high: 1.5}\n" << 5
        << "high 1.5 is outside what block dense's p, which sets p (float) allows ([0, 1])";
    QTest::newRow("empty space") << head + "space: {}\n" << 4 << "the space is empty";
    QTest::newRow("no space") << head << 1 << "no 'space'";
    QTest::newRow("budget of zero")
        << "base: %BASE%\nsampler: random\nspace: {train.lr: [0.1]}\nbudget: {trials: 0}\n" << 4
        << "a budget of zero runs no trial";
    QTest::newRow("unknown sampler")
        << "base: %BASE%\nbudget: {trials: 4}\nspace: {train.lr: [0.1]}\nsampler: {type: randum}\n" << 4
        << "unknown sampler 'randum' (did you mean 'random'?) (known: ";
    QTest::newRow("bad sampler option")
        << "base: %BASE%\nbudget: {trials: 4}\nspace: {train.lr: [0.1]}\nsampler: {type: random,\n  n_startup: 3}\n"
        << 5 << "sampler 'random': unknown option 'n_startup'";
    QTest::newRow("group without multivariate")
        << "base: %BASE%\nbudget: {trials: 4}\nspace: {train.lr: [0.1]}\nsampler:\n  type: tpe\n"
           "  multivariate: false\n  group: true\n"
        << 7 << "sampler 'tpe': option 'group': true needs 'multivariate: true'";
    QTest::newRow("unknown pruner")
        << head + "space: {train.lr: [0.1]}\npruner: {type: nope}\n" << 5 << "unknown pruner 'nope'";
    QTest::newRow("bad pruner option")
        << head + "space: {train.lr: [0.1]}\npruner:\n  type: median\n  n_startup_trials: -1\n" << 7
        << "pruner 'median': option 'n_startup_trials': -1 is outside >= 0";
    QTest::newRow("when on an unknown key")
        << head + "space:\n  train.lr: [0.1]\n  train.momentum: {type: float, low: 0, high: 0.9, when: {train.optimiser: sgd}}\n"
        << 6 << "'when' names 'train.optimiser'";
    QTest::newRow("log from zero")
        << head + "space:\n  train.lr: {type: float, low: 0, high: 0.1, log: true}\n" << 5 << "log needs low > 0";
    QTest::newRow("no type") << head + "space:\n  train.lr: {low: 0, high: 0.1}\n" << 5 << "needs 'type'";
    QTest::newRow("unknown param field")
        << head + "space:\n  train.lr: {type: float, low: 0.1, high: 0.2, lg: true}\n" << 5
        << "unknown field 'lg' (did you mean 'log'?)";
    QTest::newRow("a metric the run does not record")
        << head + "space: {train.lr: [0.1]}\nobjective: {metric: val/r2}\n" << 5
        << "'val/r2' is not a validation metric this run records";
    QTest::newRow("bad direction")
        << head + "space: {train.lr: [0.1]}\nobjective: {metric: val/loss, direction: up}\n" << 5
        << "'up' is not minimize or maximize";
    QTest::newRow("params alone")
        << head + "space: {train.lr: [0.1]}\nobjective: {metric: params}\n" << 5 << "only beside another metric";
    QTest::newRow("three objectives")
        << head + "space: {train.lr: [0.1]}\nobjective: [val/loss, val/accuracy, params]\n" << 5 << "a list of two";
    QTest::newRow("parallel zero") << head + "space: {train.lr: [0.1]}\nparallel: 0\n" << 5 << "key 'parallel'";
    QTest::newRow("negative retries") << head + "space: {train.lr: [0.1]}\nretries: -1\n" << 5 << "key 'retries'";
    QTest::newRow("no base") << "sampler: random\nbudget: {trials: 4}\nspace: {train.lr: [0.1]}\n" << 1 << "no 'base'";
    QTest::newRow("a base that does not exist")
        << "base: missing.run.yaml\nsampler: random\nbudget: {trials: 4}\nspace: {train.lr: [0.1]}\n" << 1
        << "cannot read the run file";
    QTest::newRow("a base that does not load")
        << "base: {model: {nodes: []}, train: {lr: -1}}\nsampler: random\nbudget: {trials: 4}\nspace: {train.lr: [0.1]}\n"
        << 1 << "the base run does not load: key 'train.lr': expected a value in [0, 1000]";
    QTest::newRow("an unknown executor") << head + "space: {train.lr: [0.1]}\nexecutor: mesos\n" << 5
                                         << "'mesos' is not an executor (local, slurm, kubernetes)";
    QTest::newRow("kubernetes without its image")
        << head + "space: {train.lr: [0.1]}\nexecutor: {type: kubernetes, workspace_claim: ws}\n" << 5
        << "type kubernetes needs 'image'";
    QTest::newRow("a claim that is not a Kubernetes name")
        << head + "space: {train.lr: [0.1]}\nexecutor: {type: kubernetes, image: tw:1, workspace_claim: My_Claim}\n" << 5
        << "key 'executor.workspace_claim': 'My_Claim' is not a Kubernetes name";
    QTest::newRow("an sbatch option for kubernetes")
        << head + "space: {train.lr: [0.1]}\nexecutor: {type: kubernetes, image: tw:1, workspace_claim: ws, sbatch: []}\n"
        << 5 << "unknown field 'sbatch' for type kubernetes";
    QTest::newRow("a slurm field on the local executor")
        << head + "space: {train.lr: [0.1]}\nexecutor: {type: local, cpus: 2}\n" << 5
        << "key 'executor.cpus': the local executor plans cores itself";
    QTest::newRow("an unknown executor field")
        << head + "space: {train.lr: [0.1]}\nexecutor: {type: slurm, partiton: gpu}\n" << 5
        << "unknown field 'partiton' (did you mean 'partition'?)";
    QTest::newRow("a memory SLURM cannot read")
        << head + "space: {train.lr: [0.1]}\nexecutor: {type: slurm, memory: 16GB}\n" << 5
        << "key 'executor.memory': '16GB' is not SLURM's form";
    QTest::newRow("a time SLURM cannot read")
        << head + "space: {train.lr: [0.1]}\nexecutor: {type: slurm, time: 2h}\n" << 5
        << "key 'executor.time': '2h' is not SLURM's form";
    QTest::newRow("no cpus") << head + "space: {train.lr: [0.1]}\nexecutor: {type: slurm, cpus: 0}\n" << 5
                             << "key 'executor.cpus': expected 1 to 4096";
    QTest::newRow("an sbatch option the driver sets")
        << head + "space: {train.lr: [0.1]}\nexecutor: {type: slurm, sbatch: [--output=x.log]}\n" << 5
        << "'--output=x.log' is set by the sweep driver";
    QTest::newRow("a study name that is not portable")
        << head + "space: {train.lr: [0.1]}\nstudy: my study\n" << 5 << "study name 'my study'";
  }
  void badInputIsNamed() {
    QFETCH(QString, text);
    QFETCH(int, line);
    QFETCH(QString, expected);
    const QString message = problemsOf(text.toStdString());
    const QString at = "bad.sweep.yaml:" + QString::number(line) + ":";
    QVERIFY2(message.contains(at), qPrintable("expected " + at + " in:\n" + message));
    QVERIFY2(message.contains(expected), qPrintable("expected '" + expected + "' in:\n" + message));
  }

  // The slurm executor's request as written, and what the writer gives back reads the same.
  void slurmExecutorReadsAndWritesBack() {
    const sweep::SweepFile s = sweep::parseSweepFile(
        withBase("base: %BASE%\nsampler: random\nspace: {train.lr: [0.1, 0.01]}\nbudget: {trials: 8}\nparallel: 4\n"
                 "executor:\n  type: slurm\n  partition: gpu\n  account: vision\n  cpus: 4\n  gpus: 1\n"
                 "  memory: 16G\n  time: \"02:00:00\"\n  sbatch: [--qos=high, --constraint=a100]\n"),
        "/tmp/s.sweep.yaml");
    QVERIFY(s.executor.slurm());
    QCOMPARE(s.executor.partition, std::string("gpu"));
    QCOMPARE(s.executor.account, std::string("vision"));
    QCOMPARE(s.executor.cpus, 4);
    QCOMPARE(s.executor.gpus, 1);
    QCOMPARE(s.executor.memory, std::string("16G"));
    QCOMPARE(s.executor.time, std::string("02:00:00"));
    QCOMPARE(s.executor.sbatchOptions, (std::vector<std::string>{"--qos=high", "--constraint=a100"}));
    const sweep::SweepFile back = sweep::parseSweepFile(sweep::sweepYaml(s), "/tmp/s.sweep.yaml");
    QVERIFY(back.executor.slurm());
    QCOMPARE(back.executor.partition, s.executor.partition);
    QCOMPARE(back.executor.account, s.executor.account);
    QCOMPARE(back.executor.cpus, s.executor.cpus);
    QCOMPARE(back.executor.gpus, s.executor.gpus);
    QCOMPARE(back.executor.memory, s.executor.memory);
    QCOMPARE(back.executor.time, s.executor.time);
    QCOMPARE(back.executor.sbatchOptions, s.executor.sbatchOptions);
    // The default: local.
    const sweep::SweepFile local = sweep::parseSweepFile(
        withBase("base: %BASE%\nsampler: random\nspace: {train.lr: [0.1]}\nbudget: {trials: 1}\n"), "/tmp/l.sweep.yaml");
    QVERIFY(!local.executor.slurm());
    QVERIFY(sweep::changeableOnResume("executor.partition"));
  }

  void everyProblemIsListed() {
    const QString message = problemsOf("base: %BASE%\nsampler: randum\nbudget: {trials: 0}\nspace:\n"
                                       "  train.lr: {type: float, low: 0.1, high: 2000}\n"
                                       "  model.h9.width: {type: int, low: 1, high: 2}\n");
    for (const char *expected : {"bad.sweep.yaml:2:10: key 'sampler': unknown sampler 'randum'",
                                 "bad.sweep.yaml:3:9: key 'budget': a budget of zero",
                                 "bad.sweep.yaml:5:3: space key 'train.lr': high 2000",
                                 "bad.sweep.yaml:6:3: space key 'model.h9.width': the model has no node 'h9'"})
      QVERIFY2(message.contains(expected), qPrintable(QString(expected) + " not in:\n" + message));
    QCOMPARE(message.count('\n'), 3);
  }

  void aSamplerMustFitTheSweep() {
    // Every sampler in the catalog: refused with two objectives exactly when it handles one, and
    // with a categorical exactly when it handles none.
    for (const search::SamplerEntry &entry : search::samplerCatalog()) {
      const std::string head = "base: %BASE%\nbudget: {trials: 4}\nsampler: " + entry.name + "\n";
      const QString two = problemsOf(head + "objective: [val/accuracy, params]\nspace: {train.lr: {type: float, low: 0.1, high: 0.2}}\n");
      QCOMPARE(two.contains("optimises one objective"), !entry.multiObjective);
      const QString categorical = problemsOf(head + "space: {train.optimizer: [sgd, adam]}\n");
      QCOMPARE(categorical.contains("searches numbers only"), !entry.categorical);
    }
  }

  void withoutABaseKeysAreTheObjectivesOwn() {
    // `study create`: the objective is an external program, so keys are its names.
    const sweep::SweepFile s = sweep::parseSweepFile("objective: {metric: loss, direction: minimize}\n"
                                                     "space: {x: {type: float, low: -5, high: 10}, y: [a, b]}\n"
                                                     "sampler: random\n",
                                                     "branin.yaml", {}, /*requireBase=*/false);
    QVERIFY(s.baseYaml.empty());
    QCOMPARE(s.space.params.size(), size_t(2));
    QCOMPARE(s.studyName, std::string("branin"));
    QVERIFY(problemsOf("space: {x: [1, 2]}\nsampler: random\n", "b.yaml", false).contains("no 'objective'"));
  }

  void anInlineBaseNamesFilesRelativeToTheSweepFile() {
    const std::string text = "base:\n  model: fashion_mlp.model.yaml\n  data: {dataset: spirals}\n"
                             "space: {model.h2.width: [16, 32]}\nsampler: random\nbudget: {trials: 2}\n";
    const sweep::SweepFile s = sweep::parseSweepFile(text, kExamples + "inline.sweep.yaml");
    QVERIFY(s.baseFile.empty());
    QVERIFY2(s.baseYaml.find(kExamples + "fashion_mlp.model.yaml") != std::string::npos, s.baseYaml.c_str());
    QVERIFY(!sweep::baseHash(s).empty());
  }
};

QTEST_APPLESS_MAIN(TestSweepFile)
#include "test_sweep_file.moc"
