// The rules between optimiser options that the engine applies and every check before a run asks.

#include "core/config/optimizer_rules.h"

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
};

QTEST_APPLESS_MAIN(TestOptimizerRules)
#include "test_optimizer_rules.moc"
