// Per-class scores on matrices worked out by hand: the one implementation behind the engine's
// logged metrics and Studio's Evaluation tab, including classes that never occur or are never
// predicted (zero divisions) and an empty matrix.

#include "core/metrics/class_scores.h"

#include <QtTest>

#include <cmath>
#include <stdexcept>

using tw::metrics::ClassScores;
using tw::metrics::classScores;

namespace {

bool near(double a, double b) { return std::abs(a - b) < 1e-12; }

}  // namespace

class TestClassScores : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void handWrittenMatrix() {
    // Rows are the truth. Predicted totals: A 7, B 4, C 5; 12 of 16 on the diagonal.
    const ClassScores s = classScores({5, 1, 0,  //
                                       2, 3, 1,  //
                                       0, 0, 4},
                                      3);
    QCOMPARE(s.examples, int64_t(16));
    QCOMPARE(s.accuracy, 0.75);
    QCOMPARE(int(s.perClass.size()), 3);
    const double precision[] = {5.0 / 7.0, 3.0 / 4.0, 4.0 / 5.0};
    const double recall[] = {5.0 / 6.0, 3.0 / 6.0, 4.0 / 4.0};
    const double f1[] = {10.0 / 13.0, 0.6, 8.0 / 9.0};  // 2PR / (P + R), reduced by hand
    const int64_t support[] = {6, 6, 4};
    for (int c = 0; c < 3; ++c) {
      QVERIFY2(near(s.perClass[c].precision, precision[c]), qPrintable(QString::number(c)));
      QVERIFY2(near(s.perClass[c].recall, recall[c]), qPrintable(QString::number(c)));
      QVERIFY2(near(s.perClass[c].f1, f1[c]), qPrintable(QString::number(c)));
      QCOMPARE(s.perClass[c].support, support[c]);
    }
    QVERIFY(near(s.macroPrecision, (5.0 / 7.0 + 0.75 + 0.8) / 3.0));
    QVERIFY(near(s.macroRecall, 7.0 / 9.0));
    QVERIFY(near(s.macroF1, (10.0 / 13.0 + 0.6 + 8.0 / 9.0) / 3.0));
    QVERIFY(near(s.weightedPrecision, (6 * 5.0 / 7.0 + 6 * 0.75 + 4 * 0.8) / 16.0));
    QVERIFY(near(s.weightedRecall, s.accuracy));  // support-weighted recall is the accuracy
    QVERIFY(near(s.weightedF1, (6 * 10.0 / 13.0 + 6 * 0.6 + 4 * 8.0 / 9.0) / 16.0));
  }

  void absentAndNeverPredictedClasses() {
    // C never occurs and is never predicted: its scores are 0 and it is left out of the macro
    // mean. B occurs but is never predicted: precision (0/0) and F1 are 0, and they count.
    const ClassScores s = classScores({4, 0, 0,  //
                                       2, 0, 0,  //
                                       0, 0, 0},
                                      3);
    QCOMPARE(s.perClass[1].precision, 0.0);
    QCOMPARE(s.perClass[1].recall, 0.0);
    QCOMPARE(s.perClass[1].f1, 0.0);
    QCOMPARE(s.perClass[2].support, int64_t(0));
    QCOMPARE(s.perClass[2].precision, 0.0);
    QCOMPARE(s.perClass[2].recall, 0.0);
    QVERIFY(!std::isnan(s.macroF1) && !std::isnan(s.weightedF1));
    QVERIFY(near(s.macroRecall, (1.0 + 0.0) / 2.0));
    QVERIFY(near(s.macroPrecision, (4.0 / 6.0) / 2.0));
    QVERIFY(near(s.macroF1, (0.8 + 0.0) / 2.0));  // A: P 2/3, R 1, F1 0.8
    QVERIFY(near(s.weightedF1, 4.0 / 6.0 * 0.8));
  }

  void predictedButNeverTrueClass() {
    // B is predicted twice but never the truth: recall 0/0 is 0, precision 0, and it counts in
    // the macro mean (as scikit-learn's labels present in truth or prediction).
    const ClassScores s = classScores({3, 2,  //
                                       0, 0},
                                      2);
    QCOMPARE(s.perClass[1].support, int64_t(0));
    QCOMPARE(s.perClass[1].recall, 0.0);
    QCOMPARE(s.perClass[1].precision, 0.0);
    QVERIFY(near(s.macroRecall, (0.6 + 0.0) / 2.0));
    QVERIFY(near(s.weightedRecall, 0.6));  // B has no support, no weight
  }

  void emptyMatrices() {
    const ClassScores none = classScores({}, 0);
    QCOMPARE(none.examples, int64_t(0));
    QCOMPARE(none.accuracy, 0.0);
    QVERIFY(none.perClass.empty());
    const ClassScores zeros = classScores({0, 0, 0, 0}, 2);
    QCOMPARE(zeros.examples, int64_t(0));
    QCOMPARE(int(zeros.perClass.size()), 2);
    QCOMPARE(zeros.macroF1, 0.0);
    QCOMPARE(zeros.weightedF1, 0.0);
  }

  void refusesMalformedMatrices() {
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, classScores({1, 2, 3}, 2));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, classScores({1, -1, 0, 1}, 2));
  }
};

QTEST_APPLESS_MAIN(TestClassScores)
#include "test_class_scores.moc"
