// The rules between optimiser options that the engine applies and every check before a run asks,
// and the tables of optimisers and losses that the config table, the validator, the memory
// estimate and the engine read.

#include "core/config/config_fields.h"
#include "core/config/loss_table.h"
#include "core/config/optimizer_rules.h"
#include "core/config/optimizer_table.h"

#include <QtTest>

using tw::config::TrainOptions;

class TestOptimizerRules : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void nesterov_data() {
    QTest::addColumn<QString>("optimizer");
    QTest::addColumn<bool>("nesterov");
    QTest::addColumn<double>("momentum");
    QTest::addColumn<bool>("refused");
    QTest::newRow("sgd nesterov with momentum") << "sgd" << true << 0.9 << false;
    QTest::newRow("sgd nesterov without momentum") << "sgd" << true << 0.0 << true;
    QTest::newRow("sgd plain without momentum") << "sgd" << false << 0.0 << false;
    // Only SGD reads nesterov; other optimisers ignore it, so it is no reason to refuse them.
    QTest::newRow("adam ignores nesterov") << "adam" << true << 0.0 << false;
  }

  void nesterov() {
    QFETCH(QString, optimizer);
    QFETCH(bool, nesterov);
    QFETCH(double, momentum);
    QFETCH(bool, refused);
    TrainOptions t;
    t.optimizer = optimizer.toStdString();
    t.nesterov = nesterov;
    t.momentum = momentum;
    const std::string problem = tw::config::nesterovProblem(t);
    QCOMPARE(!problem.empty(), refused);
    if (refused) {
      QVERIFY2(problem.find("train.nesterov") != std::string::npos, problem.c_str());
      QVERIFY2(problem.find("train.momentum") != std::string::npos, problem.c_str());
    }
    QCOMPARE(tw::config::kSgdDampening, 0.0);  // what Nesterov momentum requires
  }

  // The run-file keys offer exactly the tables' names; every loss rule comes from the table.
  void oneTableOfOptimisersAndLosses() {
    QCOMPARE(tw::config::findConfigField("train.optimizer")->choices, tw::config::optimizerNames());
    QCOMPARE(tw::config::findConfigField("train.loss")->choices, tw::config::lossNames());
    TrainOptions t;
    t.optimizer = "sgd";
    t.momentum = 0.0;
    QCOMPARE(tw::config::findOptimizer("sgd")->stateTensors(t), 0);
    t.momentum = 0.9;
    QCOMPARE(tw::config::findOptimizer("sgd")->stateTensors(t), 1);
    QCOMPARE(tw::config::findOptimizer("adamw")->stateTensors(t), 2);
    QVERIFY(!tw::config::findOptimizer("lbfgs"));

    using tw::config::metrics::RunTask;
    QVERIFY(tw::config::lossProblem("huber", RunTask::Regression, 0.0).message.empty());
    QVERIFY(tw::config::lossProblem("bce_with_logits", RunTask::Classification, 0.0).message.empty());
    const auto regressionOnClasses = tw::config::lossProblem("mse", RunTask::Classification, 0.0);
    QCOMPARE(regressionOnClasses.field, std::string("train.loss"));
    QVERIFY2(regressionOnClasses.message.find("use cross_entropy or bce_with_logits") != std::string::npos,
             regressionOnClasses.message.c_str());
    QVERIFY(tw::config::lossProblem("cross_entropy", RunTask::Regression, 0.0).message.find("use mse, l1 or huber") !=
            std::string::npos);
    QVERIFY(!tw::config::lossProblem("bce_with_logits", RunTask::NextToken, 0.0).message.empty());
    QCOMPARE(tw::config::lossProblem("bce_with_logits", RunTask::Classification, 0.1).field,
             std::string("train.label_smoothing"));
    QVERIFY(tw::config::lossProblem("hinge", RunTask::Classification, 0.0).message.find("unknown loss 'hinge'") !=
            std::string::npos);
  }
};

QTEST_APPLESS_MAIN(TestOptimizerRules)
#include "test_optimizer_rules.moc"
